/** `GET /api/portfolios/{id}/valuation?currency=`: holdings, cash and totals, valued now. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InstrumentKind } from '@/entities/instrument/api/types';
import { useAuth } from '@/entities/member/model/auth-context';
import type { LedgerIssue } from '@/entities/transaction/api/types';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';
import { META_ID, portfolioKeys, portfolioPath, type CurrencyParam, type PortfolioRef } from './keys';

/** One open holding; its names, ticker and kind are absent when the catalogue does not know the instrument. */
export type Holding = Narrow<ApiSchema<'HoldingDto'>, { kind?: InstrumentKind | null }>;

/** Cash in one currency. */
export type CashLine = ApiSchema<'CashDto'>;

/** A portfolio valued now; `ledger_issues`, the transactions the figures stop before (several for `meta`). */
export type Valuation = Narrow<ApiSchema<'ValuationDto'>, { holdings: Holding[]; ledger_issues: LedgerIssue[] }>;

/** The meta portfolio has no `original` mode: its totals are in KRW then. */
export function currencyFor(id: PortfolioRef, currency: CurrencyParam): CurrencyParam {
  return id === META_ID && currency === 'original' ? 'KRW' : currency;
}

export const fetchValuation = (id: PortfolioRef, currency: CurrencyParam, signal?: AbortSignal) =>
  apiRequest<Valuation>(`${portfolioPath(id)}/valuation`, { query: { currency: currencyFor(id, currency) }, signal });

export function valuationQueryOptions(userId: number | null, id: PortfolioRef, currency: CurrencyParam) {
  const c = currencyFor(id, currency);
  return queryOptions({
    queryKey: portfolioKeys.part(userId, id, 'valuation', c),
    queryFn: ({ signal }) => fetchValuation(id, c, signal),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

export function useValuation(id: PortfolioRef, currency: CurrencyParam) {
  const { userId } = useAuth();
  return useQuery(valuationQueryOptions(userId, id, currency));
}
