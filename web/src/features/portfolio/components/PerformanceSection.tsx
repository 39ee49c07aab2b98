import { lazy, memo, Suspense, useMemo, useState } from 'react';
import { useLocale } from '@/shared/i18n/useLocale';
import { ErrorBoundary } from '@/shared/ui/ErrorBoundary';
import { explanationText } from '../lib/explain';
import { usePortfolioT } from '../locales/messages';
import { returnSeries, type Line } from '../lib/return-series';
import { Amount, LoadFailed, Percent } from './ui';
import { SegmentedControl } from '@/shared/ui/segmented/SegmentedControl';
import {
  type Benchmark,
  BENCHMARKS,
  type PeriodKey,
  type PeriodReturn,
  PERIODS,
  usePerformance,
} from '../api/performance';
import type { CurrencyParam, PortfolioRef } from '../api/keys';

// lightweight-charts comes with the chart itself, in its own chunk.
const ReturnChart = lazy(() => import('./ReturnChart'));

const benchmarkName = (b: Benchmark) => (b === 'INDEX:KOSPI' ? 'KOSPI' : 'SPX');

interface Props {
  id: PortfolioRef;
  currency: CurrencyParam;
  /** The benchmark shown first: KOSPI for a won portfolio, the S&P 500 for a dollar one. */
  defaultBenchmark: Benchmark;
  /** The totals' currency, for the gains. */
  totalsCurrency: string;
}

/**
 * The returns: a period (1M, 3M, YTD, 1Y, since inception) chooses the chart's range and
 * the explanation; the chart compares the portfolio's cumulative return with the
 * benchmark's over that period, both from 0 % at its start; the table has every
 * period's time-weighted, money-weighted and simple returns.
 */
export const PerformanceSection = memo(function PerformanceSection({ id, currency, defaultBenchmark, totalsCurrency }: Props) {
  const t = usePortfolioT();
  const locale = useLocale();
  const [benchmark, setBenchmark] = useState<Benchmark>(defaultBenchmark);
  const [period, setPeriod] = useState<PeriodKey>('ALL');
  const performance = usePerformance(id, currency, benchmark);
  const data = performance.data;
  const periods = useMemo(() => (data ? PERIODS.flatMap((p) => data.periods.filter((x) => x.period === p)) : []), [data]);
  const chosen = periods.find((p) => p.period === period) ?? periods.at(-1);
  const start = chosen?.start;
  const series = useMemo(() => (data ? returnSeries(data.points, start) : undefined), [data, start]);
  const benchmarkLabel = t(`performance.benchmarks.${benchmarkName(benchmark)}`);
  const periodLabel = chosen ? t(`performance.periods.${chosen.period}`) : '';

  return (
    <section className="card pf-section" aria-labelledby="pf-performance-title" data-testid="performance">
      <div className="pf-section__head">
        <h2 id="pf-performance-title" className="pf-section__title">
          {t('performance.title')}
        </h2>
        <SegmentedControl
          label={t('performance.benchmark')}
          segments={BENCHMARKS.map((b) => ({
            value: b,
            label: t(`performance.benchmarks.${benchmarkName(b)}`),
            testId: `benchmark-${benchmarkName(b)}`,
          }))}
          value={benchmark}
          onChange={setBenchmark}
        />
      </div>

      {performance.isError && !data ? (
        <LoadFailed onRetry={() => void performance.refetch()} />
      ) : !data || !series ? (
        <div className="pf-chart pf-chart--placeholder" aria-busy="true" />
      ) : data.points.length < 2 && periods.length === 0 ? (
        <p className="pf-empty">{t('performance.empty')}</p>
      ) : (
        <>
          {periods.length > 0 && chosen && (
            <SegmentedControl
              className="pf-periods"
              overflow="scroll"
              label={t('performance.period')}
              segments={periods.map((p) => ({
                value: p.period,
                label: t(`performance.periodButtons.${p.period}`),
                testId: `period-${p.period}`,
              }))}
              value={chosen.period}
              onChange={setPeriod}
            />
          )}
          {series.portfolio.points.length >= 2 && (
            <figure className={`pf-chart${performance.isPlaceholderData ? ' pf-stale' : ''}`} data-testid="return-chart">
              <ErrorBoundary>
                <Suspense fallback={<div className="pf-chart__canvas" />}>
                  <ReturnChart
                    portfolio={series.portfolio.points}
                    benchmark={series.benchmark.points}
                    label={t('performance.chartLabel', { period: periodLabel, benchmark: benchmarkLabel })}
                  />
                </Suspense>
              </ErrorBoundary>
              <figcaption className="pf-chart__legend" data-testid="chart-legend">
                <LegendKey kind="portfolio" label={t('performance.portfolio')} line={series.portfolio} testId="legend-portfolio" />
                <LegendKey kind="benchmark" label={benchmarkLabel} line={series.benchmark} testId="legend-benchmark" />
                <span className="pf-chart__note">{t('performance.chartNote')}</span>
              </figcaption>
            </figure>
          )}
          {periods.length > 0 && <ReturnsTable periods={periods} currency={totalsCurrency} />}
          {chosen && (
            <div className="pf-explain" data-testid="explanation-box">
              <h3 className="visually-hidden">{t('performance.explain', { period: periodLabel })}</h3>
              <p className="pf-explain__text" data-testid="explanation" aria-live="polite">
                {explanationText(t, chosen.explanation, locale).join(' ')}
              </p>
              <p className="pf-explain__guide">{t('performance.guide')}</p>
            </div>
          )}
        </>
      )}
    </section>
  );
});

/** A line's swatch, name and return over the period (`—` without one). */
function LegendKey({ kind, label, line, testId }: { kind: 'portfolio' | 'benchmark'; label: string; line: Line; testId: string }) {
  return (
    <span className={`pf-chart__key pf-chart__key--${kind}`} data-testid={testId}>
      {label} {line.last === null ? <span className="pf-muted">—</span> : <Percent value={line.last} />}
    </span>
  );
}

function ReturnsTable({ periods, currency }: { periods: readonly PeriodReturn[]; currency: string }) {
  const t = usePortfolioT();
  return (
    <div className="pf-table-wrap">
      <table className="pf-table pf-table--returns" data-testid="returns-table">
        <thead>
          <tr>
            <th scope="col">{t('performance.period')}</th>
            <th scope="col" className="pf-num">
              <abbr title={t('performance.twrLong')}>{t('performance.twr')}</abbr>
            </th>
            <th scope="col" className="pf-num">
              <abbr title={t('performance.mwrLong')}>{t('performance.mwr')}</abbr>
            </th>
            <th scope="col" className="pf-num">
              <abbr title={t('performance.simpleLong')}>{t('performance.simple')}</abbr>
            </th>
            <th scope="col" className="pf-num pf-returns__gain">
              {t('performance.gain')}
            </th>
          </tr>
        </thead>
        <tbody>
          {periods.map((p) => (
            <tr key={p.period} data-testid={`returns-${p.period}`}>
              <th scope="row">
                {t(`performance.periods.${p.period}`)}
                {/* On a phone the gain goes under its period (and its own column is hidden). */}
                <span className="pf-returns__gain-under">
                  <Amount value={p.gain} currency={currency} signed size="sm" />
                </span>
              </th>
              <td className="pf-num">
                <Percent value={p.twr} />
              </td>
              <td className="pf-num">{p.mwr == null ? <span className="pf-muted">{t('performance.unavailable')}</span> : <Percent value={p.mwr} />}</td>
              <td className="pf-num">
                <Percent value={p.simple} />
              </td>
              <td className="pf-num pf-returns__gain">
                <Amount value={p.gain} currency={currency} signed size="sm" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
