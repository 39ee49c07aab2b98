/**
 * How the dividend screens write their figures. Amounts stay decimal strings to `Intl`
 * (shared/i18n/format.ts); sums are made with big.js by the callers. Dates are days, so
 * they are formatted in UTC (see dates.ts).
 */
import { CURRENCY_DECIMALS, formatDate, formatMoney, formatNumber, type Currency } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';
import type { Decimal } from '@/shared/market/api-types';
import { dateValue, type IsoDate, type IsoMonth } from './dates';

/** What a hidden amount shows (`MOAT_META_PORTFOLIO_LOCK`). */
export const MASK = '•••••';

const isCurrency = (c: string): c is Currency => Object.hasOwn(CURRENCY_DECIMALS, c);

/** An amount in its currency, to the currency's minor unit (`₩1,250,000`, `$12.40`). */
export function formatAmount(amount: Decimal, currency: string, locale: Locale): string {
  if (isCurrency(currency)) return formatMoney(amount, currency, locale);
  return formatNumber(amount, locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    roundingMode: 'halfExpand',
  });
}

/** A per-share amount: like a price, up to two more places than the currency's (`$0.2375`, `₩361`). */
export function formatPerShare(amount: Decimal, currency: string, locale: Locale): string {
  const decimals = isCurrency(currency) ? CURRENCY_DECIMALS[currency] : 2;
  return formatNumber(amount, locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals + 2,
    roundingMode: 'halfExpand',
  });
}

/** A yield given in per cent, two places, no sign (`2.31%`). */
export function formatYield(percent: Decimal, locale: Locale): string {
  return (
    formatNumber(percent, locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, roundingMode: 'halfExpand' }) +
    '%'
  );
}

/** A share count (`1,250`, `1.5`). */
export function formatQuantity(quantity: Decimal, locale: Locale): string {
  return formatNumber(quantity, locale, { maximumFractionDigits: 8 });
}

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
