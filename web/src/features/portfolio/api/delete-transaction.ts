/** `DELETE /api/portfolios/{id}/transactions/{txId}`. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { apiRequest } from '@/shared/api/client';
import { portfolioKeys, portfolioPath } from './keys';

export const deleteTransaction = (id: number, txId: number) =>
  apiRequest<void>(`${portfolioPath(id)}/transactions/${txId}`, { method: 'DELETE' });

/** Deletes a transaction; every figure of the member's portfolios is refreshed. */
export function useDeleteTransaction(id: number) {
  const { userId } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (txId: number) => deleteTransaction(id, txId),
    onSuccess: () => client.invalidateQueries({ queryKey: portfolioKeys.all(userId) }),
  });
}
