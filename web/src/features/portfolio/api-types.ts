/**
 * Types of the portfolio API (docs/portfolio.md). Where the OpenAPI document describes a
 * shape (`schema.d.ts`: ledger issues, the import preview and its rows' problems) the type
 * is the generated schema, narrowed to the values the server documents; the answers the
 * document leaves as `Object` (totals, valuation, performance) are written from the
 * contract.
 *
 * Every amount, price, quantity and rate is a decimal string; dates are `YYYY-MM-DD`;
 * percentages are in per cent (`"1.84"` is 1.84 %), sent with full precision.
 */
import type { ApiSchema } from '@/shared/api/client';
import type { Decimal, InstrumentId, InstrumentKind } from '@/entities/instrument/api/types';

/** `T` with the fields of `N` replaced (not intersected). */
type Narrow<T, N> = Omit<T, keyof N> & N;

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
  /** `ledger_issue`: the transaction the totals stop before, when one cannot be applied. */
  portfolios: { portfolio: Portfolio; totals: Totals; ledger_issue: LedgerIssue | null }[];
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
  /** The transactions the figures stop before (one per broken portfolio; several for `meta`). */
  ledger_issues: LedgerIssue[];
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
  /** MWR above TWR, with no single flow to name. */
  | 'mwr_above'
  /** MWR below TWR, with no single flow to name. */
  | 'mwr_below'
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
  /** The day whose close starts the period (its base point) and the period's last day. */
  start: string;
  end: string;
  twr: Decimal;
  /** Over the period itself; `null` when it has no solution for the period's flows. */
  mwr: Decimal | null;
  /** The same, annualised (XIRR). */
  mwr_annual: Decimal | null;
  simple: Decimal;
  gain: Decimal;
  start_value: Decimal;
  end_value: Decimal;
  net_flows: Decimal;
  explanation: Explanation;
}

/** One day of the chart, from its base point (the day before money first came in) on. */
export interface PerformancePoint {
  date: string;
  /** The day's closing value and net external flow, in the answer's currency. */
  value: Decimal;
  flow: Decimal;
  /** The time-weighted return since the base point, in per cent (`"0"` there). */
  cumulative_return: Decimal;
  /** The benchmark's change since its close on the base day, in per cent; `null` without a close. */
  benchmark_return: Decimal | null;
}

/** `GET /api/portfolios/{id}/performance`. */
export interface Performance {
  currency: string;
  /** The benchmark's instrument id. */
  benchmark: string;
  points: PerformancePoint[];
  periods: PeriodReturn[];
  ledger_issues: LedgerIssue[];
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

/**
 * A transaction that cannot be applied (a sell of more than was held, left by old data):
 * the portfolio's figures stop before it. `code` is a validation issue code
 * (`sell_exceeds_holding`, …), `field` the transaction's field at fault.
 */
export type LedgerIssue = Narrow<ApiSchema<'LedgerIssueDto'>, { kind: TxKind; instrument_id: InstrumentId | null }>;

/** A problem with one CSV line (`line`), or with the whole file (line 1, the header). */
export type ImportError = Narrow<ApiSchema<'RowErrorDto'>, { column: string | null }>;

/** One previewed line. */
export type PreviewRow = Narrow<ApiSchema<'PreviewRowDto'>, { transaction: NewTransaction }>;

/**
 * `POST /api/portfolios/{id}/import/preview`: the counts, the date range, the first
 * {@link IMPORT_PREVIEW_ROWS} rows and every error.
 */
export type ImportPreview = Narrow<
  ApiSchema<'ImportPreviewDto'>,
  { rows: PreviewRow[]; errors: ImportError[]; warnings: ImportError[]; first_date: string | null; last_date: string | null }
>;

/** The preview shows at most this many rows (the server's cut). */
export const IMPORT_PREVIEW_ROWS = 100;

/** `POST /api/portfolios/{id}/import`. */
export interface ImportResult {
  imported: number;
  skipped_duplicates: number;
}
