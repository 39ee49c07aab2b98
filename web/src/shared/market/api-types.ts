/**
 * Response and request types of the market API, written by hand from docs/market.md
 * until the server's OpenAPI document has them. The rest of the app imports only these
 * names, so switching to aliases of the generated schema (`ApiSchema<'Quote'>`, …) is a
 * change to this file alone.
 *
 * Prices and amounts are decimal strings (`"71200"`, `"189.43"`), never numbers;
 * volumes and share counts are integers.
 */

/** A decimal number as text, exactly as the server wrote it. */
export type Decimal = string;

export type Exchange = 'KRX' | 'NYSE' | 'NASDAQ' | 'INDEX' | 'FX' | 'CRYPTO';
export type InstrumentKind = 'stock' | 'etf' | 'index' | 'currency' | 'crypto';
export type Board = 'KOSPI' | 'KOSDAQ';

/** `EXCHANGE:SYMBOL`, e.g. `KRX:005930`, `NASDAQ:AAPL`, `INDEX:KOSPI`, `FX:USDKRW`. */
export type InstrumentId = string;

/** `GET /api/instruments/search` items, `GET /api/me/favorites` items. */
export interface Instrument {
  id: InstrumentId;
  ticker: string;
  exchange: Exchange;
  board: Board | null;
  kind: InstrumentKind;
  /** ISO 4217 (`KRW`, `USD`). */
  currency: string;
  /** ISO 3166-1 alpha-2 (`KR`, `US`); empty for FX and crypto. */
  country: string;
  name_ko: string;
  name_en: string;
  /** GICS sector name in English; may be empty. */
  sector: string;
  shares_outstanding: number | null;
  /** The active provider of its market is the simulator. */
  simulated: boolean;
}

/**
 * `live`: as current as the source gives; `delayed`: delayed by design; `stale`: the
 * source failed, this is the last good value; `closed`: the last session's price.
 */
export type QuoteState = 'live' | 'delayed' | 'stale' | 'closed';

/** `GET /api/instruments/{id}/quote`, and `data` of a stream `quote` message. */
export interface Quote {
  instrument_id: InstrumentId;
  price: Decimal;
  previous_close: Decimal;
  /** `price - previous_close`. */
  change: Decimal;
  /** The change in per cent of the previous close (`"1.84"` is 1.84 %). */
  change_percent: Decimal;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  volume: number;
  /** RFC 3339 time the source says this price was current. */
  as_of: string;
  state: QuoteState;
  /** The provider (`simulator`, `yahoo`, …). */
  source: string;
  simulated: boolean;
}

/** Key figures of `GET /api/instruments/{id}`. */
export interface InstrumentStats {
  previous_close: Decimal;
  open: Decimal;
  day_high: Decimal;
  day_low: Decimal;
  week52_high: Decimal;
  week52_low: Decimal;
  volume: number;
  /** In the instrument's currency. */
  market_cap: Decimal | null;
  /**
   * Trailing dividend yield in per cent, like `change_percent` (`"2.34"` is 2.34 %). The
   * contract does not say ratio or per cent; per cent is assumed here.
   */
  dividend_yield: Decimal | null;
}

/** `GET /api/instruments/{id}`. */
export interface InstrumentDetail extends Instrument {
  /**
   * `null` while the instrument has no price yet (a fresh import, a provider that never
   * answered). docs/market.md does not say so; the server's draft answers it.
   */
  quote: Quote | null;
  stats: InstrumentStats;
}

export const CANDLE_RANGES = ['1D', '1W', '1M', '3M', '1Y', '5Y'] as const;
export type CandleRange = (typeof CANDLE_RANGES)[number];
/** Bar length: 5-minute (1D), 30-minute (1W), daily (1M–1Y), weekly (5Y). */
export type CandleInterval = '5m' | '30m' | '1d' | '1w';

/** One bar. `t` is the bar's start in Unix seconds (daily bars: 00:00 UTC of the trading date). */
export interface Candle {
  t: number;
  o: Decimal;
  h: Decimal;
  l: Decimal;
  c: Decimal;
  v: number;
}

/** `GET /api/instruments/{id}/candles?range=…`. */
export interface CandlesResponse {
  instrument_id: InstrumentId;
  range: CandleRange;
  interval: CandleInterval;
  candles: Candle[];
}

/** An instrument with its latest quote, as the overview lists them. */
export type QuotedInstrument = Instrument & Quote;

/** One item as the server sends it: the instrument and its quote (null before the first price). */
export interface PricedInstrument {
  instrument: Instrument;
  quote: Quote | null;
}

/** `GET /api/market/overview` as sent: indices, FX and top movers. */
export interface MarketOverviewResponse {
  indices: PricedInstrument[];
  fx: PricedInstrument[];
  movers: { gainers: PricedInstrument[]; losers: PricedInstrument[] };
}

/** The overview as the screens use it: items without a price yet are left out. */
export interface MarketOverview {
  indices: QuotedInstrument[];
  fx: QuotedInstrument[];
  movers: { gainers: QuotedInstrument[]; losers: QuotedInstrument[] };
}

/** `PUT /api/me/favorites`: the whole ordered list (at most 100, no duplicates). */
export interface FavoritesUpdate {
  ids: InstrumentId[];
}

/** Client → server frames of `/api/stream`. */
export type StreamRequest =
  | { op: 'subscribe'; topics: string[] }
  | { op: 'unsubscribe'; topics: string[] }
  | { op: 'ping' };

/** Server → client frames of `/api/stream`. */
export type StreamMessage =
  | { op: 'quote'; topic: string; data: Quote }
  | { op: 'subscribed'; topics: string[] }
  | { op: 'error'; code: 'unknown_topic' | 'too_many_subscriptions' | 'bad_message' | (string & {}); message: string }
  | { op: 'pong' };
