/** `/operator/vitals[?range=day|week|month]`: web vitals at p75, overall and per page, against their thresholds. */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { formatDate, formatNumber } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import type { VitalStat, VitalThreshold } from '../api/types';
import { VITALS_RANGES, isVitalsRange, vitalsQueryOptions, type VitalsRange } from '../api/vitals';
import { Empty, Loading, PageHeader, QueryProblem } from '../components/ui';
import { VitalsChart, ratingOf } from '../components/VitalsChart';
import { formatVital } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';

const NAMES = ['LCP', 'FCP', 'CLS', 'INP', 'TTFB', 'FID'] as const;
type Name = (typeof NAMES)[number];
const isName = (n: string): n is Name => (NAMES as readonly string[]).includes(n);

/** Vitals in the spec's order (LCP first), unknown names last. */
function ordered(stats: readonly VitalStat[]): VitalStat[] {
  const rank = (n: string) => (isName(n) ? NAMES.indexOf(n) : NAMES.length);
  return [...stats].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

function useVitalName() {
  const t = useObserveT();
  return (name: string) => (isName(name) ? t(`vitals.names.${name}`) : name);
}

function Rating({ stat, threshold }: { stat: VitalStat; threshold: VitalThreshold }) {
  const t = useObserveT();
  const rating = ratingOf(stat, threshold);
  return <span className={`observe-rating observe-rating--${rating}`}>{t(`vitals.ratings.${rating}`)}</span>;
}

/** One vital over all pages: value, rating, samples, chart and thresholds. */
function OverallCard({ stat, threshold }: { stat: VitalStat; threshold: VitalThreshold | undefined }) {
  const t = useObserveT();
  const locale = useLocale();
  const vitalName = useVitalName();
  return (
    <li className="card observe-vital" data-testid={`vital-${stat.name}`}>
      <h3 className="observe-vital__name">{vitalName(stat.name)}</h3>
      <p className="observe-vital__value">
        <strong>{formatVital(stat.p75, threshold?.unit ?? '', locale)}</strong>
        {threshold && <Rating stat={stat} threshold={threshold} />}
      </p>
      {threshold && <VitalsChart stat={stat} threshold={threshold} />}
      <p className="observe__muted observe-vital__samples">
        {threshold &&
          `${t('vitals.thresholds', {
            good: formatVital(threshold.good, threshold.unit, locale),
            poor: formatVital(threshold.poor, threshold.unit, locale),
          })} · `}
        {t('vitals.samples', { n: formatNumber(stat.samples, locale) })}
      </p>
    </li>
  );
}

/** One page's vitals, a compact row each. */
function PageCard({ page, vitals, thresholds }: { page: string; vitals: VitalStat[]; thresholds: Map<string, VitalThreshold> }) {
  const t = useObserveT();
  const locale = useLocale();
  return (
    <li className="card observe-vitals-page" data-testid="vitals-page">
      <h3 className="observe-vitals-page__path">{page || t('vitals.unknownPage')}</h3>
      <ul className="observe-vitals-page__rows">
        {ordered(vitals).map((stat) => {
          const threshold = thresholds.get(stat.name);
          return (
            <li key={stat.name} className="observe-vitals-page__row">
              <abbr className="observe-vitals-page__name" title={isName(stat.name) ? t(`vitals.names.${stat.name}`) : stat.name}>
                {stat.name}
              </abbr>
              {threshold ? <VitalsChart stat={stat} threshold={threshold} compact /> : <span />}
              <span className={`observe-vitals-page__value observe-rating-text--${threshold ? ratingOf(stat, threshold) : 'none'}`}>
                {formatVital(stat.p75, threshold?.unit ?? '', locale)}
              </span>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

export function VitalsPage() {
  const t = useObserveT();
  const locale = useLocale();
  usePageMeta({ title: t('meta.vitals'), description: t('meta.description') });
  const [params, setParams] = useSearchParams();
  const raw = params.get('range');
  const range: VitalsRange = isVitalsRange(raw) ? raw : 'week';
  const report = useQuery(vitalsQueryOptions(range));
  const rangeLabel = useId();
  const data = report.data;
  const thresholds = new Map((data?.thresholds ?? []).map((th) => [th.name, th]));
  return (
    <section className="observe-page">
      <PageHeader title={t('vitals.title')} lead={t('vitals.lead')} />
      <div className="observe-toolbar">
        <span id={rangeLabel} className="observe-field__label">
          {t('vitals.range')}
        </span>
        <SegmentedControl
          labelledBy={rangeLabel}
          testId="vitals-range"
          segments={(Object.keys(VITALS_RANGES) as VitalsRange[]).map((r) => ({
            value: r,
            label: t(`vitals.ranges.${r}`),
            testId: `vitals-range-${r}`,
          }))}
          value={range}
          onChange={(r) => setParams(r === 'week' ? {} : { range: r }, { replace: true })}
        />
        {data && (
          <span className="observe__muted">
            {t('vitals.period', {
              from: formatDate(data.from, locale, { dateStyle: 'medium', timeStyle: 'short' }),
              to: formatDate(data.to, locale, { dateStyle: 'medium', timeStyle: 'short' }),
            })}
          </span>
        )}
      </div>
      {report.isPending ? (
        <Loading />
      ) : report.isError ? (
        <QueryProblem error={report.error} onRetry={() => void report.refetch()} />
      ) : report.data.overall.length === 0 ? (
        <Empty testId="vitals-empty">{t('vitals.empty')}</Empty>
      ) : (
        <>
          {report.data.truncated && <p className="card observe__note">{t('vitals.truncated')}</p>}
          <section aria-labelledby="observe-vitals-overall">
            <h2 id="observe-vitals-overall" className="observe__subtitle">
              {t('vitals.overall')}
            </h2>
            <ul className="observe-vitals">
              {ordered(report.data.overall).map((stat) => (
                <OverallCard key={stat.name} stat={stat} threshold={thresholds.get(stat.name)} />
              ))}
            </ul>
          </section>
          {report.data.pages.length > 0 && (
            <section aria-labelledby="observe-vitals-pages">
              <h2 id="observe-vitals-pages" className="observe__subtitle">
                {t('vitals.pages')}
              </h2>
              <ul className="observe-vitals-pages">
                {report.data.pages.map((p) => (
                  <PageCard key={p.page} page={p.page} vitals={p.vitals} thresholds={thresholds} />
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </section>
  );
}
