/** `GET /api/news/articles/{id}`: one article with all its outlets; 404 `news_article_not_found`. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { newsKeys } from './keys';
import type { Article } from './types';

export const fetchArticle = (id: number, signal?: AbortSignal) => apiRequest<Article>(`/api/news/articles/${id}`, { signal });

export function articleQueryOptions(id: number, enabled = true) {
  return queryOptions({
    queryKey: newsKeys.article(id),
    queryFn: ({ signal }) => fetchArticle(id, signal),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** The article `id` (not asked while `enabled` is false: an id that cannot be one). */
export function useArticle(id: number, enabled = true) {
  return useQuery(articleQueryOptions(id, enabled));
}
