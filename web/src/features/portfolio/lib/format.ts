/**
 * What the portfolio screens write beyond the shared formats (amounts, unit prices,
 * quantities and rates are `shared/i18n/format.ts`): the size of a share, trade dates,
 * and reading decimal text. Any arithmetic is big.js.
 */
import Big from 'big.js';
import { formatDate, formatRate } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';
import { toBig } from '@/shared/lib/money';

/** The size of a percentage, without its sign, whole (`70%`) or with one place below 10 (`4.5%`). */
export function formatShare(value: string, locale: Locale): string {
  const abs = toBig(value).abs();
  return formatRate(abs.toFixed(), locale, abs.lt(10) && !abs.eq(abs.round(0)) ? 1 : 0);
}

/** A trade date (`YYYY-MM-DD`) as written in `locale`, read as a calendar day (no time zone shift). */
export function formatTradeDate(date: string, locale: Locale, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  return formatDate(`${date}T00:00:00Z`, locale, { timeZone: 'UTC', ...options });
}

/** Whether a decimal string is a number (`"12"`, `"0.5"`, `"-3"`). */
export function isDecimal(raw: string): boolean {
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(raw.trim());
}

/** The text of a number field as a decimal string: spaces and thousands separators dropped. */
export function cleanDecimal(raw: string): string {
  return raw.trim().replace(/[,\s_]/g, '');
}

/** `a × b` exactly, as a decimal string. */
export function times(a: string, b: string): string {
  return new Big(a).times(b).toFixed();
}
