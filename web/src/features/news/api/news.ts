/** `GET /api/news?country=&cursor=&limit=`: a country's articles, newest first, cursor-paged. */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { NEWS_STALE_MS, newsKeys } from './keys';
import type { NewsCountry, NewsList } from './types';

/** Articles per page of a list. */
export const NEWS_PAGE_SIZE = 20;
/** Articles home shows. */
export const TOP_NEWS_COUNT = 5;

export const fetchNews = (country: NewsCountry, cursor: string | null, limit: number, signal?: AbortSignal) =>
  apiRequest<NewsList>('/api/news', { query: { country, cursor, limit }, signal });

export function newsListQueryOptions(country: NewsCountry) {
  return infiniteQueryOptions({
    queryKey: newsKeys.list(country),
    queryFn: ({ pageParam, signal }) => fetchNews(country, pageParam, NEWS_PAGE_SIZE, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: NEWS_STALE_MS,
  });
}

/** A country's articles, page by page. */
export function useNewsList(country: NewsCountry) {
  return useInfiniteQuery(newsListQueryOptions(country));
}

/** Home's top stories: the country's newest few. */
export function useTopNews(country: NewsCountry) {
  return useQuery(
    queryOptions({
      queryKey: newsKeys.top(country),
      queryFn: ({ signal }) => fetchNews(country, null, TOP_NEWS_COUNT, signal),
      staleTime: NEWS_STALE_MS,
    }),
  );
}
