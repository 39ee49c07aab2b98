/**
 * Number, money and date formatting for the app's locales, all through `Intl`.
 *
 * Money never passes through a float: a `Big` or a decimal string goes to
 * `Intl.NumberFormat` as an exact decimal string, which Intl formats and rounds without
 * converting it to a number (ECMA-402 NumberFormat v3: Chrome 106, Safari 15.4,
 * Firefox 116). Rounding is to the currency's minor unit — KRW to whole won, USD to
 * cents, any other currency to its ISO 4217 minor unit (JPY whole) — half away from zero (2.5 → 3, -2.5 → -3): Intl's default `halfExpand`, the same
 * rule as shared/lib/money. big.js itself is not needed here, which keeps it out of the
 * first page's bundle.
 */
import type Big from 'big.js';
import type { Locale } from '@/shared/lib/storage';

export type Currency = 'KRW' | 'USD';

/** Decimal places shown for each currency. */
export const CURRENCY_DECIMALS: Record<Currency, number> = { KRW: 0, USD: 2 };

const INTL_LOCALE: Record<Locale, string> = { ko: 'ko-KR', en: 'en-US' };

/** The BCP 47 tag `Intl` uses for an app locale. */
export function intlLocale(locale: Locale): string {
  return INTL_LOCALE[locale];
}

/** A decimal string `Intl.NumberFormat#format` accepts without going through a float. */
type DecimalString = Intl.StringNumericLiteral;

/** The exact decimal text of `value` (`Big#toFixed()` never uses exponent notation). */
function toDecimalString(value: Big | string): DecimalString {
  const text = typeof value === 'string' ? value.trim() : value.toFixed();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) throw new RangeError(`not a decimal number: ${text}`);
  return text as DecimalString;
}

/**
 * Making an `Intl.NumberFormat` costs far more than formatting with one (a table of 200
 * holdings formats ~2,000 figures per render), so each locale + options pair is made
 * once and kept. The pairs are a small fixed set written in the code, so the map stays small.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();

/** The shared `Intl.NumberFormat` for `locale` and `options`. */
export function numberFormat(locale: Locale, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${options ? JSON.stringify(options) : ''}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale(locale), options);
    numberFormats.set(key, format);
  }
  return format;
}

/** A plain number (`1,234.5`); `options` are passed to `Intl.NumberFormat`. */
export function formatNumber(value: Big | string | number, locale: Locale, options?: Intl.NumberFormatOptions): string {
  const input = typeof value === 'number' ? value : toDecimalString(value);
  return numberFormat(locale, options).format(input);
}

/** An amount of money with its currency sign: KRW with no decimals, USD with two. */
export function formatMoney(amount: Big | string, currency: Currency, locale: Locale): string {
  const decimals = CURRENCY_DECIMALS[currency];
  return numberFormat(locale, {
    style: 'currency',
    currency,
    // `$1,234.50` in Korean too, as Korean brokers write it, not `US$1,234.50`.
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    roundingMode: 'halfExpand',
  }).format(toDecimalString(amount));
}

/** A signed percentage from a ratio given in per cent (`1.84` → `+1.84%`). */
export function formatPercent(percent: Big | string, locale: Locale, decimals = 2): string {
  return numberFormat(locale, {
    style: 'decimal',
    signDisplay: 'exceptZero',
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    roundingMode: 'halfExpand',
  }).format(toDecimalString(percent)) + '%';
}

/** A date (and, with `options`, a time) in the locale's style; defaults to a medium date. */
export function formatDate(
  date: Date | string | number,
  locale: Locale,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): string {
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale(locale), options).format(d);
}

/** What an amount shows while amounts are hidden (the lock, `MOAT_META_PORTFOLIO_LOCK`). */
export const MASKED_AMOUNT = '•••••';

/** Whether `code` is a currency with its own rules here (KRW, USD). */
export function isCurrency(code: string): code is Currency {
  return Object.hasOwn(CURRENCY_DECIMALS, code);
}

const minorUnits = new Map<string, number>();

/**
 * Decimal places of `code`'s ISO 4217 minor unit: KRW 0 (won never shows decimals),
 * USD 2, JPY 0, BHD 3 …, as `Intl` knows them; two for a code `Intl` refuses.
 */
export function currencyDecimals(code: string): number {
  if (isCurrency(code)) return CURRENCY_DECIMALS[code];
  let decimals = minorUnits.get(code);
  if (decimals === undefined) {
    try {
      decimals = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      decimals = 2;
    }
    minorUnits.set(code, decimals);
  }
  return decimals;
}

const currencyStyle = (currency: string) =>
  ({ style: 'currency', currency: currency || 'KRW', currencyDisplay: 'narrowSymbol', roundingMode: 'halfExpand' }) as const;

/**
 * An amount in any currency, to its minor unit (`₩1,250,000`, `$189.43`, `€12.40`); with
 * `signed`, `+₩1,200` / `-$3.50`.
 */
export function formatAmount(value: Big | string, currency: string, locale: Locale, signed = false): string {
  if (!signed && isCurrency(currency)) return formatMoney(value, currency, locale);
  const decimals = currencyDecimals(currency);
  return formatNumber(value, locale, {
    ...currencyStyle(currency),
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
  });
}

/**
 * An amount per unit (a price, an average cost, a dividend per share). A currency with
 * cents gets up to two more places, trailing zeros dropped down to its own (`$0.2375`,
 * `$189.40`); one without a minor unit is whole (`₩320,035`, `¥1,503`): an average cost
 * or a converted price in won is rounded for display, half away from zero.
 */
export function formatUnitAmount(value: Big | string, currency: string, locale: Locale): string {
  const decimals = currencyDecimals(currency);
  return formatNumber(value, locale, {
    ...currencyStyle(currency),
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals === 0 ? 0 : decimals + 2,
  });
}

/** A share count: up to `maxDecimals` places (fractional US shares, crypto), no trailing zeros. */
export function formatQuantity(value: Big | string, locale: Locale, maxDecimals = 6): string {
  return formatNumber(value, locale, { maximumFractionDigits: maxDecimals });
}

/** An unsigned percentage from a value in per cent (`12.5` → `12.50%`): a weight, a yield. */
export function formatRate(percent: Big | string, locale: Locale, decimals = 2): string {
  return (
    formatNumber(percent, locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, roundingMode: 'halfExpand' }) +
    '%'
  );
}
