/** `GET /api/instruments/{id}/quote`: the latest price, kept current by the stream. */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import type { InstrumentId, Quote } from './types';
import { instrumentPath } from '../model/ids';
import { marketKeys } from './keys';

export const fetchQuote = (id: InstrumentId, signal?: AbortSignal) =>
  apiRequest<Quote>(`${instrumentPath(id)}/quote`, { signal });

export function quoteQueryOptions(id: InstrumentId) {
  return queryOptions({
    queryKey: marketKeys.quote(id),
    queryFn: ({ signal }) => fetchQuote(id, signal),
  });
}

export interface UseQuoteOptions {
  /** `false` only reads what is cached (seeded or pushed); default `true`. */
  enabled?: boolean;
}

/** The latest quote of `id` from `['market', 'quote', id]`. */
export function useQuote(id: InstrumentId, { enabled = true }: UseQuoteOptions = {}) {
  return useQuery({ ...quoteQueryOptions(id), enabled });
}

/** Whether `v` has the fields the screens read from a quote. */
export function isQuote(v: unknown): v is Quote {
  if (typeof v !== 'object' || v === null) return false;
  const q = v as Record<string, unknown>;
  return (
    typeof q.instrument_id === 'string' &&
    typeof q.price === 'string' &&
    typeof q.change === 'string' &&
    typeof q.change_percent === 'string' &&
    typeof q.as_of === 'string' &&
    typeof q.state === 'string'
  );
}

/** The quote fields of an object that carries them (an overview item, a pushed quote). */
export function quoteOf(v: Quote): Quote {
  const { instrument_id, price, previous_close, change, change_percent, open, high, low, volume, as_of, state, source, simulated } = v;
  return { instrument_id, price, previous_close, change, change_percent, open, high, low, volume, as_of, state, source, simulated };
}

const asOfMs = (q: Quote) => {
  const ms = Date.parse(q.as_of);
  return Number.isNaN(ms) ? -Infinity : ms;
};

/**
 * Writes `quote` into the cache unless the cache already holds a newer one (a pushed
 * quote must not be replaced by an older answer that arrived later).
 */
export function writeQuote(client: QueryClient, quote: Quote | null | undefined): void {
  if (!isQuote(quote)) return;
  client.setQueryData<Quote>(marketKeys.quote(quote.instrument_id), (old) =>
    old && asOfMs(old) > asOfMs(quote) ? old : quoteOf(quote),
  );
}
