/**
 * The two lines of the returns chart for one period: the portfolio's cumulative
 * time-weighted return and the benchmark's change, both in per cent and both measured
 * from the period's first point (its base: the close the period starts from).
 *
 * The server sends each day's returns since the chart's own base point (the day before
 * money first came in). A later start is rebased exactly, in big.js:
 *
 *     r′_t = ((1 + r_t / 100) / (1 + r_s / 100) − 1) × 100
 *
 * where `r_s` is the return at the period's first point. Only the chart library gets
 * numbers (it needs coordinates), rounded to {@link CHART_DECIMALS} places; the figures
 * written out (the legend) stay decimal strings.
 */
import Big from 'big.js';
import { toBig } from '@/shared/lib/money';
import type { PerformancePoint } from '../api/performance';

/** Places kept in the numbers handed to the chart (a ten-thousandth of a per cent). */
export const CHART_DECIMALS = 4;

/** A point of a line, as the chart takes it (`time` is `YYYY-MM-DD`). */
export interface LinePoint {
  time: string;
  value: number;
}

/** One line: its points, and its last value as a decimal string (per cent), if any. */
export interface Line {
  points: LinePoint[];
  last: string | null;
}

export interface ReturnSeries {
  portfolio: Line;
  benchmark: Line;
}

const HUNDRED = new Big(100);

/**
 * `r_t` (per cent, since some base) measured from a later point whose return since the
 * same base was `r_s`; `null` when the growth at `r_s` is zero or less (a loss of all the
 * money leaves nothing to measure from).
 */
export function rebase(rt: string, rs: string): Big | null {
  const from = toBig(rs).div(HUNDRED).plus(1);
  if (from.lte(0)) return null;
  return toBig(rt).div(HUNDRED).plus(1).div(from).minus(1).times(HUNDRED);
}

/**
 * The points of a period starting at `start` (a period's `start`, the day whose close
 * starts it): from the last point on or before that day, else from the first point.
 * Without `start`, every point.
 */
export function periodPoints(points: readonly PerformancePoint[], start?: string): readonly PerformancePoint[] {
  if (start === undefined) return points;
  let from = 0;
  for (let i = 0; i < points.length && points[i]!.date <= start; i++) from = i;
  return points.slice(from);
}

function line(points: readonly PerformancePoint[], value: (p: PerformancePoint) => string | null): Line {
  const first = points.find((p) => value(p) !== null);
  if (!first) return { points: [], last: null };
  const base = value(first)!;
  const out: LinePoint[] = [];
  let last: Big | null = null;
  for (const p of points) {
    const v = value(p);
    if (v === null) continue;
    const rebased = rebase(v, base);
    if (rebased === null) return { points: [], last: null };
    out.push({ time: p.date, value: Number(rebased.round(CHART_DECIMALS).toFixed()) });
    last = rebased;
  }
  return { points: out, last: last === null ? null : last.toFixed() };
}

/**
 * The portfolio's and the benchmark's lines over the period starting at `start`, each
 * at 0 % at its first point. The benchmark's line starts at the first point with a close
 * (the period's first point, unless the index had no close by then).
 */
export function returnSeries(points: readonly PerformancePoint[], start?: string): ReturnSeries {
  const shown = periodPoints(points, start);
  return {
    portfolio: line(shown, (p) => p.cumulative_return),
    benchmark: line(shown, (p) => p.benchmark_return ?? null),
  };
}
