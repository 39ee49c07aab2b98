/** `GET /api/portfolios/{id}/performance?currency=&benchmark=`: daily values, returns per period, beside a benchmark. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import type { LedgerIssue } from '@/entities/transaction/api/types';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';
import { portfolioKeys, portfolioPath, type CurrencyParam, type PortfolioRef } from './keys';
import { currencyFor } from './valuation';

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

/** Returns over one period, in per cent; `mwr` and `mwr_annual` are absent when the period's flows have no solution. */
export type PeriodReturn = Narrow<ApiSchema<'PeriodReturnDto'>, { period: PeriodKey; explanation: Explanation }>;

/** One day of the chart, from its base point (the day before money first came in) on. */
export type PerformancePoint = ApiSchema<'ChartPointDto'>;

/** `GET /api/portfolios/{id}/performance`. */
export type Performance = Narrow<ApiSchema<'PerformanceDto'>, { periods: PeriodReturn[]; ledger_issues: LedgerIssue[] }>;

export type Benchmark = 'INDEX:KOSPI' | 'INDEX:SPX';
export const BENCHMARKS = ['INDEX:KOSPI', 'INDEX:SPX'] as const satisfies readonly Benchmark[];

export const fetchPerformance = (id: PortfolioRef, currency: CurrencyParam, benchmark: Benchmark, signal?: AbortSignal) =>
  apiRequest<Performance>(`${portfolioPath(id)}/performance`, { query: { currency: currencyFor(id, currency), benchmark }, signal });

export function performanceQueryOptions(userId: number | null, id: PortfolioRef, currency: CurrencyParam, benchmark: Benchmark) {
  const c = currencyFor(id, currency);
  return queryOptions({
    queryKey: portfolioKeys.part(userId, id, 'performance', c, benchmark),
    queryFn: ({ signal }) => fetchPerformance(id, c, benchmark, signal),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

export function usePerformance(id: PortfolioRef, currency: CurrencyParam, benchmark: Benchmark) {
  const { userId } = useAuth();
  return useQuery(performanceQueryOptions(userId, id, currency, benchmark));
}
