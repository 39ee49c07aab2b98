/**
 * How market figures are written. Values stay decimal strings all the way to `Intl`
 * (shared/i18n/format.ts): KRW to whole won, USD to cents, others to their ISO 4217
 * minor unit, half away from zero. Index levels and exchange rates are plain numbers
 * with two decimals.
 */
import { currencyDecimals, formatMoney, formatNumber, isCurrency } from '@/shared/i18n/format';
import type { Locale } from '@/shared/lib/storage';
import type { Decimal, Instrument } from '../api/types';

/** Shown for a figure the server does not have (`null`). */
export const NO_VALUE = '—';

export type Direction = 'up' | 'down' | 'flat';

/** The sign of a decimal string, read as text (`"-0.00"` is flat). */
export function direction(value: Decimal): Direction {
  const v = value.trim();
  if (/^[-+]?0*\.?0*$/.test(v)) return 'flat';
  return v.startsWith('-') ? 'down' : 'up';
}

type Priced = Pick<Instrument, 'kind' | 'currency'>;

/** Decimal places a price of `instrument` is shown with. */
export function priceDecimals({ kind, currency }: Priced): number {
  if (kind === 'index' || kind === 'currency') return 2;
  return currencyDecimals(currency);
}

const fixed = (decimals: number) =>
  ({ minimumFractionDigits: decimals, maximumFractionDigits: decimals, roundingMode: 'halfExpand' }) as const;

/** A price: money for stocks, ETFs and crypto (`₩71,200`, `$189.43`), a number for indices and FX. */
export function formatPrice(value: Decimal, instrument: Priced, locale: Locale): string {
  const { kind, currency } = instrument;
  if (kind === 'index' || kind === 'currency') return formatNumber(value, locale, fixed(2));
  if (isCurrency(currency)) return formatMoney(value, currency, locale);
  return formatNumber(value, locale, { style: 'currency', currency, currencyDisplay: 'narrowSymbol', ...fixed(currencyDecimals(currency)) });
}

/** A signed change without the currency sign (`+1,200`, `-0.35`, `0`). */
export function formatChange(value: Decimal, instrument: Priced, locale: Locale): string {
  return formatNumber(value, locale, { signDisplay: 'exceptZero', ...fixed(priceDecimals(instrument)) });
}

/** A share count or volume (`12,345,678`). */
export function formatVolume(value: number, locale: Locale): string {
  return formatNumber(value, locale, { maximumFractionDigits: 0 });
}

/** A large amount in short form (`₩425조`, `$2.9T`). */
export function formatCompactMoney(value: Decimal, currency: string, locale: Locale): string {
  return formatNumber(value, locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'narrowSymbol',
    notation: 'compact',
    maximumFractionDigits: 1,
  });
}
