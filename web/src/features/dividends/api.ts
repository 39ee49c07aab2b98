/**
 * The dividend API (docs/portfolio.md, "Dividends"): the public calendar, the member's
 * own dividends, and recording a detected entitlement as a dividend transaction.
 * Amounts, quantities and rates are decimal strings; dates `YYYY-MM-DD`.
 */
import { useRef } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MEMBER_QUERY_ROOT } from '@/entities/member/api/keys';
import { createTransaction } from '@/entities/transaction/api/create-transaction';
import type { LedgerIssue, NewTransaction } from '@/entities/transaction/api/types';
import { ApiError, apiRequest, type ApiSchema } from '@/shared/api/client';
import { useAuth } from '@/entities/member/model/auth-context';
import { IDEMPOTENCY_KEY_REUSED, newIdempotencyKey } from '@/shared/lib/idempotency';
import type { CountryFilter } from '@/shared/lib/storage';
import type { IsoDate } from './dates';

/** `T` with the fields of `N` replaced (not intersected). */
type Narrow<T, N> = Omit<T, keyof N> & N;

/** `GET /api/instruments/{id}/dividends` items: `pay_date` absent while the company has not announced it; `amount` per share. */
export type Dividend = ApiSchema<'DividendDto'>;

/** `GET /api/dividends/calendar` items: a dividend with its instrument's names. */
export type CalendarDividend = ApiSchema<'CalendarDividend'>;

/** The currencies the member's figures can be shown in. */
export type DividendCurrency = 'KRW' | 'USD';

/** One month (`YYYY-MM`) of the 12-month forward projection, in the requested currency; `net` after withholding. */
export type ProjectedMonth = ApiSchema<'ProjectionMonthDto'>;

/** A dividend transaction the member recorded (`received`), in its own currency. */
export type ReceivedDividend = ApiSchema<'ReceivedDividendDto'>;

/**
 * A dividend the member's holdings are entitled to (held at the end of the day before
 * the ex-date) that no dividend transaction of that portfolio records yet. Amounts in
 * `currency`, rounded to its minor unit; `fx_rate` to the portfolio's base currency when
 * it differs.
 */
export type DividendEntitlement = ApiSchema<'EntitlementDto'>;

/**
 * `GET /api/me/dividends?currency=`: yields in per cent, absent without holdings;
 * `ledger_issues`, the portfolios counted only up to a transaction to fix.
 */
export type MyDividends = Narrow<Omit<ApiSchema<'MyDividendsDto'>, 'currency'>, { ledger_issues: LedgerIssue[] }>;

/** The API's `country` parameter for a stored filter (`ALL` → `all`). */
export function countryParam(filter: CountryFilter): 'KR' | 'US' | 'all' {
  return filter === 'ALL' ? 'all' : filter;
}

export const dividendKeys = {
  calendar: (from: IsoDate, to: IsoDate, country: CountryFilter) => ['dividends', 'calendar', from, to, country] as const,
  mine: (userId: number | null, currency: DividendCurrency) => [MEMBER_QUERY_ROOT, userId, 'dividends', currency] as const,
};

export function calendarQueryOptions(from: IsoDate, to: IsoDate, country: CountryFilter) {
  return queryOptions({
    queryKey: dividendKeys.calendar(from, to, country),
    queryFn: ({ signal }) =>
      apiRequest<CalendarDividend[]>('/api/dividends/calendar', {
        query: { from, to, country: countryParam(country) },
        signal,
      }),
    staleTime: 5 * 60_000,
    // The previous month stays on screen (dimmed) while the next one loads: no jump.
    placeholderData: keepPreviousData,
  });
}

/** The dividends with an ex-date or a pay date between `from` and `to` (inclusive). */
export function useDividendCalendar(from: IsoDate, to: IsoDate, country: CountryFilter) {
  return useQuery(calendarQueryOptions(from, to, country));
}

/** An answer of `GET /api/me/dividends` with the currency it was asked in (kept by the client, which asked). */
export type MyDividendsIn = MyDividends & { currency: DividendCurrency };

/** The member's dividends in `currency` (disabled for a visitor). */
export function useMyDividends(currency: DividendCurrency) {
  const { userId } = useAuth();
  return useQuery({
    queryKey: dividendKeys.mine(userId, currency),
    queryFn: async ({ signal }): Promise<MyDividendsIn> => ({
      ...(await apiRequest<MyDividends>('/api/me/dividends', { query: { currency }, signal })),
      currency,
    }),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

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
      return client.invalidateQueries({ queryKey: [MEMBER_QUERY_ROOT, userId] });
    },
    onError: (error, entitlement) => {
      if (error instanceof ApiError && error.code === IDEMPOTENCY_KEY_REUSED) keys.current.delete(bodyOf(entitlement));
    },
  });
}
