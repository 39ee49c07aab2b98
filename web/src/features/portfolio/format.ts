/**
 * How the portfolio screens write figures. Amounts stay decimal strings all the way to
 * `Intl` (shared/i18n/format.ts); any arithmetic is big.js. Percentages arrive in per
 * cent with full precision and are shown with two places.
 */
import Big from 'big.js';
import { CURRENCY_DECIMALS, formatDate, formatMoney, formatNumber, formatPercent, type Currency } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';
import { toBig } from '@/shared/lib/money';

/** What a locked screen shows instead of an amount. */
export const MASK = '•••••';

const isCurrency = (c: string): c is Currency => Object.hasOwn(CURRENCY_DECIMALS, c);

const decimalsOf = (currency: string) => (isCurrency(currency) ? CURRENCY_DECIMALS[currency] : 2);

/** `₩1,250,000`, `$189.43`; with `signed`, `+₩1,200` / `-$3.50`. */
export function formatAmount(value: string, currency: string, locale: Locale, signed = false): string {
  if (!signed && isCurrency(currency)) return formatMoney(value, currency, locale);
  const d = decimalsOf(currency);
  return formatNumber(value, locale, {
    style: 'currency',
    currency: currency || 'KRW',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: d,
    maximumFractionDigits: d,
    roundingMode: 'halfExpand',
    ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
  });
}

/** A price or average cost: two more places than the currency's, trailing zeros dropped down to its own. */
export function formatUnitPrice(value: string, currency: string, locale: Locale): string {
  const d = decimalsOf(currency);
  return formatNumber(value, locale, {
    style: 'currency',
    currency: currency || 'KRW',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: d,
    maximumFractionDigits: d + 2,
    roundingMode: 'halfExpand',
  });
}

/** A share count: up to six decimals (US fractions), no trailing zeros. */
export function formatQuantity(value: string, locale: Locale): string {
  return formatNumber(value, locale, { maximumFractionDigits: 6 });
}

/** A signed percentage (`+1.84%`). */
export function formatSignedPercent(value: string, locale: Locale): string {
  return formatPercent(value, locale);
}

/** An unsigned percentage (`12.50%`), e.g. a weight. */
export function formatWeight(value: string, locale: Locale, decimals = 2): string {
  return (
    formatNumber(value, locale, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      roundingMode: 'halfExpand',
    }) + '%'
  );
}

/** The size of a percentage, without its sign, whole (`70%`) or with one place below 10 (`4.5%`). */
export function formatShare(value: string, locale: Locale): string {
  const abs = toBig(value).abs();
  return formatWeight(abs.toFixed(), locale, abs.lt(10) && !abs.eq(abs.round(0)) ? 1 : 0);
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
