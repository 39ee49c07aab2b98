/** `GET /api/instruments/{id}/dividends`: an instrument's dividends, a year back to a year ahead (the server's default range). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import { dividendKeys } from './keys';

/** One dividend: `amount` per share in `currency`, decimal strings; dates `YYYY-MM-DD`. */
export type InstrumentDividend = ApiSchema<'DividendDto'>;

export const fetchInstrumentDividends = (id: string, signal?: AbortSignal) =>
  apiRequest<InstrumentDividend[]>(`/api/instruments/${encodeURIComponent(id)}/dividends`, { signal });

export function instrumentDividendsQueryOptions(id: string) {
  return queryOptions({
    queryKey: dividendKeys.instrument(id),
    queryFn: ({ signal }) => fetchInstrumentDividends(id, signal),
    staleTime: 30 * 60_000,
  });
}

export function useInstrumentDividends(id: string) {
  return useQuery(instrumentDividendsQueryOptions(id));
}
