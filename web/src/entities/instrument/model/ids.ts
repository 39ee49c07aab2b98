import type { Exchange, Instrument, InstrumentId } from '../api/types';

/** The API path of an instrument; the id's colon is sent encoded (`KRX%3A005930`). */
export function instrumentPath(id: InstrumentId): `/${string}` {
  return `/api/instruments/${encodeURIComponent(id)}`;
}

/** The app's stock page of `id` (`/stocks/KRX%3A005930`). */
export function stockPath(id: InstrumentId): string {
  return `/stocks/${encodeURIComponent(id)}`;
}

const EXCHANGES: readonly string[] = ['KRX', 'NYSE', 'NASDAQ', 'INDEX', 'FX', 'CRYPTO'] satisfies Exchange[];

/** Whether `raw` looks like an instrument id (`EXCHANGE:SYMBOL`); the server has the last word. */
export function isInstrumentId(raw: string): boolean {
  const colon = raw.indexOf(':');
  return colon > 0 && EXCHANGES.includes(raw.slice(0, colon)) && /^[A-Za-z0-9][A-Za-z0-9.\-_]{0,31}$/.test(raw.slice(colon + 1));
}

/** The name to show first in `locale` and the other one (empty when the same). */
export function instrumentNames(instrument: { name_ko?: string | null; name_en?: string | null }, locale: 'ko' | 'en') {
  const [primary, secondary] =
    locale === 'ko' ? [instrument.name_ko, instrument.name_en] : [instrument.name_en, instrument.name_ko];
  const first = primary || secondary || '';
  return { primary: first, secondary: secondary && secondary !== first ? secondary : '' };
}

/** The symbol part of an id (`KRX:005930` → `005930`). */
export function symbolOf(id: InstrumentId): string {
  return id.slice(id.indexOf(':') + 1);
}

/**
 * What to call an instrument that may be unknown to the catalogue (a holding of a
 * delisted stock): its name in `locale`, else its ticker, else the symbol of its id.
 */
export function instrumentLabel(item: { name_ko?: string | null; name_en?: string | null; ticker?: string | null }, id: InstrumentId, locale: 'ko' | 'en'): string {
  return instrumentNames(item, locale).primary || item.ticker || symbolOf(id);
}

/** The clocks quotes are written in: the exchange's own. */
export const MARKET_TIME_ZONES = { seoul: 'Asia/Seoul', newYork: 'America/New_York' } as const;
export type MarketZone = keyof typeof MARKET_TIME_ZONES;

/**
 * The exchange clock of an instrument: Seoul for KRX and Korean indices, New York for
 * NYSE, NASDAQ and US indices; FX and crypto trade everywhere and are shown in the
 * viewer's own clock (`undefined`).
 */
export function marketZone({ id, currency }: Pick<Instrument, 'id' | 'currency'>): MarketZone | undefined {
  const exchange = id.slice(0, id.indexOf(':'));
  if (exchange === 'KRX' || (exchange === 'INDEX' && currency === 'KRW')) return 'seoul';
  if (exchange === 'NYSE' || exchange === 'NASDAQ' || (exchange === 'INDEX' && currency === 'USD')) return 'newYork';
  return undefined;
}
