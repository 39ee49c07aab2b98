/** `GET /api/me`: the console shows itself only to operators (`role`). */
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { MEMBER_QUERY_ROOT } from '@/shared/auth/AuthProvider';
import type { Me } from './types';

/**
 * The logged-in member's account. Same key and answer as the account page's query
 * (`['me', userId]`), so the two share one request, and it is dropped on log-out.
 */
export function meQueryOptions(userId: number) {
  return queryOptions({
    queryKey: [MEMBER_QUERY_ROOT, userId] as const,
    queryFn: ({ signal }) => apiRequest<Me>('/api/me', { signal }),
  });
}
