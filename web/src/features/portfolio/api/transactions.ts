/** `GET /api/portfolios/{id}/transactions`: a portfolio's transactions (not for `meta`). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import type { Transaction } from '@/entities/transaction/api/types';
import { apiRequest } from '@/shared/api/client';
import { META_ID, portfolioKeys, portfolioPath, type PortfolioRef } from './keys';

export const fetchTransactions = (id: PortfolioRef, signal?: AbortSignal) =>
  apiRequest<Transaction[]>(`${portfolioPath(id)}/transactions`, { signal });

export function transactionsQueryOptions(userId: number | null, id: PortfolioRef, enabled = true) {
  return queryOptions({
    queryKey: portfolioKeys.part(userId, id, 'transactions'),
    queryFn: ({ signal }) => fetchTransactions(id, signal),
    enabled: enabled && userId !== null && id !== META_ID,
  });
}

export function useTransactions(id: PortfolioRef, enabled = true) {
  const { userId } = useAuth();
  return useQuery(transactionsQueryOptions(userId, id, enabled));
}
