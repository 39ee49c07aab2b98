/**
 * The value-history line with the benchmark's line over it, drawn by lightweight-charts
 * (its own lazy chunk). Values are plotted as numbers — the canvas needs coordinates —
 * while every figure written out elsewhere stays a decimal string. The value's scale is
 * hidden while amounts are locked; the benchmark keeps its own scale on the left.
 */
import { useEffect, useRef } from 'react';
import { ColorType, createChart, LineSeries, type IChartApi, type ISeriesApi, type Time } from 'lightweight-charts';
import { formatNumber, intlLocale } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import type { PerformancePoint } from './api-types';

export interface ValueChartProps {
  points: readonly PerformancePoint[];
  locked: boolean;
  valueLabel: string;
  benchmarkLabel: string;
}

function colours(el: HTMLElement) {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    value: v('--color-primary', '#1c5fd4'),
    benchmark: v('--color-text-subtle', '#7a8596'),
    text: v('--color-text-muted', '#566173'),
    grid: v('--color-border', '#dfe4eb'),
    font: v('--font-sans', 'system-ui, sans-serif'),
  };
}

export default function ValueChart({ points, locked, valueLabel, benchmarkLabel }: ValueChartProps) {
  const locale = useLocale();
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | undefined>(undefined);
  const seriesRef = useRef<{ value: ISeriesApi<'Line'>; benchmark: ISeriesApi<'Line'> } | undefined>(undefined);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const c = colours(el);
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: c.text, fontFamily: c.font, attributionLogo: false },
      grid: { vertLines: { visible: false }, horzLines: { color: c.grid } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, fixLeftEdge: true, fixRightEdge: true },
      handleScroll: { vertTouchDrag: false },
    });
    // One scale: the server rebases the benchmark to the portfolio's first value, so both
    // lines are in the same money and start together. The legend below names them.
    const value = chart.addSeries(LineSeries, { color: c.value, lineWidth: 2, priceLineVisible: false, priceScaleId: 'right' });
    const benchmark = chart.addSeries(LineSeries, {
      color: c.benchmark,
      lineWidth: 1,
      lineStyle: 2,
      priceLineVisible: false,
      lastValueVisible: false,
      priceScaleId: 'right',
    });
    chartRef.current = chart;
    seriesRef.current = { value, benchmark };
    return () => {
      chart.remove();
      chartRef.current = undefined;
      seriesRef.current = undefined;
    };
  }, []);

  useEffect(() => {
    chartRef.current?.applyOptions({
      localization: {
        locale: intlLocale(locale),
        priceFormatter: (p: number) => formatNumber(p, locale, { maximumFractionDigits: 2 }),
      },
    });
  }, [locale]);

  // The lock hides the value's scale, its last-value label and the crosshair's price label.
  useEffect(() => {
    const chart = chartRef.current;
    const series = seriesRef.current;
    if (!chart || !series) return;
    chart.applyOptions({ rightPriceScale: { visible: !locked }, crosshair: { horzLine: { labelVisible: !locked } } });
    series.value.applyOptions({ lastValueVisible: !locked });
  }, [locked]);

  useEffect(() => {
    const series = seriesRef.current;
    if (!series) return;
    series.value.setData(points.map((p) => ({ time: p.date as Time, value: Number(p.cumulative_return) })));
    series.benchmark.setData(
      points.filter((p) => p.benchmark_return != null).map((p) => ({ time: p.date as Time, value: Number(p.benchmark_return) })),
    );
    chartRef.current?.timeScale().fitContent();
  }, [points]);

  return <div ref={container} className="pf-chart__canvas" role="img" aria-label={`${valueLabel} · ${benchmarkLabel}`} />;
}
