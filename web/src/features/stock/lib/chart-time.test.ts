import { describe, expect, it } from 'vitest';
import { exchangeTimeZone, toChartTime, zoneOffsetSeconds } from './chart-time';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('chart times', () => {
  it('knows each market’s time zone', () => {
    expect(exchangeTimeZone({ country: 'KR' })).toBe('Asia/Seoul');
    expect(exchangeTimeZone({ country: 'US' })).toBe('America/New_York');
    expect(exchangeTimeZone({ country: '' })).toBe('UTC');
  });

  it('measures UTC offsets, daylight saving time included', () => {
    expect(zoneOffsetSeconds(at('2025-01-02T00:00:00Z'), 'Asia/Seoul')).toBe(9 * 3600);
    expect(zoneOffsetSeconds(at('2025-01-02T15:00:00Z'), 'America/New_York')).toBe(-5 * 3600);
    expect(zoneOffsetSeconds(at('2025-07-02T15:00:00Z'), 'America/New_York')).toBe(-4 * 3600);
  });

  it('shifts intraday bars to exchange time and leaves daily bars alone', () => {
    // 09:00 in Seoul is 00:00 UTC: the chart shows it as 09:00.
    expect(toChartTime(at('2025-01-02T00:00:00Z'), '5m', 'Asia/Seoul')).toBe(at('2025-01-02T09:00:00Z'));
    // 09:30 in New York in July is 13:30 UTC.
    expect(toChartTime(at('2025-07-02T13:30:00Z'), '30m', 'America/New_York')).toBe(at('2025-07-02T09:30:00Z'));
    expect(toChartTime(at('2025-01-02T00:00:00Z'), '1d', 'Asia/Seoul')).toBe(at('2025-01-02T00:00:00Z'));
    expect(toChartTime(at('2025-01-06T00:00:00Z'), '1w', 'America/New_York')).toBe(at('2025-01-06T00:00:00Z'));
  });
});
