import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useAmountsLocked } from '@/entities/member/model/amounts-lock';
import { useToast } from '@/shared/ui/toast';
import { InputField, SelectField } from '@/shared/ui/form/Field';
import { serverFieldErrors } from '@/shared/ui/form/server-errors';
import { failureMessage } from '../lib/failure';
import { cleanDecimal, isDecimal } from '../lib/format';
import { usePortfolioT } from '../locales/messages';
import { storeSavedOrderableCash } from '../lib/prefs';
import { Amount } from './ui';
import { useUpdatePortfolio } from '../api/update-portfolio';
import { BASE_CURRENCIES, type BaseCurrency, type OrderableCash } from '../api/portfolio';

interface Props {
  portfolioId: number;
  /** The saved orderable cash (`null`: none); `undefined` while the portfolio is loading. */
  orderable: OrderableCash | null | undefined;
  /** The last KRW amount seen (`KB_ORDERABLE_CASH_AMOUNT`), shown while loading. */
  cached: string | undefined;
  /** The currency a new amount starts in. */
  baseCurrency: BaseCurrency;
}

/**
 * "주문 가능 현금" in the summary: the amount (the remembered one before the network
 * answers), and a small form to enter, change or clear it (`PATCH … orderable_cash`).
 */
export function OrderableCashRow({ portfolioId, orderable, cached, baseCurrency }: Props) {
  const t = usePortfolioT();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  const loading = orderable === undefined;

  // Closing the form puts focus back on the button that opened it.
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  if (loading && cached === undefined) return null;

  return (
    <div className={`pf-orderable${editing ? ' pf-orderable--editing' : ''}`} data-testid="orderable-cash">
      <dt>{t('figures.orderableCash')}</dt>
      <dd>
        {editing && orderable !== undefined ? (
          <OrderableCashForm portfolioId={portfolioId} orderable={orderable} baseCurrency={baseCurrency} onDone={() => setEditing(false)} />
        ) : (
          <span className="pf-orderable__line">
            {orderable ? (
              <Amount value={orderable.amount} currency={orderable.currency} testId="orderable-cash-amount" />
            ) : loading ? (
              <span className="pf-orderable__cached">
                <Amount value={cached!} currency="KRW" testId="orderable-cash-amount" className="pf-cached" />
                <span className="pf-summary__note">{t('figures.orderableCashCached')}</span>
              </span>
            ) : (
              <span className="pf-orderable__none" data-testid="orderable-cash-none">
                {t('orderableCash.none')}
              </span>
            )}
            {!loading && (
              <button
                ref={editButton}
                type="button"
                className="pf-icon-button"
                onClick={() => setEditing(true)}
                aria-label={orderable ? t('orderableCash.editLabel') : t('orderableCash.setLabel')}
                data-testid="orderable-cash-edit"
              >
                {orderable ? t('orderableCash.edit') : t('orderableCash.set')}
              </button>
            )}
          </span>
        )}
      </dd>
    </div>
  );
}

function OrderableCashForm({
  portfolioId,
  orderable,
  baseCurrency,
  onDone,
}: {
  portfolioId: number;
  orderable: OrderableCash | null;
  baseCurrency: BaseCurrency;
  onDone: () => void;
}) {
  const t = usePortfolioT();
  const toast = useToast();
  const update = useUpdatePortfolio(portfolioId);
  const [locked] = useAmountsLocked();
  const statusId = useId();
  const initialCurrency = (BASE_CURRENCIES as readonly string[]).includes(orderable?.currency ?? '') ? (orderable!.currency as BaseCurrency) : baseCurrency;
  // With the lock on, the amount is not written into the field either.
  const [amount, setAmount] = useState(orderable && !locked ? orderable.amount : '');
  const [currency, setCurrency] = useState<BaseCurrency>(initialCurrency);
  const [error, setError] = useState<string | undefined>();
  const [message, setMessage] = useState('');

  const save = (value: { amount: string; currency: string } | null) => {
    setMessage('');
    update.mutate(
      { orderable_cash: value },
      {
        onSuccess: (saved) => {
          storeSavedOrderableCash(saved.orderable_cash ?? null);
          toast.show(value ? t('orderableCash.saved') : t('orderableCash.cleared'), { tone: 'success' });
          onDone();
        },
        onError: (failure) => {
          const fields = serverFieldErrors(failure);
          if (fields.orderable_cash) setError(fields.orderable_cash);
          else setMessage(failureMessage(t, failure, t('orderableCash.failed')));
        },
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const clean = cleanDecimal(amount);
    if (!isDecimal(clean) || clean.startsWith('-')) {
      setError(t('orderableCash.invalid'));
      return;
    }
    save({ amount: clean.replace(/^\+/, ''), currency });
  };

  return (
    <form className="pf-orderable__form" onSubmit={onSubmit} noValidate aria-describedby={message ? statusId : undefined} data-testid="orderable-cash-form">
      <div className="pf-orderable__fields">
        <InputField
          label={t('orderableCash.amount')}
          value={amount}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          // Opened by the member's own "edit" tap: the field they asked for takes the focus.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          onChange={(e) => {
            setAmount(e.target.value);
            setError(undefined);
          }}
          error={error}
          name="orderable_cash"
          className="pf-orderable__amount"
        />
        <SelectField
          label={t('orderableCash.currency')}
          value={currency}
          onChange={(e) => setCurrency(e.target.value as BaseCurrency)}
          options={BASE_CURRENCIES.map((c) => ({ value: c, label: c }))}
          name="orderable_cash_currency"
          className="pf-orderable__currency"
        />
      </div>
      <p className="field__hint">{t('orderableCash.hint')}</p>
      <p id={statusId} className="pf-form__message" role="alert">
        {message}
      </p>
      <div className="pf-form__actions">
        {orderable && (
          <button type="button" className="button button--secondary pf-orderable__clear" onClick={() => save(null)} disabled={update.isPending} data-testid="orderable-cash-clear">
            {t('orderableCash.clear')}
          </button>
        )}
        <button type="button" className="button button--secondary" onClick={onDone} disabled={update.isPending}>
          {t('orderableCash.cancel')}
        </button>
        <button type="submit" className="button button--primary" disabled={update.isPending} data-testid="orderable-cash-save">
          {update.isPending ? t('orderableCash.saving') : t('orderableCash.save')}
        </button>
      </div>
    </form>
  );
}
