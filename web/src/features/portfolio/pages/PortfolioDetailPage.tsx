import { memo, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { instrumentLabel } from '@/entities/instrument/model/ids';
import { ApiError } from '@/shared/api/client';
import { RequireAuth } from '@/entities/member/ui/RequireAuth';
import { formatDate } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import type { LedgerIssue } from '@/entities/transaction/api/types';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { AppLink } from '@/shared/ui/AppLink';
import { useToast } from '@/shared/ui/toast';
import { AllocationSection } from '../components/AllocationSection';
import { failureMessage } from '../lib/failure';
import { HoldingsSection } from '../components/HoldingsSection';
import { LedgerIssueBanner } from '../components/LedgerIssues';
import { usePortfolioT } from '../locales/messages';
import { PerformanceSection } from '../components/PerformanceSection';
import { OrderableCashRow } from '../components/OrderableCash';
import { PortfolioSettingsButton } from '../components/PortfolioSettings';
import { currencyParam, rememberOrderableCash, useCachedOrderableCash, useCurrencyMode } from '../lib/prefs';
import { ShareButton } from '../components/ShareButton';
import { TransactionsSection } from '../components/TransactionsSection';
import { Amount, AmountControls, Change, LoadFailed, Percent } from '../components/ui';
import '../components/portfolio.css';
import type { CurrencyParam, PortfolioRef } from '../api/keys';
import type { Portfolio } from '../api/portfolio';
import type { Totals } from '../api/list';
import type { Valuation } from '../api/valuation';
import { downloadExport } from '../api/export';
import { META_ID, parsePortfolioRef } from '../api/keys';
import { usePortfolio } from '../api/portfolio';
import { usePortfolioList } from '../api/list';
import { useValuation } from '../api/valuation';
import { localIsoDate } from '@/shared/lib/local-date';

/** `/portfolios/:id` (`meta` for every portfolio combined), for members. */
export function PortfolioDetailRoute() {
  return (
    <RequireAuth>
      <PortfolioDetailPage />
    </RequireAuth>
  );
}

export function PortfolioDetailPage() {
  const t = usePortfolioT();
  const { id: raw } = useParams();
  const id = parsePortfolioRef(raw);
  if (id === undefined) return <NotFound />;
  return <Detail key={String(id)} id={id} t={t} />;
}

function NotFound() {
  const t = usePortfolioT();
  usePageMeta({ title: t('meta.list.title'), description: t('meta.list.description') });
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

function Detail({ id, t }: { id: PortfolioRef; t: ReturnType<typeof usePortfolioT> }) {
  const locale = useLocale();
  const toast = useToast();
  const isMeta = id === META_ID;
  // The switch itself shows the new mode at once; the page's figures follow in a
  // background render that yields to the browser, so the tap paints without waiting
  // for every section to re-render (INP).
  const [mode] = useCurrencyMode();
  const currency = currencyParam(useDeferredValue(mode));
  const portfolio = usePortfolio(id);
  const valuation = useValuation(id, currency);
  const settings = portfolio.data;
  const name = isMeta ? t('metaName') : (settings?.name ?? '');
  usePageMeta({ title: t('meta.detail.title', { name: name || t('title') }), description: t('meta.detail.description') });

  // The last orderable cash seen is kept for the next visit (shown before the network answers).
  useEffect(() => {
    const cash = settings?.orderable_cash;
    if (cash) rememberOrderableCash(cash.amount, cash.currency);
  }, [settings]);

  const names = useMemo(() => holdingNames(valuation.data, locale), [valuation.data, locale]);
  const [exporting, setExporting] = useState(false);

  const missing =
    (portfolio.error instanceof ApiError && portfolio.error.code === 'not_found') ||
    (valuation.error instanceof ApiError && valuation.error.code === 'not_found' && !valuation.data);
  if (missing) return <NotFound />;

  const onExport = () => {
    if (typeof id !== 'number') return;
    setExporting(true);
    downloadExport(id, `${settings?.name || 'portfolio'}-${localIsoDate()}.csv`)
      .catch((error: unknown) => toast.show(failureMessage(t, error, t('detail.exportFailed')), { tone: 'error' }))
      .finally(() => setExporting(false));
  };

  const base = settings?.base_currency ?? 'KRW';
  const totalsCurrency = valuation.data?.totals.currency ?? (currency === 'original' ? base : currency);

  return (
    <div className="pf-page" data-testid="portfolio-detail-page">
      <nav className="pf-breadcrumb" aria-label={t('backToList')}>
        <AppLink to="/portfolios">{t('backToList')}</AppLink>
      </nav>
      <div className="pf-head">
        <div className="pf-head__names">
          <h1 className="pf-title" data-testid="portfolio-name">
            {name || <span className="pf-skeleton__text" />}
          </h1>
          {settings && (
            <p className="pf-head__sub">
              {[settings.broker, t('detail.baseCurrency', { currency: settings.base_currency }), t(`create.costMethods.${settings.cost_method}`)]
                .filter(Boolean)
                .join(' · ')}
            </p>
          )}
          {isMeta && <p className="pf-head__sub">{t('metaHint')}</p>}
        </div>
        <AmountControls />
      </div>
      <div className="pf-actions">
        {typeof id === 'number' && (
          <>
            <AppLink to={`/portfolios/${id}/transactions/new`} className="button button--primary" data-testid="add-transaction">
              {t('detail.addTransaction')}
            </AppLink>
            <AppLink to={`/portfolios/${id}/import`} className="button button--secondary">
              {t('detail.import')}
            </AppLink>
            <button type="button" className="button button--secondary" onClick={onExport} disabled={exporting} data-testid="export">
              {t('detail.export')}
            </button>
          </>
        )}
        <ShareButton name={name} valuation={valuation.data} />
        {typeof id === 'number' && <PortfolioSettingsButton portfolio={settings} />}
      </div>

      {valuation.data &&
        valuation.data.ledger_issues.length > 0 &&
        (isMeta ? (
          <MetaLedgerIssues issues={valuation.data.ledger_issues} names={names} currency={currency} />
        ) : (
          <LedgerIssueBanner issues={valuation.data.ledger_issues} names={names} />
        ))}
      {valuation.isError && !valuation.data ? (
        <LoadFailed onRetry={() => void valuation.refetch()} />
      ) : (
        <Summary totals={valuation.data?.totals} valuation={valuation.data} portfolio={settings} portfolioId={typeof id === 'number' ? id : undefined} portfolioPending={portfolio.isPending && !isMeta} />
      )}
      {valuation.data && <HoldingsSection holdings={valuation.data.holdings} dimmed={valuation.isPlaceholderData} />}
      <AllocationSection id={id} currency={currency} valuation={valuation.data} />
      <PerformanceSection
        id={id}
        currency={currency}
        defaultBenchmark={base === 'USD' ? 'INDEX:SPX' : 'INDEX:KOSPI'}
        totalsCurrency={totalsCurrency}
      />
      {typeof id === 'number' && (
        <TransactionsSection portfolioId={id} names={names} stoppedAt={valuation.data?.ledger_issues.find((i) => i.portfolio_id === id)?.transaction_id} />
      )}
    </div>
  );
}

/** The meta portfolio's banner names each broken portfolio (from the list, usually cached). */
function MetaLedgerIssues({ issues, names, currency }: { issues: readonly LedgerIssue[]; names: ReadonlyMap<string, string>; currency: CurrencyParam }) {
  const list = usePortfolioList(currency);
  const portfolioNames = useMemo(() => new Map((list.data?.portfolios ?? []).map((p) => [p.portfolio.id, p.portfolio.name])), [list.data]);
  return <LedgerIssueBanner issues={issues} names={names} portfolioNames={portfolioNames} />;
}

function holdingNames(valuation: Valuation | undefined, locale: 'ko' | 'en'): Map<string, string> {
  return new Map((valuation?.holdings ?? []).map((h) => [h.instrument, instrumentLabel(h, h.instrument, locale)]));
}

interface SummaryProps {
  totals: Totals | undefined;
  valuation: Valuation | undefined;
  portfolio: Portfolio | undefined;
  /** The portfolio's id; `undefined` for the meta portfolio (no orderable cash). */
  portfolioId: number | undefined;
  /** The portfolio's settings (with its orderable cash) have not arrived yet. */
  portfolioPending: boolean;
}

/** Total value, today's change and return; cash with the orderable cash; gains. */
const Summary = memo(function Summary({ totals, valuation, portfolio, portfolioId, portfolioPending }: SummaryProps) {
  const t = usePortfolioT();
  const locale = useLocale();
  const cached = useCachedOrderableCash();
  const showCached = portfolioId !== undefined && portfolioPending && cached !== undefined;

  if (!totals) {
    return <section className="card pf-section pf-summary pf-summary--loading" aria-busy="true" />;
  }
  return (
    <section className="card pf-section pf-summary" aria-labelledby="pf-summary-title" data-testid="summary">
      <h2 id="pf-summary-title" className="visually-hidden">
        {t('detail.summary')}
      </h2>
      <div className="pf-summary__main">
        <span className="pf-summary__label">{t('figures.totalValue')}</span>
        <Amount value={totals.total_value} currency={totals.currency} size="xl" testId="summary-total" />
        <span className="pf-summary__change">
          <span className="pf-summary__label">{t('figures.todayChange')}</span>{' '}
          <Change amount={totals.day_change} percent={totals.day_change_percent} currency={totals.currency} testId="summary-day-change" />
        </span>
      </div>
      <dl className="pf-summary__grid">
        <div>
          <dt>{t('figures.return')}</dt>
          <dd>
            <Percent value={totals.return_percent} testId="summary-return" />
          </dd>
        </div>
        <div>
          <dt>{t('figures.unrealisedGain')}</dt>
          <dd>
            <Amount value={totals.unrealised_gain} currency={totals.currency} signed testId="summary-unrealised" />
          </dd>
        </div>
        <div>
          <dt>{t('figures.realisedGain')}</dt>
          <dd>
            <Amount value={totals.realised_gain} currency={totals.currency} signed testId="summary-realised" />
          </dd>
        </div>
        <div>
          <dt>{t('figures.costBasis')}</dt>
          <dd>
            <Amount value={totals.cost_basis} currency={totals.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('figures.dividends')}</dt>
          <dd>
            <Amount value={totals.dividends_net} currency={totals.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('figures.cash')}</dt>
          <dd>
            <Amount value={totals.cash} currency={totals.currency} testId="summary-cash" />
            {valuation && valuation.cash.length > 1 && (
              <span className="pf-summary__cash-lines">
                {valuation.cash.map((c) => (
                  <Amount key={c.currency} value={c.amount} currency={c.currency} size="sm" />
                ))}
              </span>
            )}
          </dd>
        </div>
        {portfolioId !== undefined && (portfolio || showCached) ? (
          <OrderableCashRow
            portfolioId={portfolioId}
            orderable={portfolio ? portfolio.orderable_cash : undefined}
            cached={showCached ? cached : undefined}
            baseCurrency={portfolio?.base_currency ?? 'KRW'}
          />
        ) : null}
      </dl>
      {valuation?.as_of && (
        <p className="pf-summary__note">
          {t('figures.asOf', { time: formatDate(valuation.as_of, locale, { dateStyle: 'medium', timeStyle: 'short' }) })}
        </p>
      )}
    </section>
  );
});
