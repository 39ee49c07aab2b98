/** `GET /api/portfolios?currency=`: the member's portfolios with their totals, and the meta portfolio's. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import type { LedgerIssue } from '@/entities/transaction/api/types';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';
import { portfolioKeys, type CurrencyParam } from './keys';
import type { Portfolio } from './portfolio';

/** Totals of a portfolio (or of the meta portfolio), in `currency`, rounded to its minor unit. */
export type Totals = ApiSchema<'TotalsDto'>;

/** One portfolio with its totals; `ledger_issue`: the transaction the totals stop before, when one cannot be applied. */
export type PortfolioWithTotals = Narrow<ApiSchema<'PortfolioWithTotals'>, { portfolio: Portfolio; ledger_issue?: LedgerIssue | null }>;

/** `GET /api/portfolios`: `meta` is every portfolio combined (zeros without portfolios). */
export type PortfolioList = Narrow<ApiSchema<'PortfolioList'>, { portfolios: PortfolioWithTotals[] }>;

export const fetchPortfolioList = (currency: CurrencyParam, signal?: AbortSignal) =>
  apiRequest<PortfolioList>('/api/portfolios', { query: { currency }, signal });

export function portfolioListQueryOptions(userId: number | null, currency: CurrencyParam) {
  return queryOptions({
    queryKey: portfolioKeys.list(userId, currency),
    queryFn: ({ signal }) => fetchPortfolioList(currency, signal),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

export function usePortfolioList(currency: CurrencyParam) {
  const { userId } = useAuth();
  return useQuery(portfolioListQueryOptions(userId, currency));
}
