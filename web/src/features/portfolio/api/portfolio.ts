/** `GET /api/portfolios/{id}`: one portfolio's settings (the meta portfolio has none). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';
import { META_ID, portfolioKeys, portfolioPath, type PortfolioRef } from './keys';

export type BaseCurrency = 'KRW' | 'USD';
export const BASE_CURRENCIES = ['KRW', 'USD'] as const satisfies readonly BaseCurrency[];

export type CostMethod = 'moving_average' | 'fifo';
export const COST_METHODS = ['moving_average', 'fifo'] as const satisfies readonly CostMethod[];

/** The orderable cash of a linked brokerage (`amount` a decimal string). */
export type OrderableCash = ApiSchema<'OrderableCashDto'>;

/** A portfolio's settings. */
export type Portfolio = Narrow<ApiSchema<'PortfolioDto'>, { base_currency: BaseCurrency; cost_method: CostMethod }>;

export const fetchPortfolio = (id: PortfolioRef, signal?: AbortSignal) => apiRequest<Portfolio>(portfolioPath(id), { signal });

export function portfolioQueryOptions(userId: number | null, id: PortfolioRef) {
  return queryOptions({
    queryKey: portfolioKeys.part(userId, id, 'settings'),
    queryFn: ({ signal }) => fetchPortfolio(id, signal),
    enabled: userId !== null && id !== META_ID,
  });
}

/** One portfolio's settings (not for `meta`, which has none). */
export function usePortfolio(id: PortfolioRef) {
  const { userId } = useAuth();
  return useQuery(portfolioQueryOptions(userId, id));
}
