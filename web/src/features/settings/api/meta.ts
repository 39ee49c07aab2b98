/** `GET /api/meta`: server version, clock and defaults. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiSchema } from '@/shared/api/client';
import { settingsKeys } from './keys';

/** The response of `GET /api/meta`: version, clock (RFC 3339), default locale, host page. */
export type Meta = ApiSchema<'Meta'>;

export function getMeta(signal?: AbortSignal): Promise<Meta> {
  return apiGet('/api/meta', { signal });
}

export function metaQueryOptions() {
  return queryOptions({
    queryKey: settingsKeys.meta(),
    queryFn: ({ signal }) => getMeta(signal),
    staleTime: 60_000,
  });
}

export function useMeta() {
  return useQuery(metaQueryOptions());
}
