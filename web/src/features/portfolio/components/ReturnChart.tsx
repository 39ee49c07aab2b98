/**
 * The returns chart: the portfolio's cumulative return and the benchmark's over one
 * period, both from 0 % at the period's first point (`return-series.ts`), drawn by
 * lightweight-charts (its own lazy chunk). The axis, the last-value labels and the
 * crosshair read in signed per cent (`+1.50%`); a solid line marks 0 %. Percentages are
 * never masked, so the chart is the same whether amounts are hidden or not.
 *
 * The two lines take colours of their own (`--pf-line-portfolio`, `--pf-line-benchmark`
 * in portfolio.css): red and blue mean up and down in Korean figures, green and red in
 * English, so neither line uses them; the benchmark's is also dashed.
 */
import { useEffect, useRef } from 'react';
import { ColorType, createChart, LineSeries, LineStyle, type IChartApi, type ISeriesApi, type Time } from 'lightweight-charts';
import { formatNumber, intlLocale } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';
import { useLocale } from '@/shared/i18n/useLocale';
import type { LinePoint } from '../lib/return-series';

export interface ReturnChartProps {
  portfolio: readonly LinePoint[];
  benchmark: readonly LinePoint[];
  /** What the chart shows, for assistive technology (the legend beside it has the figures). */
  label: string;
}

function colours(el: HTMLElement) {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    portfolio: v('--pf-line-portfolio', '#7047d6'),
    benchmark: v('--pf-line-benchmark', '#b7700b'),
    zero: v('--color-text-subtle', '#7a8596'),
    text: v('--color-text-muted', '#566173'),
    grid: v('--color-border', '#dfe4eb'),
    font: v('--font-sans', 'system-ui, sans-serif'),
  };
}

/** `+1.50%`, `-0.66%`, `0.00%`: how the chart writes a return. */
export function chartPercent(value: number, locale: Locale): string {
  return (
    formatNumber(value, locale, { signDisplay: 'exceptZero', minimumFractionDigits: 2, maximumFractionDigits: 2, roundingMode: 'halfExpand' }) + '%'
  );
}

const toData = (points: readonly LinePoint[]) => points.map((p) => ({ time: p.time as Time, value: p.value }));

export default function ReturnChart({ portfolio, benchmark, label }: ReturnChartProps) {
  const locale = useLocale();
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | undefined>(undefined);
  const seriesRef = useRef<{ portfolio: ISeriesApi<'Line'>; benchmark: ISeriesApi<'Line'> } | undefined>(undefined);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const c = colours(el);
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: c.text, fontFamily: c.font, attributionLogo: false },
      grid: { vertLines: { visible: false }, horzLines: { color: c.grid } },
      // Room above and below the lines, and no axis label cut at the edges.
      rightPriceScale: { borderVisible: false, entireTextOnly: true, scaleMargins: { top: 0.12, bottom: 0.08 } },
      timeScale: { borderVisible: false, fixLeftEdge: true, fixRightEdge: true },
      handleScroll: { vertTouchDrag: false },
    });
    // One scale: both lines are per cent from the same point.
    const benchmarkSeries = chart.addSeries(LineSeries, {
      color: c.benchmark,
      lineWidth: 2,
      lineStyle: LineStyle.Dashed,
      priceLineVisible: false,
      priceScaleId: 'right',
    });
    const portfolioSeries = chart.addSeries(LineSeries, { color: c.portfolio, lineWidth: 2, priceLineVisible: false, priceScaleId: 'right' });
    portfolioSeries.createPriceLine({ price: 0, color: c.zero, lineWidth: 1, lineStyle: LineStyle.Solid, axisLabelVisible: false });
    chartRef.current = chart;
    seriesRef.current = { portfolio: portfolioSeries, benchmark: benchmarkSeries };
    return () => {
      chart.remove();
      chartRef.current = undefined;
      seriesRef.current = undefined;
    };
  }, []);

  useEffect(() => {
    const series = seriesRef.current;
    chartRef.current?.applyOptions({ localization: { locale: intlLocale(locale) } });
    if (!series) return;
    const priceFormat = { type: 'custom' as const, minMove: 0.01, formatter: (p: number) => chartPercent(p, locale) };
    series.portfolio.applyOptions({ priceFormat });
    series.benchmark.applyOptions({ priceFormat });
  }, [locale]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    series.portfolio.setData(toData(portfolio));
    series.benchmark.setData(toData(benchmark));
    chartRef.current?.timeScale().fitContent();
  }, [portfolio, benchmark]);

  return <div ref={container} className="pf-chart__canvas" role="img" aria-label={label} />;
}
