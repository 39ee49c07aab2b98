/** `GET /api/instruments/search?q=…&limit=…`: instruments ranked by how well they match. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import type { Instrument } from './types';
import { marketKeys } from './keys';

/** Results asked for (the server allows 1–50). */
export const SEARCH_LIMIT = 20;
/** Longer queries are refused by the server (422); the box stops there. */
export const SEARCH_MAX_CHARS = 64;
/** The catalogue changes rarely: a query typed again within this time is not asked again. */
const SEARCH_STALE_MS = 5 * 60_000;

/** What is sent: trimmed, inner runs of spaces collapsed. */
export function normaliseQuery(raw: string): string {
  return raw.trim().replace(/\s+/g, ' ').slice(0, SEARCH_MAX_CHARS);
}

export const searchInstruments = (q: string, limit = SEARCH_LIMIT, signal?: AbortSignal) =>
  apiRequest<Instrument[]>('/api/instruments/search', { query: { q, limit }, signal });

export function searchQueryOptions(query: string, limit = SEARCH_LIMIT) {
  const q = normaliseQuery(query);
  return queryOptions({
    queryKey: marketKeys.search(q, limit),
    queryFn: ({ signal }) => searchInstruments(q, limit, signal),
    enabled: q !== '',
    staleTime: SEARCH_STALE_MS,
  });
}

/**
 * Search results for `query` (already debounced by the caller). While the next answer
 * loads, the previous results stay on screen (`isPlaceholderData`).
 */
export function useInstrumentSearch(query: string, limit = SEARCH_LIMIT) {
  return useQuery({ ...searchQueryOptions(query, limit), placeholderData: keepPreviousData });
}
