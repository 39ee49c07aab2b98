import { QueryClient } from '@tanstack/react-query';
import type { ApiError } from '@/shared/api/client';

/** Queries retry at most this many times, and never after a 4xx. */
const MAX_RETRIES = 2;

/** Whether a failed query is worth repeating: not when the request itself was wrong (4xx). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && ((error.status >= 400 && error.status < 500) || error.code === 'aborted')) return false;
  return failureCount < MAX_RETRIES;
}

// Recognised by name rather than `instanceof`, so the API client stays out of the first
// page's bundle (it loads with the first screen that fetches).
function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && error.name === 'ApiError';
}

/** The app's query client. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        staleTime: 30_000,
        refetchOnWindowFocus: true,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
