import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import type { LedgerIssue } from '@/entities/transaction/api/types';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { focusFirstInvalid, InputField, SelectField } from '@/shared/ui/form/Field';
import { serverFieldErrors } from '@/shared/ui/form/server-errors';
import { failureMessage } from '../lib/failure';
import { LedgerIssueNote } from '../components/LedgerIssues';
import { usePortfolioT } from '../locales/messages';
import { currencyParam, useCurrencyMode } from '../lib/prefs';
import { Amount, AmountControls, LoadFailed, Percent } from '../components/ui';
import '../components/portfolio.css';
import { BASE_CURRENCIES, type BaseCurrency, COST_METHODS, type CostMethod, type Portfolio } from '../api/portfolio';
import type { Totals } from '../api/list';
import { META_ID } from '../api/keys';
import { useCreatePortfolio } from '../api/create-portfolio';
import { usePortfolioList } from '../api/list';
import { useReorderPortfolios } from '../api/reorder-portfolios';

/** The server keeps at most this many per member, each name 1–60 characters. */
export const MAX_PORTFOLIOS = 20;
export const NAME_MAX_CHARS = 60;

/** `/portfolios`, for members (visitors go to log in and come back). */
export function PortfolioListRoute() {
  return (
    <RequireAuth>
      <PortfolioListPage />
    </RequireAuth>
  );
}

/**
 * The member's portfolios: the meta portfolio (all of them combined) first, then each in
 * the member's order with its value, today's change and return; and the form to create one.
 */
export function PortfolioListPage() {
  const t = usePortfolioT();
  usePageMeta({ title: t('meta.list.title'), description: t('meta.list.description') });
  const [mode] = useCurrencyMode();
  const list = usePortfolioList(currencyParam(mode));
  const data = list.data;
  const [creating, setCreating] = useState(false);
  const formOpen = creating || (data !== undefined && data.portfolios.length === 0);
  const full = (data?.portfolios.length ?? 0) >= MAX_PORTFOLIOS;
  const toast = useToast();
  const { reorder } = useReorderPortfolios();
  const cardsRef = useRef<HTMLUListElement>(null);
  const [announcement, setAnnouncement] = useState('');
  // After a move, focus stays on the button pressed (or its twin, at an end of the list),
  // once the card is at its new place: a card moved in the DOM loses focus otherwise.
  const focusAfterMove = useRef<{ id: number; index: number; dir: MoveDir } | null>(null);
  const order = data?.portfolios.map((p) => p.portfolio.id) ?? [];

  useLayoutEffect(() => {
    const pending = focusAfterMove.current;
    if (!pending || order[pending.index] !== pending.id) return;
    focusAfterMove.current = null;
    const card = cardsRef.current?.querySelector(`[data-id="${pending.id}"]`);
    const pressed = card?.querySelector<HTMLButtonElement>(`[data-move="${pending.dir}"]`);
    const other = card?.querySelector<HTMLButtonElement>(`[data-move="${pending.dir === 'up' ? 'down' : 'up'}"]`);
    (pressed && !pressed.disabled ? pressed : other)?.focus();
  });

  const move = (index: number, dir: MoveDir) => {
    if (!data) return;
    const target = dir === 'up' ? index - 1 : index + 1;
    const ids = data.portfolios.map((p) => p.portfolio.id);
    if (target < 0 || target >= ids.length) return;
    const id = ids[index]!;
    const moved = data.portfolios[index]!.portfolio.name;
    [ids[index], ids[target]] = [ids[target]!, id];
    focusAfterMove.current = { id, index: target, dir };
    setAnnouncement(t('reorder.moved', { name: moved, position: target + 1 }));
    void reorder(ids).then((result) => {
      if (result.ok) return;
      focusAfterMove.current = { id, index, dir };
      // The toast is announced; the earlier "moved" line is withdrawn.
      setAnnouncement('');
      toast.show(failureMessage(t, result.error, t('reorder.failed')), { tone: 'error' });
    });
  };

  return (
    <div className="pf-page" data-testid="portfolio-list-page">
      <div className="pf-head">
        <h1 className="pf-title">{t('title')}</h1>
        <AmountControls />
      </div>

      {list.isError && !data ? (
        <LoadFailed onRetry={() => void list.refetch()} />
      ) : !data ? (
        <div className="pf-skeleton" aria-busy="true">
          <span className="pf-skeleton__card" />
          <span className="pf-skeleton__card" />
        </div>
      ) : (
        <ul
          ref={cardsRef}
          className={`pf-cards${list.isPlaceholderData ? ' pf-stale' : ''}`}
          aria-busy={list.isFetching}
          aria-describedby={data.portfolios.length > 1 ? 'pf-reorder-hint' : undefined}
          data-testid="portfolio-cards"
        >
          <PortfolioCard
            id={META_ID}
            name={t('metaName')}
            sub={t('metaHint')}
            totals={data.meta}
            meta
            partial={data.portfolios.some((p) => p.ledger_issue != null)}
          />
          {data.portfolios.map(({ portfolio, totals, ledger_issue }, index) => (
            <PortfolioCard
              key={portfolio.id}
              id={portfolio.id}
              name={portfolio.name}
              sub={subline(portfolio)}
              totals={totals}
              issue={ledger_issue ?? undefined}
              order={data.portfolios.length > 1 ? { first: index === 0, last: index === data.portfolios.length - 1, move: (dir) => move(index, dir) } : undefined}
            />
          ))}
        </ul>
      )}
      {data && data.portfolios.length > 1 && (
        <p id="pf-reorder-hint" className="field__hint">
          {t('reorder.hint')}
        </p>
      )}
      <span className="visually-hidden" role="status" data-testid="reorder-status">
        {announcement}
      </span>
      {data && data.portfolios.length === 0 && <p className="pf-empty">{t('empty')}</p>}

      <section className="card pf-section" aria-labelledby="pf-create-title">
        <div className="pf-section__head">
          <h2 id="pf-create-title" className="pf-section__title">
            {t('create.title')}
          </h2>
          {!formOpen && (
            <button
              type="button"
              className="button button--primary"
              onClick={() => setCreating(true)}
              disabled={full}
              aria-expanded={false}
              data-testid="create-open"
            >
              {t('create.open')}
            </button>
          )}
        </div>
        {full && !formOpen && <p className="field__hint">{t('create.errors.tooMany')}</p>}
        {formOpen && <CreatePortfolioForm onDone={() => setCreating(false)} canCancel={data !== undefined && data.portfolios.length > 0} />}
      </section>
    </div>
  );
}

function subline(p: Portfolio): string {
  return [p.broker, p.base_currency].filter(Boolean).join(' · ');
}

type MoveDir = 'up' | 'down';

interface CardProps {
  id: number | typeof META_ID;
  name: string;
  sub: string;
  totals: Totals;
  meta?: boolean;
  /** The transaction its figures stop before (it cannot apply). */
  issue?: LedgerIssue | undefined;
  /** The meta card: some portfolio's figures stop early. */
  partial?: boolean;
  /** Its place among the member's portfolios, and how to move it (not for the meta card). */
  order?: { first: boolean; last: boolean; move: (dir: MoveDir) => void } | undefined;
}

/** One portfolio in the list: a link to it with its value, today's change and return; move up/down buttons. */
function PortfolioCard({ id, name, sub, totals, meta = false, issue, partial = false, order }: CardProps) {
  const t = usePortfolioT();
  return (
    <li className={`card pf-card${meta ? ' pf-card--meta' : ''}${order ? ' pf-card--movable' : ''}`} data-testid="portfolio-card" data-id={id}>
      <AppLink to={`/portfolios/${id}`} className="pf-card__link">
        <span className="pf-card__names">
          <span className="pf-card__name">{name}</span>
          <span className="pf-card__sub">{sub}</span>
        </span>
        <span className="pf-card__value">
          <span className="visually-hidden">{t('figures.totalValue')} </span>
          <Amount value={totals.total_value} currency={totals.currency} size="lg" testId="card-total" />
        </span>
        <span className="pf-card__figures">
          <span className="pf-card__figure">
            <span className="pf-card__label">{t('figures.todayChange')}</span>
            <Amount value={totals.day_change} currency={totals.currency} signed size="sm" testId="card-day-change" />{' '}
            <Percent value={totals.day_change_percent} testId="card-day-change-percent" />
          </span>
          <span className="pf-card__figure">
            <span className="pf-card__label">{t('figures.return')}</span>
            <Percent value={totals.return_percent} testId="card-return" />
          </span>
        </span>
        {(issue || partial) && <LedgerIssueNote issue={issue} meta={meta} />}
      </AppLink>
      {order && (
        <span className="pf-card__order">
          <button
            type="button"
            className="pf-move"
            data-move="up"
            onClick={() => order.move('up')}
            disabled={order.first}
            aria-label={t('reorder.up', { name })}
            data-testid="move-up"
          >
            <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
              <path d="M6 15l6-6 6 6" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
          <button
            type="button"
            className="pf-move"
            data-move="down"
            onClick={() => order.move('down')}
            disabled={order.last}
            aria-label={t('reorder.down', { name })}
            data-testid="move-down"
          >
            <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
              <path d="M6 9l6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </button>
        </span>
      )}
    </li>
  );
}

type CreateField = 'name' | 'base_currency' | 'cost_method' | 'broker';

/** Name, base currency, cost method and broker; the server's per-field errors under each field. */
function CreatePortfolioForm({ onDone, canCancel }: { onDone: () => void; canCancel: boolean }) {
  const t = usePortfolioT();
  const toast = useToast();
  const create = useCreatePortfolio();
  const formRef = useRef<HTMLFormElement>(null);
  const statusId = useId();
  const [name, setName] = useState('');
  const [base, setBase] = useState<BaseCurrency>('KRW');
  const [method, setMethod] = useState<CostMethod>('moving_average');
  const [broker, setBroker] = useState('');
  const [errors, setErrors] = useState<Partial<Record<CreateField, string>>>({});
  const [message, setMessage] = useState('');

  const edited = (field: CreateField) => setErrors(({ [field]: _gone, ...rest }) => rest);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const local: Partial<Record<CreateField, string>> = {};
    if (!trimmed) local.name = t('create.errors.nameRequired');
    else if ([...trimmed].length > NAME_MAX_CHARS) local.name = t('create.errors.nameTooLong');
    setErrors(local);
    if (Object.keys(local).length) {
      setMessage(t('create.checkFields'));
      requestAnimationFrame(() => focusFirstInvalid(formRef.current));
      return;
    }
    setMessage('');
    create.mutate(
      { name: trimmed, base_currency: base, cost_method: method, ...(broker.trim() ? { broker: broker.trim() } : {}) },
      {
        onSuccess: (saved) => {
          toast.show(t('create.created', { name: saved.name }), { tone: 'success' });
          setName('');
          setBroker('');
          onDone();
        },
        onError: (error) => {
          const fields = serverFieldErrors(error);
          setErrors(fields);
          setMessage(Object.keys(fields).length ? t('create.checkFields') : failureMessage(t, error, t('create.failed')));
          requestAnimationFrame(() => focusFirstInvalid(formRef.current));
        },
      },
    );
  };

  return (
    <form ref={formRef} className="pf-form" onSubmit={onSubmit} noValidate aria-describedby={message ? statusId : undefined} data-testid="create-form">
      <InputField
        label={t('create.name')}
        placeholder={t('create.namePlaceholder')}
        value={name}
        maxLength={NAME_MAX_CHARS}
        required
        // Opened by the member's own "new portfolio" tap (not on arrival): the name takes the focus.
        // eslint-disable-next-line jsx-a11y/no-autofocus
        autoFocus={canCancel}
        onChange={(e) => {
          setName(e.target.value);
          edited('name');
        }}
        error={errors.name}
        name="name"
      />
      <div className="pf-form__row">
        <SelectField
          label={t('create.baseCurrency')}
          value={base}
          onChange={(e) => {
            setBase(e.target.value as BaseCurrency);
            edited('base_currency');
          }}
          options={BASE_CURRENCIES.map((c) => ({ value: c, label: c }))}
          error={errors.base_currency}
          name="base_currency"
        />
        <SelectField
          label={t('create.costMethod')}
          value={method}
          onChange={(e) => {
            setMethod(e.target.value as CostMethod);
            edited('cost_method');
          }}
          options={COST_METHODS.map((m) => ({ value: m, label: t(`create.costMethods.${m}`) }))}
          hint={t('create.costMethodHint')}
          error={errors.cost_method}
          name="cost_method"
        />
      </div>
      <InputField
        label={t('create.broker')}
        placeholder={t('create.brokerPlaceholder')}
        value={broker}
        maxLength={60}
        onChange={(e) => {
          setBroker(e.target.value);
          edited('broker');
        }}
        error={errors.broker}
        name="broker"
      />
      <p id={statusId} className="pf-form__message" role="alert" data-testid="create-message">
        {message}
      </p>
      <div className="pf-form__actions">
        {canCancel && (
          <button type="button" className="button button--secondary" onClick={onDone} disabled={create.isPending}>
            {t('create.cancel')}
          </button>
        )}
        <button type="submit" className="button button--primary" disabled={create.isPending} data-testid="create-submit">
          {create.isPending ? t('create.submitting') : t('create.submit')}
        </button>
      </div>
    </form>
  );
}
