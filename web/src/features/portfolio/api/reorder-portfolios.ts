/** `PUT /api/portfolios/order`: the member's portfolios in a new order. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { portfolioKeys } from './keys';
import type { PortfolioList } from './list';

/** Every one of the member's portfolio ids, once, in the new order. */
export type PortfolioOrder = ApiSchema<'PortfolioOrder'>;

export const putPortfolioOrder = (ids: number[]) =>
  apiRequest<void>('/api/portfolios/order', { method: 'PUT', body: { ids } satisfies PortfolioOrder });

/** `list` with its portfolios in the order of `ids` (ids it does not hold are skipped, others keep their place at the end). */
export function inOrder(list: PortfolioList, ids: readonly number[]): PortfolioList {
  const rank = new Map(ids.map((id, i) => [id, i]));
  const portfolios = [...list.portfolios].sort(
    (a, b) => (rank.get(a.portfolio.id) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b.portfolio.id) ?? Number.MAX_SAFE_INTEGER),
  );
  return { ...list, portfolios };
}

/**
 * Reorders with every id, shown at once: each cached list (every currency) takes the new
 * order before the server answers, and goes back to what it was if the server refuses
 * (the lists are then asked again). The promise settles with the server's answer and
 * never rejects; it tells whether the order was saved.
 */
export function useReorderPortfolios() {
  const { userId } = useAuth();
  const client = useQueryClient();
  const mutation = useMutation({ mutationFn: putPortfolioOrder });
  const { mutateAsync } = mutation;
  const reorder = (ids: number[]): Promise<{ ok: true } | { ok: false; error: unknown }> => {
    const lists = portfolioKeys.lists(userId);
    void client.cancelQueries({ queryKey: lists });
    const before = client.getQueriesData<PortfolioList>({ queryKey: lists });
    client.setQueriesData<PortfolioList>({ queryKey: lists }, (old) => (old ? inOrder(old, ids) : old));
    return mutateAsync(ids).then(
      () => ({ ok: true as const }),
      (error: unknown) => {
        for (const [key, data] of before) client.setQueryData(key, data);
        void client.invalidateQueries({ queryKey: lists });
        return { ok: false as const, error };
      },
    );
  };
  return { reorder, isPending: mutation.isPending };
}
