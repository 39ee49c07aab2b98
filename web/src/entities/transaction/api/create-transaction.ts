/** `POST /api/portfolios/{id}/transactions`: records a transaction in a member's portfolio. */
import { apiRequest } from '@/shared/api/client';
import { IDEMPOTENCY_HEADER } from '@/shared/lib/idempotency';
import type { NewTransaction, Transaction } from './types';

/**
 * Records `body` in portfolio `portfolioId`. With an `idempotencyKey`
 * (`shared/lib/idempotency`), a resend of the same request is recorded once.
 */
export function createTransaction(portfolioId: number, body: NewTransaction, idempotencyKey?: string): Promise<Transaction> {
  return apiRequest<Transaction>(`/api/portfolios/${encodeURIComponent(String(portfolioId))}/transactions`, {
    method: 'POST',
    body,
    ...(idempotencyKey ? { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } } : {}),
  });
}
