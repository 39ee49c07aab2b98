/** `DELETE /api/portfolios/{id}`: a portfolio and its transactions. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { apiRequest } from '@/shared/api/client';
import { META_ID, portfolioKeys, portfolioPath } from './keys';

export const deletePortfolio = (id: number) => apiRequest<void>(portfolioPath(id), { method: 'DELETE' });

/**
 * Deletes a portfolio (its transactions go with it). The lists and the meta portfolio are
 * refreshed; the deleted one's own queries are left to the caller, which leaves its page
 * first (refetching them would only answer 404).
 */
export function useDeletePortfolio(id: number) {
  const { userId } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => deletePortfolio(id),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: portfolioKeys.lists(userId) }),
        client.invalidateQueries({ queryKey: portfolioKeys.one(userId, META_ID) }),
      ]).then(() => undefined),
  });
}

/** Removes every cached query of one portfolio (after it was deleted and its page left). */
export function useForgetPortfolio() {
  const { userId } = useAuth();
  const client = useQueryClient();
  return (id: number) => client.removeQueries({ queryKey: portfolioKeys.one(userId, id) });
}
