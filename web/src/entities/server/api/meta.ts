/**
 * `GET /api/meta`: what the server says of itself (version, clock, default locale, the
 * operator's contact, the house logo and share card). One query for the whole app, so
 * that the header, settings and the operator's pages share one request.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiSchema } from '@/shared/api/client';

export type ServerMeta = ApiSchema<'Meta'>;

/** The query key of `GET /api/meta`. */
export const SERVER_META_KEY = ['meta', 'detail'] as const;

/** Fresh for a minute: a new logo is a new URL, picked up by the next page load or refetch. */
export const SERVER_META_STALE_MS = 60_000;

export function serverMetaQueryOptions() {
  return queryOptions({
    queryKey: SERVER_META_KEY,
    // Public: read without the member's token (it is the same for everyone).
    queryFn: ({ signal }) => apiGet('/api/meta', { signal, anonymous: true }),
    staleTime: SERVER_META_STALE_MS,
  });
}

export function useServerMeta() {
  return useQuery(serverMetaQueryOptions());
}
