/**
 * Cursor paging with plain queries: the first page, then one query per "load more".
 * (TanStack's infinite queries would put their paging helpers into the first page's
 * bundle, which has no room for them.) Each page's rows render from their own query;
 * this hook knows the first page (for loading, error and empty states) and the last one
 * (for the next cursor).
 */
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useState } from 'react';

export interface Paging<C, D, K extends QueryKey> {
  /** The cursors of the pages shown: `undefined` for the first, then each "load more". */
  cursors: (C | undefined)[];
  first: ReturnType<typeof useQuery<D, Error, D, K>>;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => void;
}

/**
 * `optionsFor(cursor)` gives a page's query; `nextOf(page)` its successor's cursor
 * (`undefined` on the last page). Paging restarts when `resetKey` changes (new filters).
 */
export function usePaging<C, D, K extends QueryKey>(
  optionsFor: (cursor: C | undefined) => UseQueryOptions<D, Error, D, K>,
  nextOf: (page: D) => C | null | undefined,
  resetKey = '',
): Paging<C, D, K> {
  const [state, setState] = useState<{ key: string; more: C[] }>({ key: resetKey, more: [] });
  const more = state.key === resetKey ? state.more : [];
  const first = useQuery(optionsFor(undefined));
  const lastCursor = more.at(-1);
  const last = useQuery(optionsFor(lastCursor));
  const next = last.data === undefined ? undefined : (nextOf(last.data) ?? undefined);
  const loadingMore = more.length > 0 && last.isPending;
  const failedMore = more.length > 0 && last.isError;
  return {
    cursors: [undefined, ...more],
    first,
    hasNextPage: next !== undefined || failedMore,
    isFetchingNextPage: loadingMore,
    isFetchNextPageError: failedMore,
    fetchNextPage: () => {
      if (failedMore) void last.refetch();
      else if (next !== undefined) setState({ key: resetKey, more: [...more, next] });
    },
  };
}
