/** `POST /api/portfolios/{id}/transactions` (new) and `PUT …/transactions/{txId}` (edit). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@/entities/member/model/auth-context';
import { createTransaction } from '@/entities/transaction/api/create-transaction';
import type { NewTransaction, Transaction } from '@/entities/transaction/api/types';
import { apiRequest } from '@/shared/api/client';
import { portfolioKeys, portfolioPath } from './keys';

/** A transaction to save; a new one (`POST`) names its request with an `Idempotency-Key`. */
export interface SaveTransaction {
  body: NewTransaction;
  /** `shared/lib/idempotency.ts`: the same key for a resend of the same body. */
  idempotencyKey?: string;
}

export const updateTransaction = (id: number, txId: number, body: NewTransaction) =>
  apiRequest<Transaction>(`${portfolioPath(id)}/transactions/${txId}`, { method: 'PUT', body });

/**
 * Saves a transaction (a new one without `txId`). Every figure of the member's
 * portfolios is recomputed by the server, so all of them are refreshed.
 */
export function useSaveTransaction(id: number, txId?: number) {
  const { userId } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: SaveTransaction) =>
      txId === undefined ? createTransaction(id, body, idempotencyKey) : updateTransaction(id, txId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: portfolioKeys.all(userId) }),
  });
}
