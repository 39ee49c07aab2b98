/** `POST /api/portfolios`: a new portfolio. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { Narrow } from '@/shared/api/narrow';
import { portfolioKeys } from './keys';
import type { BaseCurrency, CostMethod, Portfolio } from './portfolio';

export type NewPortfolio = Narrow<ApiSchema<'NewPortfolioRequest'>, { base_currency: BaseCurrency; cost_method?: CostMethod }>;

export const createPortfolio = (body: NewPortfolio) => apiRequest<Portfolio>('/api/portfolios', { method: 'POST', body });

export function useCreatePortfolio() {
  const { userId } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: createPortfolio,
    onSuccess: () => client.invalidateQueries({ queryKey: portfolioKeys.all(userId) }),
  });
}
