/** `GET /api/meta`: the server's version and clock, shown to the operator. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type ApiSchema } from '@/shared/api/client';
import { operatorKeys } from './keys';

export type Meta = ApiSchema<'Meta'>;

export function metaQueryOptions() {
  return queryOptions({
    queryKey: operatorKeys.meta(),
    queryFn: ({ signal }) => apiGet('/api/meta', { signal }),
  });
}

export function useMeta() {
  return useQuery(metaQueryOptions());
}
