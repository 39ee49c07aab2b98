/** `GET /api/portfolios/{id}/allocation?by=&currency=`: the portfolio's value split by holding, sector, country, currency or asset class. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { portfolioKeys, portfolioPath, type CurrencyParam, type PortfolioRef } from './keys';

export type AllocationBy = 'holding' | 'sector' | 'country' | 'currency' | 'asset_class';
export const ALLOCATION_BYS = ['holding', 'sector', 'country', 'currency', 'asset_class'] as const satisfies readonly AllocationBy[];

/** One slice: `key` is an instrument id, sector, country, currency or asset class; `cash` or `unknown`. */
export type Slice = ApiSchema<'AllocationSliceDto'>;

export const fetchAllocation = (id: PortfolioRef, by: AllocationBy, currency: CurrencyParam, signal?: AbortSignal) =>
  apiRequest<Slice[]>(`${portfolioPath(id)}/allocation`, { query: { by, currency }, signal });

export function allocationQueryOptions(userId: number | null, id: PortfolioRef, by: AllocationBy, currency: CurrencyParam) {
  return queryOptions({
    queryKey: portfolioKeys.part(userId, id, 'allocation', by, currency),
    queryFn: ({ signal }) => fetchAllocation(id, by, currency, signal),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Allocation of one portfolio (the meta portfolio's is worked out from its valuation). */
export function useAllocation(id: PortfolioRef, by: AllocationBy, currency: CurrencyParam) {
  const { userId } = useAuth();
  return useQuery(allocationQueryOptions(userId, id, by, currency));
}
