/**
 * Calendar arithmetic on plain `YYYY-MM-DD` dates and `YYYY-MM` months, the API's own
 * forms. Dates are days, not instants: they are computed in UTC so no time zone ever
 * moves one to the day before.
 */

import { localIsoDate } from '@/shared/lib/local-date';

/** `YYYY-MM-DD`. */
export type IsoDate = string;
/** `YYYY-MM`. */
export type IsoMonth = string;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function toIso(d: Date): IsoDate {
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Noon UTC of `date`, as a `Date` (for `Intl` with `timeZone: 'UTC'`). */
export function dateValue(date: IsoDate): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d, 12));
}

export function isIsoMonth(raw: string | null | undefined): raw is IsoMonth {
  if (!raw || !/^\d{4}-(0[1-9]|1[0-2])$/.test(raw)) return false;
  const year = Number(raw.slice(0, 4));
  return year >= 1900 && year <= 2999;
}

/** Today in the viewer's own calendar. */
export function today(now: Date = new Date()): IsoDate {
  return localIsoDate(now);
}

export function monthOf(date: IsoDate): IsoMonth {
  return date.slice(0, 7);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const d = dateValue(date);
  d.setUTCDate(d.getUTCDate() + days);
  return toIso(d);
}

export function addMonths(month: IsoMonth, months: number): IsoMonth {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + months, 1, 12));
  return toIso(d).slice(0, 7);
}

export function daysInMonth(month: IsoMonth): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The first and last day of `month`: the calendar's `from` and `to`. */
export function monthRange(month: IsoMonth): { from: IsoDate; to: IsoDate } {
  return { from: `${month}-01`, to: `${month}-${pad(daysInMonth(month))}` };
}

/** Day of the week, 0 = Sunday (Korean and US calendars both start on Sunday). */
export function weekday(date: IsoDate): number {
  return dateValue(date).getUTCDay();
}

/**
 * The month as weeks of seven: each slot a date of the month or `null` before the
 * first and after the last day.
 */
export function monthWeeks(month: IsoMonth): (IsoDate | null)[][] {
  const { from } = monthRange(month);
  const slots: (IsoDate | null)[] = Array.from({ length: weekday(from) }, () => null);
  const count = daysInMonth(month);
  for (let day = 1; day <= count; day++) slots.push(`${month}-${pad(day)}`);
  while (slots.length % 7 !== 0) slots.push(null);
  const weeks: (IsoDate | null)[][] = [];
  for (let i = 0; i < slots.length; i += 7) weeks.push(slots.slice(i, i + 7));
  return weeks;
}
