/**
 * Types of the portfolio API (docs/portfolio.md): the generated schema
 * (`shared/api/schema.d.ts`), narrowed to the closed sets of values the server documents
 * but sends as `string` (currencies, cost methods, periods, explanation codes).
 * Transactions and ledger issues are `entities/transaction`'s.
 *
 * Every amount, price, quantity and rate is a decimal string; dates are `YYYY-MM-DD`;
 * percentages are in per cent (`"1.84"` is 1.84 %), sent with full precision.
 */
import type { InstrumentKind } from '@/entities/instrument/api/types';
import type { LedgerIssue, Transaction } from '@/entities/transaction/api/types';
import type { ApiSchema } from '@/shared/api/client';

/** `T` with the fields of `N` replaced (not intersected). */
type Narrow<T, N> = Omit<T, keyof N> & N;

export type BaseCurrency = 'KRW' | 'USD';
export const BASE_CURRENCIES = ['KRW', 'USD'] as const satisfies readonly BaseCurrency[];

export type CostMethod = 'moving_average' | 'fifo';
export const COST_METHODS = ['moving_average', 'fifo'] as const satisfies readonly CostMethod[];

/** What `?currency=` takes. */
export type CurrencyParam = 'original' | 'KRW' | 'USD';

export type OrderableCash = ApiSchema<'OrderableCashDto'>;

/** A portfolio's settings. */
export type Portfolio = Narrow<ApiSchema<'PortfolioDto'>, { base_currency: BaseCurrency; cost_method: CostMethod }>;

/** `POST /api/portfolios`. */
export type NewPortfolio = Narrow<ApiSchema<'NewPortfolioRequest'>, { base_currency: BaseCurrency; cost_method?: CostMethod }>;

/** `PATCH /api/portfolios/{id}`: only the fields sent change; `null` clears the broker or the orderable cash. */
export type PortfolioPatch = Narrow<ApiSchema<'PortfolioPatch'>, { cost_method?: CostMethod }>;

/** Totals of a portfolio (or of the meta portfolio), in `currency`. */
export type Totals = ApiSchema<'TotalsDto'>;

/** One portfolio with its totals; `ledger_issue`: the transaction the totals stop before, when one cannot be applied. */
export type PortfolioWithTotals = Narrow<ApiSchema<'PortfolioWithTotals'>, { portfolio: Portfolio; ledger_issue?: LedgerIssue | null }>;

/** `GET /api/portfolios`. */
export type PortfolioList = Narrow<ApiSchema<'PortfolioList'>, { portfolios: PortfolioWithTotals[] }>;

/** One open holding; its names, ticker and kind are absent when the catalogue does not know the instrument. */
export type Holding = Narrow<ApiSchema<'HoldingDto'>, { kind?: InstrumentKind | null }>;

/** Cash in one currency. */
export type CashLine = ApiSchema<'CashDto'>;

/** `GET /api/portfolios/{id}/valuation`: `ledger_issues`, the transactions the figures stop before. */
export type Valuation = Narrow<ApiSchema<'ValuationDto'>, { holdings: Holding[]; ledger_issues: LedgerIssue[] }>;

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
export type Explanation = Narrow<ApiSchema<'ExplanationDto'>, { code: ExplanationCode }>;

/** Returns over one period; `mwr` and `mwr_annual` are absent when the period's flows have no solution. */
export type PeriodReturn = Narrow<ApiSchema<'PeriodReturnDto'>, { period: PeriodKey; explanation: Explanation }>;

/** One day of the chart, from its base point (the day before money first came in) on. */
export type PerformancePoint = ApiSchema<'ChartPointDto'>;

/** `GET /api/portfolios/{id}/performance`. */
export type Performance = Narrow<ApiSchema<'PerformanceDto'>, { periods: PeriodReturn[]; ledger_issues: LedgerIssue[] }>;

export type Benchmark = 'INDEX:KOSPI' | 'INDEX:SPX';
export const BENCHMARKS = ['INDEX:KOSPI', 'INDEX:SPX'] as const satisfies readonly Benchmark[];

export type AllocationBy = 'holding' | 'sector' | 'country' | 'currency' | 'asset_class';
export const ALLOCATION_BYS = ['holding', 'sector', 'country', 'currency', 'asset_class'] as const satisfies readonly AllocationBy[];

/** One slice of the allocation: `key` is an instrument id, sector, country, currency or asset class; `cash` or `unknown`. */
export type Slice = ApiSchema<'AllocationSliceDto'>;

/** A problem with one CSV line (`line`), or with the whole file (line 1, the header). */
export type ImportError = ApiSchema<'RowErrorDto'>;

/** One previewed line. */
export type PreviewRow = Narrow<ApiSchema<'PreviewRowDto'>, { transaction: Transaction }>;

/**
 * `POST /api/portfolios/{id}/import/preview`: the counts, the date range, the first
 * {@link IMPORT_PREVIEW_ROWS} rows and every error.
 */
export type ImportPreview = Narrow<ApiSchema<'ImportPreviewDto'>, { rows: PreviewRow[] }>;

/** The preview shows at most this many rows (the server's cut). */
export const IMPORT_PREVIEW_ROWS = 100;

/** `POST /api/portfolios/{id}/import`. */
export type ImportResult = ApiSchema<'ImportResult'>;
