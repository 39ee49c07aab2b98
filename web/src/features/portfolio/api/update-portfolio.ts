/** `PATCH /api/portfolios/{id}`: a portfolio's settings. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';
import { portfolioKeys, portfolioPath } from './keys';
import type { CostMethod, Portfolio } from './portfolio';

/** Only the fields sent change; `null` clears the broker or the orderable cash. */
export type PortfolioPatch = Narrow<ApiSchema<'PortfolioPatch'>, { cost_method?: CostMethod }>;

export const updatePortfolio = (id: number, body: PortfolioPatch) => apiRequest<Portfolio>(portfolioPath(id), { method: 'PATCH', body });

export function useUpdatePortfolio(id: number) {
  const { userId } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PortfolioPatch) => updatePortfolio(id, body),
    onSuccess: (saved) => {
      client.setQueryData(portfolioKeys.part(userId, id, 'settings'), saved);
      return client.invalidateQueries({ queryKey: portfolioKeys.all(userId) });
    },
  });
}
