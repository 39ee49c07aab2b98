/**
 * `GET /api/fx/{pair}/rate?date=`: the server's rate of a currency on a date (the last
 * stored daily fixing on or before it, within a fortnight; either direction of a stored
 * pair), used to prefill a trade's exchange rate. A pair the market has no rates for
 * (404) and a date without a recent fixing (`rate: null`) prefill nothing.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest, type ApiSchema } from '@/shared/api/client';

type FxRateOn = ApiSchema<'FxRateOnDto'>;

/** One `from` in `to` on `date`, or null when the server knows none. */
export async function fetchRateOn(from: string, to: string, date: string, signal?: AbortSignal): Promise<string | null> {
  try {
    const on = await apiRequest<FxRateOn>(`/api/fx/${encodeURIComponent(`${from}${to}`)}/rate`, { query: { date }, signal });
    return on.rate ?? null;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

export function fxRateQueryOptions(from: string, to: string, date: string) {
  return queryOptions({
    queryKey: ['market', 'fx-on', from, to, date] as const,
    queryFn: ({ signal }) => fetchRateOn(from, to, date, signal),
    staleTime: 60 * 60 * 1000,
  });
}

/** The rate of `from` in `to` on `date`; `enabled` false (same currency, no date) asks nothing. */
export function useFxRateOn(from: string, to: string, date: string, enabled: boolean) {
  return useQuery({ ...fxRateQueryOptions(from, to, date), enabled: enabled && from !== to && /^\d{4}-\d{2}-\d{2}$/.test(date) });
}
