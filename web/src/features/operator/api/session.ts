/** `GET /api/operator/observe/sessions/{secure_id}` and `…/replay`. */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { observeKeys } from './keys';
import type { ObsReplay, ObsSessionDetail } from './types';

const sessionPath = (secureId: string) => `/api/operator/observe/sessions/${encodeURIComponent(secureId)}` as const;

/** The session with its timeline (loads, navigations, clicks, console, network, errors). */
export function sessionQueryOptions(secureId: string) {
  return queryOptions({
    queryKey: observeKeys.session(secureId),
    queryFn: ({ signal }) => apiRequest<ObsSessionDetail>(sessionPath(secureId), { signal }),
  });
}

/**
 * Chunks (pushes, about 2 s of the visit each) on the replay's first page: small, so
 * the player starts at once; the rest come in larger pages behind it.
 */
export const REPLAY_FIRST_PAGE_CHUNKS = 15;
/** Chunks on each later page (the server allows up to 200). */
export const REPLAY_PAGE_CHUNKS = 150;

/**
 * The rrweb events of the session, as recorded, page by page (`after` = the previous
 * page's `next_after`). Large and unchanging once the visit ended.
 */
export function replayQueryOptions(secureId: string) {
  return infiniteQueryOptions({
    queryKey: observeKeys.replay(secureId),
    queryFn: ({ signal, pageParam }) => {
      const query =
        pageParam === null ? `limit=${REPLAY_FIRST_PAGE_CHUNKS}` : `limit=${REPLAY_PAGE_CHUNKS}&after=${pageParam}`;
      return apiRequest<ObsReplay>(`${sessionPath(secureId)}/replay?${query}`, { signal });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_after ?? undefined,
    staleTime: 5 * 60_000,
    // Not kept once the page is left: a long session's events take many megabytes.
    gcTime: 0,
    // Pages only ever append; comparing megabytes of events with themselves is waste.
    structuralSharing: false,
  });
}
