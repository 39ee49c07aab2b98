/** `GET /api/operator/observe/feedback`: newest first, by cursor. */
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/shared/api/client';
import { LIST_STALE_MS, observeKeys } from './keys';

export const FEEDBACK_PAGE_SIZE = 50;

/** One page of feedback: the newest, or the one after `before` (`next_before` of the previous). */
export function feedbackPageOptions(before?: number) {
  return queryOptions({
    queryKey: observeKeys.feedback(before),
    queryFn: ({ signal }) => apiGet('/api/operator/observe/feedback', { query: { limit: FEEDBACK_PAGE_SIZE, before }, signal }),
    staleTime: LIST_STALE_MS,
  });
}
