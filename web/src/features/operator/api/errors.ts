/** `GET /api/operator/observe/errors` (by offset) and `…/errors/{id}`. */
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiRequest } from '@/shared/api/client';
import { LIST_STALE_MS, observeKeys } from './keys';
import type { ErrorGroupDetail } from './types';

export const ERROR_GROUPS_PAGE_SIZE = 50;

/** One page of groups, from `offset` (`next_offset` of the previous page). */
export function errorGroupsPageOptions(offset?: number) {
  return queryOptions({
    queryKey: observeKeys.errorGroups(offset),
    queryFn: ({ signal }) =>
      apiGet('/api/operator/observe/errors', { query: { limit: ERROR_GROUPS_PAGE_SIZE, offset: offset || undefined }, signal }),
    staleTime: LIST_STALE_MS,
  });
}

export function errorGroupQueryOptions(id: number) {
  return queryOptions({
    queryKey: observeKeys.errorGroup(id),
    queryFn: ({ signal }) => apiRequest<ErrorGroupDetail>(`/api/operator/observe/errors/${id}`, { signal }),
  });
}
