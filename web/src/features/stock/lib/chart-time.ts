/**
 * Times on the chart. lightweight-charts lays out and labels its time axis in UTC, so
 * intraday bars are shifted by their exchange's UTC offset (DST included) and then
 * labelled "in UTC": the axis reads 09:00 for the Seoul open and 09:30 for New York's.
 * Daily and weekly bars are 00:00 UTC of their trading date already and stay as they are.
 */
import type { CandleInterval, Instrument } from '@/entities/instrument/api/types';

/** The time zone an instrument's sessions are reckoned in. */
export function exchangeTimeZone(instrument: Pick<Instrument, 'country'>): string {
  if (instrument.country === 'KR') return 'Asia/Seoul';
  if (instrument.country === 'US') return 'America/New_York';
  return 'UTC';
}

export const isIntraday = (interval: CandleInterval) => interval === '5m' || interval === '30m';

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormatters.set(timeZone, f);
  }
  return f;
}

/** `timeZone`'s offset from UTC at Unix time `t`, in seconds (Seoul: 32 400). */
export function zoneOffsetSeconds(t: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(new Date(t * 1000))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return Math.round(wall / 1000) - t;
}

/** The chart's time of a bar starting at Unix time `t`. */
export function toChartTime(t: number, interval: CandleInterval, timeZone: string): number {
  return isIntraday(interval) ? t + zoneOffsetSeconds(t, timeZone) : t;
}
