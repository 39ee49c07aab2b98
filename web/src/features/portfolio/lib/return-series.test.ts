import { describe, expect, it } from 'vitest';
import { CHART_DECIMALS, periodPoints, rebase, returnSeries } from './return-series';
import type { PerformancePoint } from '../api/performance';

const point = (date: string, cumulative_return: string, benchmark_return: string | null): PerformancePoint => ({
  date,
  value: '0',
  flow: '0',
  cumulative_return,
  benchmark_return,
});

describe('return series', () => {
  it('rebases exactly: ((1 + r_t/100) / (1 + r_s/100) − 1) × 100', () => {
    expect(rebase('21', '10')!.toFixed()).toBe('10');
    expect(rebase('-1.9267', '-1.9267')!.toFixed()).toBe('0');
    // 1.003 / 1.002 − 1 in decimals: the quotient to Big.DP (20) places, then × 100.
    expect(rebase('0.3', '0.2')!.toFixed()).toBe('0.099800399201596806');
    // A loss of everything leaves nothing to measure from.
    expect(rebase('5', '-100')).toBeNull();
  });

  it('a period starts at the last point on or before its start day, else at the first', () => {
    const points = [point('2026-01-01', '0', '0'), point('2026-01-05', '1', '1'), point('2026-01-09', '2', '2')];
    expect(periodPoints(points, '2026-01-07').map((p) => p.date)).toEqual(['2026-01-05', '2026-01-09']);
    expect(periodPoints(points, '2026-01-05').map((p) => p.date)).toEqual(['2026-01-05', '2026-01-09']);
    expect(periodPoints(points, '2025-06-30').map((p) => p.date)).toEqual(['2026-01-01', '2026-01-05', '2026-01-09']);
    expect(periodPoints(points).length).toBe(3);
  });

  it('hands the chart numbers rounded to its places, the legend exact decimals', () => {
    const series = returnSeries([point('2026-01-01', '10', '3'), point('2026-01-02', '12.123456', '1')], '2026-01-01');
    expect(CHART_DECIMALS).toBe(4);
    expect(series.portfolio.points).toEqual([
      { time: '2026-01-01', value: 0 },
      { time: '2026-01-02', value: 1.9304 },
    ]);
    expect(series.portfolio.last).toBe('1.930414545454545455');
    // (1.01 / 1.03 − 1) × 100
    expect(series.benchmark.points.at(-1)!.value).toBe(-1.9417);
  });

  it('starts the benchmark at its first close when the index had none at the period’s start', () => {
    const series = returnSeries([point('2026-01-01', '0', null), point('2026-01-02', '1', '0.5'), point('2026-01-03', '2', '1.5')]);
    expect(series.portfolio.points.map((p) => p.value)).toEqual([0, 1, 2]);
    expect(series.benchmark.points).toEqual([
      { time: '2026-01-02', value: 0 },
      { time: '2026-01-03', value: 0.995 },
    ]);
    expect(returnSeries([point('2026-01-01', '0', null)]).benchmark).toEqual({ points: [], last: null });
  });
});
