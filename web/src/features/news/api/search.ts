/** `GET /api/news/search?q=&country=&cursor=&limit=`: articles matching a query, by relevance and recency. */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { NEWS_STALE_MS, newsKeys, type SearchCountry } from './keys';
import { NEWS_PAGE_SIZE } from './news';
import type { NewsSearch } from './types';

/** The server's limit on a query (characters, after trimming). */
export const NEWS_QUERY_MAX_CHARS = 100;

export const fetchNewsSearch = (q: string, country: SearchCountry, cursor: string | null, signal?: AbortSignal) =>
  apiRequest<NewsSearch>('/api/news/search', {
    query: { q, country: country === 'ALL' ? undefined : country, cursor, limit: NEWS_PAGE_SIZE },
    signal,
  });

export function newsSearchQueryOptions(q: string, country: SearchCountry) {
  return infiniteQueryOptions({
    queryKey: newsKeys.search(q, country),
    queryFn: ({ pageParam, signal }) => fetchNewsSearch(q, country, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: NEWS_STALE_MS,
    enabled: q !== '',
  });
}

/** The results of `q` (nothing is asked while it is empty). */
export function useNewsSearch(q: string, country: SearchCountry) {
  return useInfiniteQuery(newsSearchQueryOptions(q, country));
}
