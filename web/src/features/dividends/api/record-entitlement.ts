/**
 * Records a detected entitlement as a dividend transaction of its portfolio
 * (`POST /api/portfolios/{id}/transactions`, `entities/transaction`).
 */
import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memberKeys } from '@/entities/member/api/keys';
import { useAuth } from '@/entities/member/model/auth-context';
import { createTransaction } from '@/entities/transaction/api/create-transaction';
import type { NewTransaction } from '@/entities/transaction/api/types';
import { ApiError } from '@/shared/api/client';
import { IDEMPOTENCY_KEY_REUSED, newIdempotencyKey } from '@/shared/lib/idempotency';
import type { DividendEntitlement } from './my-dividends';

/** The dividend transaction that records `entitlement`, paid on its pay date (else its ex-date). */
export function entitlementTransaction(entitlement: DividendEntitlement): NewTransaction {
  return {
    kind: 'dividend',
    trade_date: entitlement.pay_date ?? entitlement.ex_date,
    instrument_id: entitlement.instrument_id,
    quantity: entitlement.quantity,
    price: entitlement.per_share,
    fee: '0',
    tax: entitlement.tax,
    currency: entitlement.currency,
    fx_rate: entitlement.fx_rate,
    split: null,
    note: '',
  };
}

/** Identifies an entitlement on screen. */
export function entitlementKey(e: Pick<DividendEntitlement, 'portfolio_id' | 'instrument_id' | 'ex_date'>): string {
  return `${e.portfolio_id}|${e.instrument_id}|${e.ex_date}`;
}

/**
 * Records an entitlement as a dividend transaction of its portfolio. Everything the
 * member owns is refreshed afterwards: holdings, cash and returns change with it.
 *
 * Each transaction sent carries an `Idempotency-Key`, the same for a retry of the same
 * transaction (after a network failure the tap is repeated), so it is recorded once; a
 * success or a 409 `idempotency_key_reused` ends the key.
 */
export function useRecordEntitlement() {
  const { userId } = useAuth();
  const client = useQueryClient();
  /** The key of each transaction body sent and not yet recorded. */
  const keys = useRef(new Map<string, string>());
  const bodyOf = (entitlement: DividendEntitlement) => JSON.stringify([entitlement.portfolio_id, entitlementTransaction(entitlement)]);
  return useMutation({
    mutationFn: (entitlement: DividendEntitlement) => {
      const id = bodyOf(entitlement);
      const key = keys.current.get(id) ?? newIdempotencyKey();
      keys.current.set(id, key);
      return createTransaction(entitlement.portfolio_id, entitlementTransaction(entitlement), key);
    },
    onSuccess: (_saved, entitlement) => {
      keys.current.delete(bodyOf(entitlement));
      return client.invalidateQueries({ queryKey: memberKeys.all(userId) });
    },
    onError: (error, entitlement) => {
      if (error instanceof ApiError && error.code === IDEMPOTENCY_KEY_REUSED) keys.current.delete(bodyOf(entitlement));
    },
  });
}
