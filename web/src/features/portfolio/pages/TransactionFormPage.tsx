import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import Big from 'big.js';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { ApiError } from '@/shared/api/client';
import { formatAmount } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { IDEMPOTENCY_KEY_REUSED, newIdempotencyKey } from '@/shared/lib/idempotency';
import type { Instrument } from '@/entities/instrument/api/types';
import { instrumentQueryOptions } from '@/entities/instrument/api/instrument';
import { instrumentLabel, isInstrumentId } from '@/entities/instrument/model/ids';
import { useAmountsLocked } from '@/entities/member/model/amounts-lock';
import { type NewTransaction, type Transaction, TX_KINDS, type TxKind } from '@/entities/transaction/api/types';
import { localIsoDate } from '@/shared/lib/local-date';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { focusFirstInvalid, InputField, SelectField } from '@/shared/ui/form/Field';
import { serverFieldErrors } from '@/shared/ui/form/server-errors';
import { cleanDecimal, isDecimal } from '../lib/format';
import { failureMessage } from '../lib/failure';
import { InstrumentPicker } from '../components/InstrumentPicker';
import { usePortfolioT, type PortfolioT } from '../locales/messages';
import { LoadFailed } from '../components/ui';
import '../components/portfolio.css';
import { BASE_CURRENCIES, type Portfolio, usePortfolio } from '../api/portfolio';
import { parsePortfolioRef } from '../api/keys';
import { useSaveTransaction } from '../api/save-transaction';
import { useTransactions } from '../api/transactions';
import { useFxRateOn } from '../api/fx-rate';
import { useDividendDraft } from '../api/dividend-draft';

/**
 * What a failed save says. A network failure and a reused key are worth retrying: the
 * same content is sent with the same key, so the trade is recorded once however often.
 */
function submitFailure(t: PortfolioT, error: unknown): string {
  if (error instanceof ApiError && error.code === 'network_error') return t('form.networkRetry');
  if (error instanceof ApiError && error.code === IDEMPOTENCY_KEY_REUSED) return t('form.keyReused');
  return failureMessage(t, error, t('form.failed'));
}

/** `/portfolios/:id/transactions/new` and `/portfolios/:id/transactions/:txId`, for members. */
export function TransactionRoute() {
  return (
    <RequireAuth>
      <TransactionFormPage />
    </RequireAuth>
  );
}

/** A form field, named as the API names it (the keys of the server's 422 `fields`). */
export type TxField =
  | 'kind'
  | 'instrument_id'
  | 'trade_date'
  | 'quantity'
  | 'price'
  | 'fee'
  | 'tax'
  | 'currency'
  | 'fx_rate'
  | 'split'
  | 'note';

/** The validation's own field names (shared with the CSV columns) → the form's. */
const FIELD_ALIASES: Record<string, TxField> = {
  date: 'trade_date',
  type: 'kind',
  instrument: 'instrument_id',
  ratio: 'split',
  'split.numerator': 'split',
  'split.denominator': 'split',
};

/** Which inputs a kind has (docs/portfolio.md, "Transactions"). */
export const KIND_FIELDS: Record<TxKind, readonly TxField[]> = {
  buy: ['instrument_id', 'trade_date', 'quantity', 'price', 'fee', 'currency', 'fx_rate', 'note'],
  sell: ['instrument_id', 'trade_date', 'quantity', 'price', 'fee', 'tax', 'currency', 'fx_rate', 'note'],
  dividend: ['instrument_id', 'trade_date', 'quantity', 'price', 'tax', 'currency', 'fx_rate', 'note'],
  deposit: ['trade_date', 'price', 'currency', 'fx_rate', 'note'],
  withdrawal: ['trade_date', 'price', 'currency', 'fx_rate', 'note'],
  fee: ['trade_date', 'price', 'currency', 'fx_rate', 'note'],
  tax: ['trade_date', 'price', 'currency', 'fx_rate', 'note'],
  split: ['instrument_id', 'trade_date', 'split', 'note'],
};

/** What the form holds: the text of each input. */
export interface TxDraft {
  kind: TxKind;
  instrument: Instrument | string | null;
  trade_date: string;
  quantity: string;
  price: string;
  fee: string;
  tax: string;
  currency: string;
  fx_rate: string;
  numerator: string;
  denominator: string;
  note: string;
}

type Errors = Partial<Record<TxField, string>>;

/** Today on the member's clock, `YYYY-MM-DD`. */
const today = (): string => localIsoDate();

const instrumentIdOf = (v: TxDraft['instrument']) => (v === null ? null : typeof v === 'string' ? v : v.id);
const isKrx = (id: string | null) => id !== null && id.startsWith('KRX:');

/** The currency an instrument trades in: KRX → KRW, US exchanges → USD. */
export function instrumentCurrency(instrument: Pick<Instrument, 'id' | 'currency'>): string | undefined {
  if ((BASE_CURRENCIES as readonly string[]).includes(instrument.currency)) return instrument.currency;
  const exchange = instrument.id.slice(0, instrument.id.indexOf(':'));
  if (exchange === 'KRX') return 'KRW';
  if (exchange === 'NYSE' || exchange === 'NASDAQ') return 'USD';
  return undefined;
}

/** Whether the kind shows the exchange rate for `currency` in a portfolio with `base`. */
export const needsFx = (draft: Pick<TxDraft, 'kind' | 'currency'>, base: string) => draft.kind !== 'split' && draft.currency !== base;

function emptyDraft(base: string): TxDraft {
  return {
    kind: 'buy',
    instrument: null,
    trade_date: today(),
    quantity: '',
    price: '',
    fee: '',
    tax: '',
    currency: base,
    fx_rate: '',
    numerator: '',
    denominator: '',
    note: '',
  };
}

/**
 * A new transaction's draft from the address (`?instrument=KRX:005930&price=71200`, how a
 * stock's page opens the form): a trade of that instrument at that price, today.
 */
export function prefilledDraft(base: string, params: URLSearchParams): TxDraft {
  const draft = emptyDraft(base);
  const instrument = params.get('instrument');
  if (instrument && isInstrumentId(instrument)) draft.instrument = instrument;
  const price = params.get('price');
  if (price && isDecimal(price) && new Big(price).gt(0)) draft.price = price;
  const kind = params.get('kind');
  if (kind && (TX_KINDS as readonly string[]).includes(kind)) draft.kind = kind as TxKind;
  return draft;
}

function draftOf(tx: Transaction): TxDraft {
  const plain = (v: string) => (v && new Big(v).eq(0) ? '' : v);
  return {
    kind: tx.kind,
    instrument: tx.instrument_id ?? null,
    trade_date: tx.trade_date,
    quantity: tx.quantity,
    price: tx.kind === 'split' ? '' : tx.price,
    fee: plain(tx.fee),
    tax: plain(tx.tax),
    currency: tx.currency,
    fx_rate: tx.fx_rate ?? '',
    numerator: tx.split ? String(tx.split.numerator) : '',
    denominator: tx.split ? String(tx.split.denominator) : '',
    note: tx.note,
  };
}

/** The browser's own checks; the server has the last word (its 422 `fields` show the same way). */
export function validateDraft(draft: TxDraft, base: string, t: PortfolioT): Errors {
  const errors: Errors = {};
  const fields = KIND_FIELDS[draft.kind];
  const has = (f: TxField) => fields.includes(f);
  const instrumentId = instrumentIdOf(draft.instrument);
  const positive = (raw: string): string | undefined => {
    const v = cleanDecimal(raw);
    if (!v) return t('form.errors.required');
    if (!isDecimal(v)) return t('form.errors.number');
    return new Big(v).gt(0) ? undefined : t('form.errors.positive');
  };
  const notNegative = (raw: string): string | undefined => {
    const v = cleanDecimal(raw);
    if (!v) return undefined;
    if (!isDecimal(v)) return t('form.errors.number');
    return new Big(v).gte(0) ? undefined : t('form.errors.notNegative');
  };
  const whole = (raw: string) => /^[1-9]\d{0,8}$/.test(raw.trim());

  if (has('instrument_id') && !instrumentId) errors.instrument_id = t('form.errors.instrumentRequired');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.trade_date)) errors.trade_date = t('form.errors.date');
  if (has('quantity')) {
    const e = positive(draft.quantity);
    if (e) errors.quantity = e;
    else if ((draft.kind === 'buy' || draft.kind === 'sell') && isKrx(instrumentId) && !new Big(cleanDecimal(draft.quantity)).mod(1).eq(0)) {
      errors.quantity = t('form.errors.wholeShares');
    }
  }
  if (has('price')) {
    const e = positive(draft.price);
    if (e) errors.price = e;
  }
  for (const f of ['fee', 'tax'] as const) {
    if (!has(f)) continue;
    const e = notNegative(draft[f]);
    if (e) errors[f] = e;
  }
  if (has('fx_rate') && needsFx(draft, base)) {
    const v = cleanDecimal(draft.fx_rate);
    if (!v) errors.fx_rate = t('form.errors.fxRateRequired');
    else {
      const e = positive(v);
      if (e) errors.fx_rate = e;
    }
  }
  if (has('split') && (!whole(draft.numerator) || !whole(draft.denominator))) errors.split = t('form.errors.wholeNumber');
  return errors;
}

/** The JSON the API takes for `draft` (call after {@link validateDraft} found nothing). */
export function transactionBody(draft: TxDraft, base: string): NewTransaction {
  const fields = KIND_FIELDS[draft.kind];
  const has = (f: TxField) => fields.includes(f);
  const num = (raw: string) => new Big(cleanDecimal(raw) || '0').toFixed();
  const instrumentId = has('instrument_id') ? instrumentIdOf(draft.instrument) : null;
  const cash = !has('quantity') && has('price');
  const split = draft.kind === 'split';
  return {
    kind: draft.kind,
    trade_date: draft.trade_date,
    instrument_id: instrumentId,
    quantity: split ? '0' : cash ? '1' : num(draft.quantity),
    price: split ? '0' : num(draft.price),
    fee: has('fee') ? num(draft.fee) : '0',
    tax: has('tax') ? num(draft.tax) : '0',
    currency: draft.currency,
    fx_rate: has('fx_rate') && needsFx(draft, base) ? num(draft.fx_rate) : null,
    split: split ? { numerator: Number(draft.numerator.trim()), denominator: Number(draft.denominator.trim()) } : null,
    note: draft.note.trim(),
  };
}

/**
 * The `Idempotency-Key` of a new transaction's submit: one key per content sent. A
 * resend of the same body (a double tap, a retry after a network failure or a timeout)
 * keeps its key, so the server records the trade once; a changed body gets a new key;
 * `forget` drops the key after a success (the next transaction is another) or after a
 * 409 `idempotency_key_reused` (the key named another request: send with a new one).
 */
export function useSubmissionKey() {
  const current = useRef<{ body: string; key: string } | null>(null);
  return {
    keyFor(body: NewTransaction): string {
      const json = JSON.stringify(body);
      if (current.current?.body !== json) current.current = { body: json, key: newIdempotencyKey() };
      return current.current.key;
    },
    forget() {
      current.current = null;
    },
  };
}

export function TransactionFormPage() {
  const t = usePortfolioT();
  const { id: rawId, txId: rawTx } = useParams();
  const ref = parsePortfolioRef(rawId);
  const txId = rawTx === undefined || rawTx === 'new' ? undefined : /^\d+$/.test(rawTx) ? Number(rawTx) : NaN;
  usePageMeta({ title: t('meta.transaction.title'), description: t('meta.transaction.description') });
  if (typeof ref !== 'number' || Number.isNaN(txId)) {
    return (
      <div className="pf-page">
        <div className="pf-message" role="alert">
          <p>{t('notFound')}</p>
          <AppLink to="/portfolios" className="button button--secondary">
            {t('backToList')}
          </AppLink>
        </div>
      </div>
    );
  }
  return <Loader portfolioId={ref} txId={txId} />;
}

/** Waits for the portfolio (its base currency) and, when editing, the transaction. */
function Loader({ portfolioId, txId }: { portfolioId: number; txId: number | undefined }) {
  const t = usePortfolioT();
  const portfolio = usePortfolio(portfolioId);
  const editing = txId !== undefined;
  const transactions = useTransactions(portfolioId, editing);
  const tx = editing ? transactions.data?.find((x) => x.id === txId) : undefined;

  if (portfolio.isError || (editing && transactions.isError)) {
    return (
      <div className="pf-page">
        <LoadFailed
          message={t('form.loadFailed')}
          onRetry={() => {
            void portfolio.refetch();
            if (editing) void transactions.refetch();
          }}
        />
      </div>
    );
  }
  if (!portfolio.data || (editing && !transactions.data)) return <div className="pf-page pf-form--loading" aria-busy="true" />;
  if (editing && !tx) {
    return (
      <div className="pf-page">
        <div className="pf-message" role="alert">
          <p>{t('form.txNotFound')}</p>
          <AppLink to={`/portfolios/${portfolioId}`} className="button button--secondary">
            {portfolio.data.name}
          </AppLink>
        </div>
      </div>
    );
  }
  return <TransactionForm portfolio={portfolio.data} tx={tx} />;
}

function TransactionForm({ portfolio, tx }: { portfolio: Portfolio; tx: Transaction | undefined }) {
  const t = usePortfolioT();
  const locale = useLocale();
  const navigate = useNavigate();
  const toast = useToast();
  const base = portfolio.base_currency;
  const save = useSaveTransaction(portfolio.id, tx?.id);
  const editing = tx !== undefined;
  const submission = useSubmissionKey();
  // Set on submit, before React renders the disabled button: a second tap in between is dropped.
  const sending = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const messageId = useId();
  const [params] = useSearchParams();
  const [draft, setDraft] = useState<TxDraft>(() => (tx ? draftOf(tx) : prefilledDraft(base, params)));
  const [errors, setErrors] = useState<Errors>({});
  const [message, setMessage] = useState('');
  const [locked] = useAmountsLocked();
  const backTo = `/portfolios/${portfolio.id}`;

  // An instrument being edited arrives as its id: its names come from the catalogue.
  const editedId = typeof draft.instrument === 'string' ? draft.instrument : '';
  const detail = useQuery({ ...instrumentQueryOptions(editedId), enabled: editedId !== '' });
  const detailData = editedId ? detail.data : undefined;
  useEffect(() => {
    if (detailData && typeof draft.instrument === 'string' && detailData.id === draft.instrument) {
      // A new trade (opened from a stock's page) is in its instrument's currency.
      setDraft((d) => ({ ...d, instrument: detailData, currency: editing ? d.currency : (instrumentCurrency(detailData) ?? d.currency) }));
    }
  }, [detailData, draft.instrument, editing]);

  const fields = KIND_FIELDS[draft.kind];
  const has = (f: TxField) => fields.includes(f);
  const fx = has('fx_rate') && needsFx(draft, base);

  // The day's stored rate fills the exchange rate until the member types their own: a
  // value still equal to the last one filled in follows the date and the currency.
  const storedRate = useFxRateOn(draft.currency, base, draft.trade_date, fx).data;
  const filledRate = useRef('');
  useEffect(() => {
    if (!fx || !storedRate) return;
    setDraft((d) => {
      if (d.fx_rate !== '' && d.fx_rate !== filledRate.current) return d;
      filledRate.current = storedRate;
      return { ...d, fx_rate: storedRate };
    });
  }, [fx, storedRate]);

  // A new dividend: the shares held on the ex-date, the dividend per share and the
  // withholding at the country's rate, each until the member types their own.
  const dividend = useDividendDraft(portfolio.id, instrumentIdOf(draft.instrument), draft.trade_date, !editing && draft.kind === 'dividend').data;
  const filledDividend = useRef<Partial<Record<'quantity' | 'price' | 'tax', string>>>({});
  useEffect(() => {
    if (!dividend?.per_share || !dividend.tax) return;
    const values = { quantity: dividend.quantity, price: dividend.per_share, tax: dividend.tax };
    setDraft((d) => {
      const next = { ...d };
      for (const key of ['quantity', 'price', 'tax'] as const) {
        if (d[key] === '' || d[key] === filledDividend.current[key]) next[key] = values[key];
      }
      return next;
    });
    filledDividend.current = values;
  }, [dividend]);
  const dividendHint =
    dividend?.ex_date && draft.kind === 'dividend' && draft.quantity === dividend.quantity
      ? t('form.dividendFilled', { date: dividend.ex_date })
      : undefined;
  const withholdingHint =
    dividend?.tax && draft.kind === 'dividend' && draft.tax === dividend.tax
      ? t('form.withholdingFilled', { rate: new Big(dividend.withholding_rate).times(100).toFixed() })
      : undefined;

  const clear = (...keys: TxField[]) =>
    setErrors((e) => {
      const copy = { ...e };
      for (const k of keys) delete copy[k];
      return copy;
    });
  const set = <K extends keyof TxDraft>(key: K, value: TxDraft[K], field: TxField) => {
    setDraft((d) => ({ ...d, [key]: value }));
    clear(field);
  };

  const onKind = (kind: TxKind) => {
    setDraft((d) => {
      const next = { ...d, kind };
      // A trade is in its instrument's currency (cash movements keep the one chosen).
      if (KIND_FIELDS[kind].includes('instrument_id') && d.instrument && typeof d.instrument !== 'string') {
        next.currency = instrumentCurrency(d.instrument) ?? d.currency;
      }
      return next;
    });
    setErrors({});
    setMessage('');
  };

  const onInstrument = (instrument: Instrument | null) => {
    setDraft((d) => ({ ...d, instrument, currency: instrument ? (instrumentCurrency(instrument) ?? d.currency) : d.currency }));
    clear('instrument_id', 'currency', 'quantity');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    const local = validateDraft(draft, base, t);
    setErrors(local);
    if (Object.keys(local).length) {
      setMessage(t('form.checkFields'));
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setMessage('');
    const body = transactionBody(draft, base);
    // Edits are PUTs, the same however often they are sent: only new transactions need a key.
    const idempotencyKey = tx ? undefined : submission.keyFor(body);
    sending.current = true;
    save.mutate(
      { body, idempotencyKey },
      {
        onSuccess: () => {
          submission.forget();
          toast.show(t('form.saved'), { tone: 'success' });
          void navigate(backTo);
        },
        onError: (error) => {
          // The stock as the member picked it, not its id.
          const picked = typeof draft.instrument === 'object' && draft.instrument ? draft.instrument : undefined;
          const known = picked ? { instrument: instrumentLabel(picked, picked.id, locale) } : undefined;
          const server = serverFieldErrors(error, FIELD_ALIASES, known) as Errors;
          setErrors(server);
          setMessage(Object.keys(server).length ? t('form.checkFields') : submitFailure(t, error));
          if (error instanceof ApiError && error.code === IDEMPOTENCY_KEY_REUSED) submission.forget();
          requestAnimationFrame(() => focusFirstInvalid(formRef.current));
        },
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };

  const numberInput = (field: 'quantity' | 'price' | 'fee' | 'tax' | 'fx_rate', label: string, hint?: string) => (
    <InputField
      label={label}
      hint={hint}
      inputMode="decimal"
      autoComplete="off"
      value={draft[field]}
      onChange={(e) => set(field, e.target.value, field)}
      error={errors[field]}
      name={field}
      data-testid={`field-${field}`}
    />
  );

  const total = (() => {
    if (locked || !has('quantity') || !has('price')) return '';
    const q = cleanDecimal(draft.quantity);
    const p = cleanDecimal(draft.price);
    if (!isDecimal(q) || !isDecimal(p)) return '';
    return formatAmount(new Big(q).times(p).toFixed(), draft.currency, locale);
  })();

  const kindLabelId = useId();

  return (
    <div className="pf-page pf-page--narrow" data-testid="transaction-form-page">
      <nav className="pf-breadcrumb" aria-label={portfolio.name}>
        <AppLink to={backTo}>{portfolio.name}</AppLink>
      </nav>
      <h1 className="pf-title">{tx ? t('form.editTitle') : t('form.newTitle')}</h1>
      <form ref={formRef} className="card pf-section pf-form" onSubmit={onSubmit} noValidate aria-describedby={message ? messageId : undefined} data-testid="transaction-form">
        <fieldset className="pf-fieldset">
          <legend id={kindLabelId} className="field__label">
            {t('form.kind')}
          </legend>
          <div className="pf-kinds" role="radiogroup" aria-labelledby={kindLabelId}>
            {TX_KINDS.map((k) => (
              <label key={k} className="pf-kind">
                <input type="radio" name="kind" value={k} checked={draft.kind === k} onChange={() => onKind(k)} data-testid={`kind-${k}`} />
                <span>{t(`kinds.${k}`)}</span>
              </label>
            ))}
          </div>
          {errors.kind && <p className="field__error">{errors.kind}</p>}
        </fieldset>

        {has('instrument_id') && (
          <InstrumentPicker label={t('form.instrument')} value={draft.instrument} onChange={onInstrument} error={errors.instrument_id} disabled={save.isPending} />
        )}

        <InputField
          label={t('form.date')}
          type="date"
          value={draft.trade_date}
          max={today()}
          onChange={(e) => set('trade_date', e.target.value, 'trade_date')}
          error={errors.trade_date}
          name="trade_date"
          data-testid="field-trade_date"
        />

        {(has('quantity') || has('price')) && (
          <div className="pf-form__row">
            {has('quantity') && numberInput('quantity', draft.kind === 'dividend' ? t('form.dividendQuantity') : t('form.quantity'), dividendHint)}
            {has('price') &&
              numberInput(
                'price',
                draft.kind === 'dividend' ? t('form.dividendPrice') : has('quantity') ? t('form.price') : t('form.amount'),
              )}
          </div>
        )}
        {total && <p className="pf-form__total">{t('form.total', { amount: total })}</p>}

        {(has('fee') || has('tax')) && (
          <div className="pf-form__row">
            {has('fee') && numberInput('fee', t('form.fee'))}
            {has('tax') && numberInput('tax', draft.kind === 'dividend' ? t('form.withholding') : t('form.tax'), withholdingHint)}
          </div>
        )}

        {has('currency') && (
          <div className="pf-form__row">
            <SelectField
              label={t('form.currency')}
              value={draft.currency}
              onChange={(e) => set('currency', e.target.value, 'currency')}
              options={BASE_CURRENCIES.map((c) => ({ value: c, label: c }))}
              error={errors.currency}
              name="currency"
              data-testid="field-currency"
            />
            {fx &&
              numberInput(
                'fx_rate',
                t('form.fxRate'),
                draft.fx_rate !== '' && draft.fx_rate === filledRate.current
                  ? t('form.fxRateFilled', { currency: draft.currency, base, date: draft.trade_date })
                  : t('form.fxRateHint', { currency: draft.currency, base }),
              )}
          </div>
        )}

        {has('split') && (
          <fieldset className="pf-fieldset">
            <legend className="field__label">{t('form.splitRatio')}</legend>
            <div className="pf-form__row pf-form__row--ratio">
              <InputField
                label={t('form.numerator')}
                inputMode="numeric"
                value={draft.numerator}
                onChange={(e) => set('numerator', e.target.value, 'split')}
                error={errors.split}
                name="numerator"
                data-testid="field-numerator"
              />
              <span className="pf-ratio-colon" aria-hidden="true">
                :
              </span>
              <InputField
                label={t('form.denominator')}
                inputMode="numeric"
                value={draft.denominator}
                onChange={(e) => set('denominator', e.target.value, 'split')}
                name="denominator"
                data-testid="field-denominator"
              />
            </div>
            <p className="field__hint">{t('form.splitHint')}</p>
          </fieldset>
        )}

        <InputField
          label={t('form.note')}
          value={draft.note}
          maxLength={500}
          onChange={(e) => set('note', e.target.value, 'note')}
          error={errors.note}
          name="note"
        />

        <p id={messageId} className="pf-form__message" role="alert" data-testid="form-message">
          {message}
        </p>
        <div className="pf-form__actions">
          <AppLink to={backTo} className="button button--secondary">
            {t('form.cancel')}
          </AppLink>
          <button type="submit" className="button button--primary" disabled={save.isPending} data-testid="transaction-submit">
            {save.isPending ? t('form.saving') : t('form.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
