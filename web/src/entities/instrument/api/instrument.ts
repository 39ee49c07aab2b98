/** `GET /api/instruments/{id}`: the instrument with its quote and key figures. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import type { InstrumentDetail, InstrumentId } from './types';
import { instrumentPath } from '../model/ids';
import { marketKeys } from './keys';
import { writeQuote } from './quote';

/** Names and figures change rarely; the price comes from the quote (and the stream). */
const INSTRUMENT_STALE_MS = 5 * 60_000;

export const fetchInstrument = (id: InstrumentId, signal?: AbortSignal) =>
  apiRequest<InstrumentDetail>(instrumentPath(id), { signal });

export function instrumentQueryOptions(id: InstrumentId) {
  return queryOptions({
    queryKey: marketKeys.instrument(id),
    queryFn: async ({ signal, client }) => {
      const detail = await fetchInstrument(id, signal);
      // The quote travels with it: no second request for `useQuote(id)`.
      writeQuote(client, detail.quote);
      return detail;
    },
    staleTime: INSTRUMENT_STALE_MS,
  });
}

export function useInstrument(id: InstrumentId) {
  return useQuery(instrumentQueryOptions(id));
}
