/**
 * The price chart, drawn by lightweight-charts (its own lazy chunk: only the stock page
 * loads it). Prices are plotted as numbers — the canvas needs coordinates — but every
 * figure the legend shows is the server's decimal string, formatted like everywhere else.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  LineSeries,
  LineStyle,
  TickMarkType,
  type AutoscaleInfo,
  type DeepPartial,
  type ChartOptions,
  type IChartApi,
  type MouseEventParams,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { formatDate, formatNumber, intlLocale } from '@/shared/i18n/format';
import { useLocale } from '@/shared/i18n/useLocale';
import type { Locale } from '@/shared/lib/storage';
import type { Candle, CandlesResponse, Instrument } from '@/entities/instrument/api/types';
import { formatPrice, formatVolume, priceDecimals } from '@/entities/instrument/model/format';
import { exchangeTimeZone, isIntraday, toChartTime } from '../lib/chart-time';

export type ChartMode = 'line' | 'candle';

export interface ChartCanvasProps {
  data: CandlesResponse;
  instrument: Instrument;
  mode: ChartMode;
  /** The data shown is the previous range's while the new one loads. */
  dimmed?: boolean;
  /** The previous session's close, drawn as a dashed price line (the 1-day chart). */
  previousClose?: string | null | undefined;
}

/** A bar with its time on the chart's (shifted) time axis. */
type Bar = Candle & { time: UTCTimestamp };

/** The chart's colours, from the app's CSS variables (light or dark scheme). */
function themeColors(el: HTMLElement) {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    up: v('--color-up', '#e0323b'),
    down: v('--color-down', '#1f6fe5'),
    text: v('--color-text-muted', '#566173'),
    grid: v('--color-border', '#dfe4eb'),
    font: v('--font-sans', 'system-ui, sans-serif'),
  };
}

function themeOptions(el: HTMLElement): DeepPartial<ChartOptions> {
  const c = themeColors(el);
  return {
    // The library's own logo injects a <style> element, which the CSP refuses; the
    // chart section links to TradingView instead (the library's licence asks for it).
    layout: {
      background: { type: ColorType.Solid, color: 'transparent' },
      textColor: c.text,
      fontFamily: c.font,
      attributionLogo: false,
    },
    grid: { vertLines: { visible: false }, horzLines: { color: c.grid } },
    rightPriceScale: { borderVisible: false },
    // Fixed edges: the range is the whole history asked for (nothing to scroll to), and
    // the library then keeps the first and last tick labels inside the chart instead of
    // cutting them at its edge.
    timeScale: { borderVisible: false, fixLeftEdge: true, fixRightEdge: true },
  };
}

/** The legend's and crosshair's time of a bar: date and time for intraday bars, the date otherwise. */
function barTimeText(time: number, intraday: boolean, locale: Locale): string {
  // Chart times are exchange-local times written as UTC (see chart-time.ts).
  return formatDate(time * 1000, locale, intraday ? { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' } : { timeZone: 'UTC', dateStyle: 'medium' });
}

const TICK_FORMATS: Record<TickMarkType, Intl.DateTimeFormatOptions> = {
  [TickMarkType.Year]: { year: 'numeric' },
  [TickMarkType.Month]: { month: 'short' },
  [TickMarkType.DayOfMonth]: { month: 'numeric', day: 'numeric' },
  [TickMarkType.Time]: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  [TickMarkType.TimeWithSeconds]: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
};

function localisation(locale: Locale, intraday: boolean, decimals: number): DeepPartial<ChartOptions> {
  const fixed = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  return {
    localization: {
      locale: intlLocale(locale),
      priceFormatter: (price: number) => formatNumber(price, locale, fixed),
      timeFormatter: (time: Time) => barTimeText(time as number, intraday, locale),
    },
    timeScale: {
      timeVisible: intraday,
      secondsVisible: false,
      tickMarkFormatter: (time: Time, type: TickMarkType) =>
        new Intl.DateTimeFormat(intlLocale(locale), { timeZone: 'UTC', ...TICK_FORMATS[type] }).format(
          new Date((time as number) * 1000),
        ),
    },
  };
}

/** Draws the bars as a line or candles, with a legend that follows the crosshair. */
export default function ChartCanvas({ data, instrument, mode, dimmed = false, previousClose }: ChartCanvasProps) {
  const { t } = useTranslation('stock');
  const locale = useLocale();
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | undefined>(undefined);
  const intraday = isIntraday(data.interval);
  const decimals = priceDecimals(instrument);
  const timeZone = exchangeTimeZone(instrument);

  const bars = useMemo<Bar[]>(
    () => data.candles.map((c) => ({ ...c, time: toChartTime(c.t, data.interval, timeZone) as UTCTimestamp })),
    [data, timeZone],
  );
  const byTime = useRef(new Map<number, Bar>());
  byTime.current = new Map(bars.map((b) => [b.time, b]));
  const [hovered, setHovered] = useState<Bar | undefined>(undefined);
  const shown = hovered ?? bars.at(-1);

  // The chart itself: made once, resized with its box, recoloured with the colour scheme.
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const chart = createChart(el, {
      autoSize: true,
      ...themeOptions(el),
      crosshair: { vertLine: { labelVisible: true }, horzLine: { labelVisible: true } },
      handleScroll: { vertTouchDrag: false },
    });
    chartRef.current = chart;
    const onCrosshair = (param: MouseEventParams<Time>) => {
      setHovered(param.time === undefined ? undefined : byTime.current.get(param.time as number));
    };
    chart.subscribeCrosshairMove(onCrosshair);
    const scheme = window.matchMedia?.('(prefers-color-scheme: dark)');
    const recolour = () => {
      chart.applyOptions(themeOptions(el));
      el.dispatchEvent(new Event('moat:recolour'));
    };
    scheme?.addEventListener('change', recolour);
    return () => {
      scheme?.removeEventListener('change', recolour);
      chart.unsubscribeCrosshairMove(onCrosshair);
      chart.remove();
      chartRef.current = undefined;
    };
  }, []);

  // Labels in the app's language, and its colours of rises and falls (`--color-up`
  // follows the document's language: red up in Korean, green up in English).
  useEffect(() => {
    const chart = chartRef.current;
    const el = container.current;
    if (!chart || !el) return;
    chart.applyOptions({ ...themeOptions(el), ...localisation(locale, intraday, decimals) });
    el.dispatchEvent(new Event('moat:recolour'));
  }, [locale, intraday, decimals]);

  // The series: rebuilt when the mode or the data changes.
  useEffect(() => {
    const chart = chartRef.current;
    const el = container.current;
    if (!chart || !el || bars.length === 0) return;
    const colors = () => themeColors(el);
    // Numbers for plotting only (see the module comment); the line is red when the
    // period ended above where it started, blue below.
    const falling = Number(bars[bars.length - 1]!.c) < Number(bars[0]!.o);
    // Price ticks on the instrument's own grid (whole won, cents): a narrow range at the
    // open otherwise gets ticks between two wons, all labelled alike.
    const priceFormat = { type: 'price', precision: decimals, minMove: 10 ** -decimals } as const;
    const close = previousClose == null ? NaN : Number(previousClose);
    // The price scale takes in the previous close, so its line is always on the chart.
    const autoscaleInfoProvider = (original: () => AutoscaleInfo | null): AutoscaleInfo | null => {
      const info = original();
      if (!info?.priceRange || !Number.isFinite(close)) return info;
      const { minValue, maxValue } = info.priceRange;
      return { ...info, priceRange: { minValue: Math.min(minValue, close), maxValue: Math.max(maxValue, close) } };
    };
    const options = { priceLineVisible: false, priceFormat, autoscaleInfoProvider };
    const series =
      mode === 'line' ? chart.addSeries(LineSeries, { lineWidth: 2, ...options }) : chart.addSeries(CandlestickSeries, options);
    const closeLine = Number.isFinite(close)
      ? series.createPriceLine({
          price: close,
          color: colors().text,
          lineWidth: 1,
          lineStyle: LineStyle.Dashed,
          axisLabelVisible: true,
          title: t('chart.previousClose'),
        })
      : undefined;
    const paint = () => {
      const c = colors();
      if (mode === 'line') series.applyOptions({ color: falling ? c.down : c.up });
      else {
        series.applyOptions({
          upColor: c.up,
          downColor: c.down,
          borderUpColor: c.up,
          borderDownColor: c.down,
          wickUpColor: c.up,
          wickDownColor: c.down,
        });
      }
    };
    paint();
    if (mode === 'line') {
      series.setData(bars.map((b) => ({ time: b.time, value: Number(b.c) })));
    } else {
      series.setData(
        bars.map((b) => ({ time: b.time, open: Number(b.o), high: Number(b.h), low: Number(b.l), close: Number(b.c) })),
      );
    }
    chart.timeScale().fitContent();
    el.addEventListener('moat:recolour', paint);
    return () => {
      el.removeEventListener('moat:recolour', paint);
      // The chart may already be gone (unmount removes it first).
      if (chartRef.current === chart) {
        if (closeLine) series.removePriceLine(closeLine);
        chart.removeSeries(series);
      }
    };
  }, [mode, bars, decimals, previousClose, t]);

  const price = (v: string) => formatPrice(v, instrument, locale);
  return (
    <div className={`chart__canvas-wrap${dimmed ? ' chart__canvas-wrap--dimmed' : ''}`}>
      {shown && (
        <div className="chart__legend" data-testid="chart-legend" aria-live="off">
          <span className="chart__legend-time">{barTimeText(shown.time, intraday, locale)}</span>
          <dl className="chart__legend-values">
            {(['o', 'h', 'l', 'c'] as const).map((k) => (
              <div key={k}>
                <dt>{t(`chart.${({ o: 'open', h: 'high', l: 'low', c: 'close' } as const)[k]}`)}</dt>
                <dd>{price(shown[k])}</dd>
              </div>
            ))}
            <div>
              <dt>{t('chart.volume')}</dt>
              <dd>{formatVolume(shown.v, locale)}</dd>
            </div>
          </dl>
        </div>
      )}
      <div ref={container} className="chart__canvas" />
    </div>
  );
}
