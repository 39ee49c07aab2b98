/** `GET /api/instruments/{id}/news?cursor=&limit=`: the articles linked to one instrument, newest first. */
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { instrumentPath } from '@/entities/instrument/model/ids';
import { apiRequest } from '@/shared/api/client';
import { NEWS_STALE_MS, newsKeys } from './keys';
import type { NewsList } from './types';

/** Articles a stock's page shows at first, and per "more". */
export const STOCK_NEWS_PAGE_SIZE = 5;

export const fetchInstrumentNews = (id: string, cursor: string | null, signal?: AbortSignal) =>
  apiRequest<NewsList>(`${instrumentPath(id)}/news`, { query: { cursor, limit: STOCK_NEWS_PAGE_SIZE }, signal });

export function instrumentNewsQueryOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: newsKeys.instrument(id),
    queryFn: ({ pageParam, signal }) => fetchInstrumentNews(id, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    staleTime: NEWS_STALE_MS,
  });
}

export function useInstrumentNews(id: string) {
  return useInfiniteQuery(instrumentNewsQueryOptions(id));
}
