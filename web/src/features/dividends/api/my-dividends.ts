/**
 * `GET /api/me/dividends?currency=`: the member's dividends — received, entitled (not yet
 * recorded), the 12-month projection, trailing yield and yield on cost, after
 * withholding. Amounts are decimal strings; dates `YYYY-MM-DD`.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import type { LedgerIssue } from '@/entities/transaction/api/types';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';
import { dividendKeys, type DividendCurrency } from './keys';

export type { DividendCurrency };

/** One month (`YYYY-MM`) of the 12-month forward projection, in the requested currency; `net` after withholding. */
export type ProjectedMonth = ApiSchema<'ProjectionMonthDto'>;

/** A dividend transaction the member recorded (`received`), in its own currency. */
export type ReceivedDividend = ApiSchema<'ReceivedDividendDto'>;

/**
 * A dividend the member's holdings are entitled to (held at the end of the day before
 * the ex-date) that no dividend transaction of that portfolio records yet. Amounts in
 * `currency`, rounded to its minor unit; `fx_rate` to the portfolio's base currency when
 * it differs.
 */
export type DividendEntitlement = ApiSchema<'EntitlementDto'>;

/**
 * The answer: yields in per cent, absent without holdings; `ledger_issues`, the
 * portfolios counted only up to a transaction to fix.
 */
export type MyDividends = Narrow<Omit<ApiSchema<'MyDividendsDto'>, 'currency'>, { ledger_issues: LedgerIssue[] }>;

/** An answer with the currency it was asked in (kept by the client, which asked). */
export type MyDividendsIn = MyDividends & { currency: DividendCurrency };

export const fetchMyDividends = async (currency: DividendCurrency, signal?: AbortSignal): Promise<MyDividendsIn> => ({
  ...(await apiRequest<MyDividends>('/api/me/dividends', { query: { currency }, signal })),
  currency,
});

export function myDividendsQueryOptions(userId: number | null, currency: DividendCurrency) {
  return queryOptions({
    queryKey: dividendKeys.mine(userId, currency),
    queryFn: ({ signal }) => fetchMyDividends(currency, signal),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

/** The member's dividends in `currency` (disabled for a visitor). */
export function useMyDividends(currency: DividendCurrency) {
  const { userId } = useAuth();
  return useQuery(myDividendsQueryOptions(userId, currency));
}
