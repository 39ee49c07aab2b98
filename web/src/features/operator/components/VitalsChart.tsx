/**
 * A web vital's p75 against its thresholds: a bar over the good / needs-improvement /
 * poor bands (plain SVG, scaled to its box), with the thresholds marked underneath.
 */
import { useLocale } from '@/shared/i18n/useLocale';
import type { VitalStat, VitalThreshold } from '../api/types';
import { formatVital } from '../lib/format';
import { useObserveT } from '../locales/observe/messages';

const RATINGS = ['good', 'needs_improvement', 'poor'] as const;
export type Rating = (typeof RATINGS)[number];

/** The server's rating, or one computed from the thresholds when it sent something else. */
export function ratingOf(stat: VitalStat, threshold: VitalThreshold): Rating {
  if ((RATINGS as readonly string[]).includes(stat.rating)) return stat.rating as Rating;
  return stat.p75 <= threshold.good ? 'good' : stat.p75 > threshold.poor ? 'poor' : 'needs_improvement';
}

/** The scale's end: past the poor threshold by half its value, and past the p75. */
export function scaleMax(p75: number, threshold: VitalThreshold): number {
  return Math.max(threshold.poor * 1.5, p75 * 1.1, Number.EPSILON);
}

const VIEW_W = 300;
const VIEW_H = 24;

export interface VitalsChartProps {
  stat: VitalStat;
  threshold: VitalThreshold;
  /** Without the threshold labels (per-page rows). */
  compact?: boolean;
}

export function VitalsChart({ stat, threshold, compact = false }: VitalsChartProps) {
  const t = useObserveT();
  const locale = useLocale();
  const max = scaleMax(stat.p75, threshold);
  const x = (v: number) => (Math.min(Math.max(v, 0), max) / max) * VIEW_W;
  const rating = ratingOf(stat, threshold);
  const fmt = (v: number) => formatVital(v, threshold.unit, locale);
  const label = t('vitals.chart', {
    name: stat.name,
    value: fmt(stat.p75),
    rating: t(`vitals.ratings.${rating}`),
    good: fmt(threshold.good),
    poor: fmt(threshold.poor),
  });
  const pct = (v: number) => `${(x(v) / VIEW_W) * 100}%`;
  return (
    <figure className={`observe-vital-chart${compact ? ' observe-vital-chart--compact' : ''}`} data-testid="vitals-chart" data-vital={stat.name} data-rating={rating}>
      <svg
        className="observe-vital-chart__svg"
        viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={label}
      >
        <rect className="observe-band observe-band--good" x={0} y={4} width={x(threshold.good)} height={16} />
        <rect
          className="observe-band observe-band--needs_improvement"
          x={x(threshold.good)}
          y={4}
          width={x(threshold.poor) - x(threshold.good)}
          height={16}
        />
        <rect className="observe-band observe-band--poor" x={x(threshold.poor)} y={4} width={VIEW_W - x(threshold.poor)} height={16} />
        <rect className={`observe-bar observe-bar--${rating}`} x={0} y={8} width={Math.max(x(stat.p75), 1)} height={8} rx={2} />
        <line
          className="observe-marker"
          x1={x(stat.p75)}
          x2={x(stat.p75)}
          y1={1}
          y2={VIEW_H - 1}
          vectorEffect="non-scaling-stroke"
        />
      </svg>
      {!compact && (
        <figcaption className="observe-vital-chart__ticks" aria-hidden="true">
          <span style={{ insetInlineStart: pct(threshold.good) }}>{fmt(threshold.good)}</span>
          <span style={{ insetInlineStart: pct(threshold.poor) }}>{fmt(threshold.poor)}</span>
        </figcaption>
      )}
    </figure>
  );
}
