/**
 * Types of the portfolio API (docs/portfolio.md), written from the contract while the
 * server and its OpenAPI document are being written; once `schema.d.ts` has them these
 * can become aliases of the generated schemas, like `shared/market/api-types.ts`.
 *
 * Every amount, price, quantity and rate is a decimal string; dates are `YYYY-MM-DD`;
 * percentages are in per cent (`"1.84"` is 1.84 %), sent with full precision.
 */
import type { Decimal, InstrumentId, InstrumentKind } from '@/shared/market/api-types';

export type { Decimal, InstrumentId };

export type BaseCurrency = 'KRW' | 'USD';
export const BASE_CURRENCIES = ['KRW', 'USD'] as const satisfies readonly BaseCurrency[];

export type CostMethod = 'moving_average' | 'fifo';
export const COST_METHODS = ['moving_average', 'fifo'] as const satisfies readonly CostMethod[];

/** What `?currency=` takes. */
export type CurrencyParam = 'original' | 'KRW' | 'USD';

export interface OrderableCash {
  amount: Decimal;
  currency: string;
  updated_at: string;
}

export interface Portfolio {
  id: number;
  name: string;
  base_currency: BaseCurrency;
  cost_method: CostMethod;
  broker: string | null;
  position: number;
  orderable_cash: OrderableCash | null;
  created_at: string;
}

export interface NewPortfolio {
  name: string;
  base_currency: BaseCurrency;
  cost_method?: CostMethod;
  broker?: string;
}

/** Totals of a portfolio (or of the meta portfolio), in `currency`. */
export interface Totals {
  currency: string;
  /** Holdings only. */
  market_value: Decimal;
  cash: Decimal;
  /** Holdings plus cash. */
  total_value: Decimal;
  cost_basis: Decimal;
  unrealised_gain: Decimal;
  realised_gain: Decimal;
  dividends_net: Decimal;
  day_change: Decimal;
  return_percent: Decimal;
  day_change_percent: Decimal;
}

/** `GET /api/portfolios`. */
export interface PortfolioList {
  portfolios: { portfolio: Portfolio; totals: Totals }[];
  meta: Totals;
}

export interface Holding {
  instrument: InstrumentId;
  name_ko: string;
  name_en: string;
  ticker: string;
  kind: InstrumentKind;
  /** The display currency (the trade currency in `original` mode). */
  currency: string;
  trade_currency: string;
  quantity: Decimal;
  average_cost: Decimal;
  cost_basis: Decimal;
  price: Decimal;
  previous_close: Decimal;
  price_missing: boolean;
  market_value: Decimal;
  unrealised_gain: Decimal;
  return_percent: Decimal;
  day_change: Decimal;
  day_change_percent: Decimal;
  realised_gain: Decimal;
  dividends_net: Decimal;
  /** `market_value` in the totals currency. */
  market_value_total: Decimal;
  weight_percent: Decimal;
}

export interface CashLine {
  currency: string;
  amount: Decimal;
  amount_total: Decimal;
  weight_percent: Decimal;
}

/** `GET /api/portfolios/{id}/valuation`. */
export interface Valuation {
  mode: string;
  holdings: Holding[];
  cash: CashLine[];
  totals: Totals;
  as_of: string;
}

export type PeriodKey = '1M' | '3M' | 'YTD' | '1Y' | 'ALL';
export const PERIODS = ['1M', '3M', 'YTD', '1Y', 'ALL'] as const satisfies readonly PeriodKey[];

export type ExplanationCode =
  | 'no_flows'
  | 'similar'
  | 'added_before_rise'
  | 'added_before_fall'
  | 'withdrew_before_rise'
  | 'withdrew_before_fall'
  | 'mwr_unavailable';

/** Why the returns differ, and the numbers the sentence needs (each may be absent). */
export interface Explanation {
  code: ExplanationCode;
  /** Money-weighted minus time-weighted return, in per cent. */
  difference?: Decimal | null;
  /** The largest flow: its day and amount (negative for a withdrawal). */
  flow_date?: string | null;
  flow_amount?: Decimal | null;
  /** That flow as a share of the money at work, in per cent. */
  flow_share?: Decimal | null;
  /** The time-weighted return from the flow to the period's end, in per cent. */
  return_after_flow?: Decimal | null;
}

export interface PeriodReturn {
  period: PeriodKey;
  twr: Decimal;
  /** `null` when it has no solution for the period's flows. */
  mwr: Decimal | null;
  simple: Decimal;
  gain: Decimal;
  explanation: Explanation;
}

export interface PerformancePoint {
  date: string;
  value: Decimal;
  flow: Decimal;
  benchmark: Decimal | null;
}

/** `GET /api/portfolios/{id}/performance`. */
export interface Performance {
  points: PerformancePoint[];
  periods: PeriodReturn[];
}

export type Benchmark = 'INDEX:KOSPI' | 'INDEX:SPX';
export const BENCHMARKS = ['INDEX:KOSPI', 'INDEX:SPX'] as const satisfies readonly Benchmark[];

export type AllocationBy = 'holding' | 'sector' | 'country' | 'currency' | 'asset_class';
export const ALLOCATION_BYS = ['holding', 'sector', 'country', 'currency', 'asset_class'] as const satisfies readonly AllocationBy[];

export interface Slice {
  /** Instrument id, sector, country code, currency code or asset class; `cash` or `unknown`. */
  key: string;
  value: Decimal;
  weight_percent: Decimal;
}

export type TxKind = 'buy' | 'sell' | 'dividend' | 'deposit' | 'withdrawal' | 'fee' | 'tax' | 'split';
export const TX_KINDS = ['buy', 'sell', 'dividend', 'deposit', 'withdrawal', 'fee', 'tax', 'split'] as const satisfies readonly TxKind[];

export interface SplitRatio {
  numerator: number;
  denominator: number;
}

export interface Transaction {
  id: number;
  kind: TxKind;
  trade_date: string;
  instrument_id: InstrumentId | null;
  quantity: Decimal;
  price: Decimal;
  fee: Decimal;
  tax: Decimal;
  currency: string;
  fx_rate: Decimal | null;
  split: SplitRatio | null;
  note: string;
}

export type NewTransaction = Omit<Transaction, 'id'>;

export interface ImportError {
  line: number;
  column: string | null;
  code: string;
  message: string;
}

/** `POST /api/portfolios/{id}/import/preview`. */
export interface ImportPreview {
  rows: { line: number; transaction: NewTransaction; duplicate: boolean }[];
  errors: ImportError[];
  warnings: ImportError[];
  ignored_columns: string[];
}

/** `POST /api/portfolios/{id}/import`. */
export interface ImportResult {
  imported: number;
  skipped_duplicates: number;
}
