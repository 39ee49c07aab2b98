/**
 * Response and request types of the market API (docs/market.md), from the generated
 * OpenAPI schema (`shared/api/schema.d.ts`). The rest of the app imports only these
 * names, so a schema rename is a change here alone.
 *
 * What the schema cannot say is added here by hand: the closed sets of values the
 * server documents but sends as `string` (exchange, kind, board, quote state, candle
 * interval) narrow the generated fields, and the `/api/stream` frames (a WebSocket, not
 * in the OpenAPI document) are written out in full.
 *
 * Prices and amounts are decimal strings (`"71200"`, `"189.43"`), never numbers;
 * volumes and share counts are integers.
 */
import type { ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';

/** A decimal number as text, exactly as the server wrote it. */
export type Decimal = string;

// The schema types these as `string`; the server only ever sends these values.
export type Exchange = 'KRX' | 'NYSE' | 'NASDAQ' | 'INDEX' | 'FX' | 'CRYPTO';
export type InstrumentKind = 'stock' | 'etf' | 'index' | 'currency' | 'crypto';
export type Board = 'KOSPI' | 'KOSDAQ';

/** `EXCHANGE:SYMBOL`, e.g. `KRX:005930`, `NASDAQ:AAPL`, `INDEX:KOSPI`, `FX:USDKRW`. */
export type InstrumentId = string;

/**
 * `GET /api/instruments/search` items, `GET /api/me/favorites` items. `board` and
 * `shares_outstanding` are `null` when unknown (the schema marks them optional; the
 * server always sends them). `country` is empty for FX and crypto, `sector` may be.
 */
export type Instrument = ApiSchema<'InstrumentDto'> & {
  exchange: Exchange;
  kind: InstrumentKind;
  board?: Board | null;
};

/**
 * `live`: as current as the source gives; `delayed`: delayed by design; `stale`: the
 * source failed, this is the last good value; `closed`: the last session's price.
 */
export type QuoteState = 'live' | 'delayed' | 'stale' | 'closed';

/**
 * `GET /api/instruments/{id}/quote`, and `data` of a stream `quote` message.
 * `change_percent` is in per cent of the previous close (`"1.84"` is 1.84 %).
 */
export type Quote = ApiSchema<'QuoteDto'> & { state: QuoteState };

/**
 * Key figures of `GET /api/instruments/{id}`, each `null` (or left out) when unknown;
 * `dividend_yield` in per cent (`"2.34"` is 2.34 %), `market_cap` in the instrument's
 * currency.
 */
export type InstrumentStats = ApiSchema<'StatsDto'>;

/** `GET /api/instruments/{id}`; `quote` is `null` while the instrument has no price yet. */
export type InstrumentDetail = Instrument & Narrow<ApiSchema<'InstrumentDetail'>, { quote?: Quote | null }>;

/** A chart range (an enum in the schema). */
export type CandleRange = ApiSchema<'Range'>;
export const CANDLE_RANGES = ['1D', '1W', '1M', '3M', '1Y', '5Y'] as const satisfies readonly CandleRange[];
// Every range of the schema is listed: a new one fails to compile here.
type MissingRange = Exclude<CandleRange, (typeof CANDLE_RANGES)[number]>;
const everyRangeListed: MissingRange extends never ? true : MissingRange = true;
void everyRangeListed;

/** Bar length: 5-minute (1D), 30-minute (1W), daily (1M–1Y), weekly (5Y). The schema says `string`. */
export type CandleInterval = '5m' | '30m' | '1d' | '1w';

/** One bar. `t` is the bar's start in Unix seconds (daily bars: 00:00 UTC of the trading date). */
export type Candle = ApiSchema<'CandleDto'>;

/** `GET /api/instruments/{id}/candles?range=…`. */
export type CandlesResponse = ApiSchema<'CandlesDto'> & { interval: CandleInterval };

/** An instrument with its latest quote, as the overview lists them. */
export type QuotedInstrument = Instrument & Quote;

/** One item as the server sends it: the instrument and its quote (null before the first price). */
export type PricedInstrument = Narrow<ApiSchema<'Priced'>, { instrument: Instrument; quote?: Quote | null }>;

/** `GET /api/market/overview` as sent: indices, FX and top movers. */
export type MarketOverviewResponse = Narrow<
  ApiSchema<'Overview'>,
  {
    indices: PricedInstrument[];
    fx: PricedInstrument[];
    movers: Narrow<ApiSchema<'Movers'>, { gainers: PricedInstrument[]; losers: PricedInstrument[] }>;
  }
>;

/** The overview as the screens use it: items without a price yet are left out. */
export interface MarketOverview {
  indices: QuotedInstrument[];
  fx: QuotedInstrument[];
  movers: { gainers: QuotedInstrument[]; losers: QuotedInstrument[] };
}

/** `PUT /api/me/favorites`: the whole ordered list (at most 100, no duplicates). */
export type FavoritesUpdate = ApiSchema<'FavoritesRequest'>;

// /api/stream's frames: `@/shared/stream/frames`.
