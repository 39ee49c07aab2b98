/**
 * The operator's feeds (`/api/admin/news/feeds…`, the operator role): the list, add,
 * change, delete, fetch now, and adding the default list. Every change refreshes the list.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { newsKeys } from './keys';
import type { DefaultFeedsResult, Feed, FeedFetchResult, FeedInput, FeedList } from './types';

const FEEDS = '/api/admin/news/feeds';

export const fetchFeeds = (signal?: AbortSignal) => apiRequest<FeedList>(FEEDS, { signal });
export const createFeed = (input: FeedInput) => apiRequest<Feed>(FEEDS, { method: 'POST', body: input });
export const updateFeed = (id: number, change: Partial<FeedInput>) =>
  apiRequest<Feed>(`${FEEDS}/${id}`, { method: 'PATCH', body: change });
export const deleteFeed = (id: number) => apiRequest<void>(`${FEEDS}/${id}`, { method: 'DELETE' });
export const fetchFeedNow = (id: number) => apiRequest<FeedFetchResult>(`${FEEDS}/${id}/fetch`, { method: 'POST' });
export const addDefaultFeeds = () => apiRequest<DefaultFeedsResult>(`${FEEDS}/defaults`, { method: 'POST' });

export function feedsQueryOptions(enabled = true) {
  return queryOptions({ queryKey: newsKeys.feeds(), queryFn: ({ signal }) => fetchFeeds(signal), enabled });
}

export function useFeeds(enabled = true) {
  return useQuery(feedsQueryOptions(enabled));
}

/** A mutation of the feeds that refreshes the list (and the news, whose status may change) once done. */
function useFeedMutation<A, R>(run: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => client.invalidateQueries({ queryKey: newsKeys.all }),
  });
}

export const useCreateFeed = () => useFeedMutation(createFeed);
export const useUpdateFeed = () => useFeedMutation(({ id, change }: { id: number; change: Partial<FeedInput> }) => updateFeed(id, change));
export const useDeleteFeed = () => useFeedMutation(deleteFeed);
export const useFetchFeedNow = () => useFeedMutation(fetchFeedNow);
export const useAddDefaultFeeds = () => useFeedMutation(addDefaultFeeds);
