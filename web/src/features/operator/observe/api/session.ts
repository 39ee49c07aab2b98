/** `GET /api/operator/observe/sessions/{secure_id}` and `…/replay`. */
import { queryOptions } from '@tanstack/react-query';
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

/** The rrweb events of the session, as recorded. Large and unchanging once the visit ended. */
export function replayQueryOptions(secureId: string) {
  return queryOptions({
    queryKey: observeKeys.replay(secureId),
    queryFn: ({ signal }) => apiRequest<ObsReplay>(`${sessionPath(secureId)}/replay`, { signal }),
    staleTime: 5 * 60_000,
    // Not kept once the page is left: a long session's events take many megabytes.
    gcTime: 0,
  });
}
