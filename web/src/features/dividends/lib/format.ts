/**
 * How the dividend screens write their dates (amounts, per-share amounts, quantities and
 * yields are `shared/i18n/format.ts`). Dates are days, so they are formatted in UTC (see
 * dates.ts).
 */
import { formatDate } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';
import { dateValue, type IsoDate, type IsoMonth } from './dates';

const utc = { timeZone: 'UTC' } as const;

/** `12월 29일 (화)` / `Tue, December 29`. */
export function formatDay(date: IsoDate, locale: Locale): string {
  return formatDate(dateValue(date), locale, { month: 'long', day: 'numeric', weekday: 'short', ...utc });
}

/** `2026년 12월 29일 화요일` / `Tuesday, December 29, 2026`. */
export function formatFullDay(date: IsoDate, locale: Locale): string {
  return formatDate(dateValue(date), locale, { dateStyle: 'full', ...utc });
}

/** `2026. 12. 29.` / `Dec 29, 2026`. */
export function formatShortDate(date: IsoDate, locale: Locale): string {
  return formatDate(dateValue(date), locale, { dateStyle: 'medium', ...utc });
}

/** `2026년 12월` / `December 2026`. */
export function formatMonth(month: IsoMonth, locale: Locale): string {
  return formatDate(dateValue(`${month}-01`), locale, { year: 'numeric', month: 'long', ...utc });
}

/** `12월` / `Dec`. */
export function formatMonthShort(month: IsoMonth, locale: Locale): string {
  return formatDate(dateValue(`${month}-01`), locale, { month: 'short', ...utc });
}

/** Short weekday names from Sunday (`일`…`토` / `Sun`…`Sat`) and their full names. */
export function weekdayNames(locale: Locale): { short: string; long: string }[] {
  // 2026-11-01 is a Sunday.
  return Array.from({ length: 7 }, (_, i) => {
    const d = dateValue(`2026-11-0${i + 1}`);
    return {
      short: formatDate(d, locale, { weekday: 'short', ...utc }),
      long: formatDate(d, locale, { weekday: 'long', ...utc }),
    };
  });
}
