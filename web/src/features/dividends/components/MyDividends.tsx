import Big from 'big.js';
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useAuth } from '@/entities/member/model/auth-context';
import { loginPath } from '@/entities/member/model/next';
import { formatAmount, formatQuantity, formatRate, formatUnitAmount } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { toBig } from '@/shared/lib/money';
import { instrumentNames, stockPath } from '@/entities/instrument/model/ids';
import { useAmountsLocked } from '@/entities/member/model/amounts-lock';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { Amount } from './Amount';
import { formatShortDate } from '../lib/format';
import { ProjectionChart } from './ProjectionChart';
import { initialDividendCurrency } from '../lib/prefs';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';
import { entitlementKey, useRecordEntitlement } from '../api/record-entitlement';
import {
  type DividendEntitlement,
  type MyDividendsIn as MyDividendsData,
  type ReceivedDividend,
  useMyDividends,
} from '../api/my-dividends';
import type { DividendCurrency } from '../api/keys';
import { refusalText } from '@/shared/api/error-text';

/** The member's own dividends; a visitor is asked to log in. */
export function MyDividends() {
  const { t } = useTranslation('dividends');
  const { isLoggedIn } = useAuth();
  const titleId = useId();
  const [currency, setCurrency] = useState<DividendCurrency>(initialDividendCurrency);
  const [locked, setLocked] = useAmountsLocked();

  return (
    <section className="dividends-me" aria-labelledby={titleId} data-testid="my-dividends">
      <div className="dividends-me__head">
        <h2 id={titleId} className="dividends-section-title">
          {t('me.title')}
        </h2>
        {isLoggedIn && (
          <div className="dividends-me__controls">
            <SegmentedControl
              label={t('me.currency.label')}
              segments={(['KRW', 'USD'] as const).map((c) => ({ value: c, label: t(`me.currency.${c}`), testId: `currency-${c}` }))}
              value={currency}
              onChange={setCurrency}
            />
            <button
              type="button"
              className="dividends-icon-button dividends-lock"
              aria-pressed={locked}
              aria-label={locked ? t('me.showAmounts') : t('me.hideAmounts')}
              title={locked ? t('me.showAmounts') : t('me.hideAmounts')}
              onClick={() => setLocked(!locked)}
              data-testid="amounts-lock"
            >
              <EyeIcon closed={locked} />
            </button>
          </div>
        )}
      </div>
      {isLoggedIn ? (
        <MemberDividends currency={currency} />
      ) : (
        <div className="card dividends-login" data-testid="dividends-login">
          <p>{t('me.loginPrompt')}</p>
          <AppLink to={loginPath('/dividends')} className="button button--primary">
            {t('me.login')}
          </AppLink>
        </div>
      )}
    </section>
  );
}

function EyeIcon({ closed }: { closed: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12Z" strokeLinejoin="round" />
      <circle cx="12" cy="12" r="3" />
      {closed && <path d="m4 4 16 16" strokeLinecap="round" />}
    </svg>
  );
}

function MemberDividends({ currency }: { currency: DividendCurrency }) {
  const { t } = useTranslation('dividends');
  const mine = useMyDividends(currency);

  if (mine.isError && !mine.data) {
    return (
      <div className="card dividends-message" role="alert">
        <p>{t('me.loadFailed')}</p>
        <button type="button" className="button button--secondary" onClick={() => void mine.refetch()}>
          {t('me.retry')}
        </button>
      </div>
    );
  }
  if (!mine.data) return <div className="dividends-me__loading" aria-busy="true" />;
  return <MemberContent data={mine.data} stale={mine.isPlaceholderData} />;
}

/** The figures, in the currency of the answer shown (the previous one while another loads). */
function MemberContent({ data, stale }: { data: MyDividendsData; stale: boolean }) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  const gross = data.projection.reduce((sum, m) => sum.plus(toBig(m.gross)), new Big(0));
  const net = data.projection.reduce((sum, m) => sum.plus(toBig(m.net)), new Big(0));
  const shownCurrency = data.currency;

  return (
    <div className="dividends-me__body" aria-busy={stale}>
      {data.ledger_issues.length > 0 && <LedgerIssuesNote issues={data.ledger_issues} />}
      <dl className="dividends-totals" data-testid="dividend-totals">
        <Stat label={t('me.totals.gross')} testId="total-gross">
          <Amount text={formatAmount(gross.toFixed(), shownCurrency, locale)} />
        </Stat>
        <Stat label={t('me.totals.net')} testId="total-net">
          <Amount text={formatAmount(net.toFixed(), shownCurrency, locale)} />
        </Stat>
        <Stat label={t('me.totals.trailingYield')} testId="trailing-yield">
          {data.trailing_yield == null ? '—' : formatRate(data.trailing_yield, locale)}
        </Stat>
        <Stat label={t('me.totals.yieldOnCost')} testId="yield-on-cost">
          {data.yield_on_cost == null ? '—' : formatRate(data.yield_on_cost, locale)}
        </Stat>
      </dl>

      <section className="card dividends-panel" aria-labelledby="dividends-projection-title">
        <h3 id="dividends-projection-title" className="dividends-panel__title">
          {t('me.projection.title')}
        </h3>
        <ProjectionChart months={data.projection} currency={shownCurrency} />
        <p className="dividends-note">{t('me.projection.basis')}</p>
      </section>

      <div className="dividends-me__lists">
        <Entitlements entitlements={data.entitlements} />
        <Received received={data.received} />
      </div>
    </div>
  );
}

/**
 * Some portfolio's ledger stops early, so its dividends are counted from the holdings
 * before it. The portfolio page names the transaction: the link goes there (to the list,
 * which marks them, when there are several).
 */
function LedgerIssuesNote({ issues }: { issues: MyDividendsData['ledger_issues'] }) {
  const { t } = useTranslation('dividends');
  const ids = [...new Set(issues.map((i) => i.portfolio_id))];
  const to = ids.length === 1 ? `/portfolios/${ids[0]}` : '/portfolios';
  return (
    <div className="card dividends-ledger" role="status" data-testid="dividends-ledger-issues">
      <p>{t('me.ledgerIssues.text')}</p>
      <AppLink to={to} className="button button--secondary">
        {ids.length === 1 ? t('me.ledgerIssues.portfolio') : t('me.ledgerIssues.portfolios')}
      </AppLink>
    </div>
  );
}

function Stat({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="card dividends-stat" data-testid={testId}>
      <dt className="dividends-stat__label">{label}</dt>
      <dd className="dividends-stat__value">{children}</dd>
    </div>
  );
}

/** A dividend's net amount, and under it the gross and the withholding. */
function Figures({ gross, tax, net, currency }: { gross: string; tax: string; net: string; currency: string }) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  return (
    <div className="dividends-row__figures">
      <span className="dividends-row__net">
        <span className="visually-hidden">{t('me.figures.net')} </span>
        <Amount text={formatAmount(net, currency, locale)} />
      </span>
      <span className="dividends-row__meta">
        {t('me.figures.gross')} <Amount text={formatAmount(gross, currency, locale)} />
      </span>
      <span className="dividends-row__meta">
        {t('me.figures.tax')} <Amount text={formatAmount(tax, currency, locale)} />
      </span>
    </div>
  );
}

/** Dividends found from the holdings on ex-dates, each recorded with one tap. */
function Entitlements({ entitlements }: { entitlements: readonly DividendEntitlement[] }) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  const toast = useToast();
  const record = useRecordEntitlement();
  const [recorded, setRecorded] = useState<ReadonlySet<string>>(new Set());
  const [recording, setRecording] = useState<string>();

  const onRecord = (e: DividendEntitlement) => {
    const key = entitlementKey(e);
    const name = instrumentNames(e, locale).primary;
    setRecording(key);
    record.mutate(e, {
      onSuccess: () => {
        setRecorded((prev) => new Set(prev).add(key));
        toast.show(t('me.entitlements.recordedToast', { name }), { tone: 'success' });
      },
      onError: (error) => {
        const why = refusalText(error);
        const failed = t('me.entitlements.recordFailed', { name });
        toast.show(why ? `${failed} ${why}` : failed, { tone: 'error' });
      },
      onSettled: () => setRecording((current) => (current === key ? undefined : current)),
    });
  };

  return (
    <section className="card dividends-panel" aria-labelledby="dividends-entitlements-title" data-testid="entitlements">
      <h3 id="dividends-entitlements-title" className="dividends-panel__title">
        {t('me.entitlements.title')}
      </h3>
      <p className="dividends-note">{t('me.entitlements.hint')}</p>
      {entitlements.length === 0 ? (
        <p className="dividends-empty">{t('me.entitlements.empty')}</p>
      ) : (
        <ul className="dividends-rows">
          {entitlements.map((e) => {
            const key = entitlementKey(e);
            const name = instrumentNames(e, locale).primary;
            const done = recorded.has(key);
            const busy = recording === key;
            return (
              <li key={key} className="dividends-row" data-testid="entitlement" data-key={key}>
                <div className="dividends-row__main">
                  <AppLink to={stockPath(e.instrument_id)} className="dividends-row__name">
                    {name} <span className="dividends-entry__ticker">{e.ticker}</span>
                  </AppLink>
                  <span className="dividends-row__meta">
                    {e.portfolio_name} ·{' '}
                    {t('me.entitlements.dates', {
                      ex: formatShortDate(e.ex_date, locale),
                      pay: e.pay_date ? formatShortDate(e.pay_date, locale) : t('me.entitlements.payUnknown'),
                    })}
                  </span>
                  <span className="dividends-row__meta">
                    <Amount
                      text={t('me.entitlements.detail', {
                        quantity: formatQuantity(e.quantity, locale, 8),
                        perShare: formatUnitAmount(e.per_share, e.currency, locale),
                      })}
                    />
                  </span>
                </div>
                <Figures gross={e.gross} tax={e.tax} net={e.net} currency={e.currency} />
                <div className="dividends-row__action" aria-live="polite">
                  {done ? (
                    <span className="dividends-recorded" role="status" data-testid="entitlement-recorded">
                      <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
                        <path d="m5 12.5 4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
                      </svg>
                      {t('me.entitlements.recorded')}
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="button button--primary dividends-record"
                      onClick={() => onRecord(e)}
                      disabled={busy}
                      aria-label={t('me.entitlements.recordLabel', {
                        name,
                        date: formatShortDate(e.pay_date ?? e.ex_date, locale),
                        portfolio: e.portfolio_name,
                      })}
                      data-testid="record-entitlement"
                    >
                      {busy ? t('me.entitlements.recording') : t('me.entitlements.record')}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Dividend transactions already recorded, newest first as the server sends them. */
function Received({ received }: { received: readonly ReceivedDividend[] }) {
  const { t } = useTranslation('dividends');
  const locale = useLocale();
  return (
    <section className="card dividends-panel" aria-labelledby="dividends-received-title" data-testid="received">
      <h3 id="dividends-received-title" className="dividends-panel__title">
        {t('me.received.title')}
      </h3>
      {received.length === 0 ? (
        <p className="dividends-empty">{t('me.received.empty')}</p>
      ) : (
        <ul className="dividends-rows">
          {received.map((r) => (
            <li key={`${r.portfolio_id}|${r.transaction_id}`} className="dividends-row" data-testid="received-row">
              <div className="dividends-row__main">
                <AppLink to={stockPath(r.instrument_id)} className="dividends-row__name">
                  {instrumentNames(r, locale).primary} <span className="dividends-entry__ticker">{r.ticker}</span>
                </AppLink>
                <span className="dividends-row__meta">
                  {formatShortDate(r.date, locale)} ·{' '}
                  <Amount
                    text={t('me.received.detail', {
                      quantity: formatQuantity(r.quantity, locale, 8),
                      perShare: formatUnitAmount(r.per_share, r.currency, locale),
                    })}
                  />
                </span>
              </div>
              <Figures gross={r.gross} tax={r.tax} net={r.net} currency={r.currency} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
