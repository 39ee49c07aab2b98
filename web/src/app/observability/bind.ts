/**
 * The member's own binding of the recorded session (docs/observability.md, "Whose
 * session"). The recording client's `identify` reaches the server's ingest without the
 * member's token, so the server keeps it as a claim only; this request goes through the
 * API client, which sends the logged-in member's token, and the server labels the
 * session with the member the token names. A session already bound to another member
 * is refused (`409 session_bound`) and stays theirs.
 */
import { apiRequest } from '@/shared/api/client';

/** The API path that binds the session `sessionSecureId` to the caller. */
export function bindingPath(sessionSecureId: string): `/${string}` {
  return `/api/observe/sessions/${encodeURIComponent(sessionSecureId)}/member`;
}

/** Binds the recorded session to the logged-in member; rejects with an `ApiError`. */
export function bindRecordedSession(sessionSecureId: string): Promise<void> {
  return apiRequest<void>(bindingPath(sessionSecureId), { method: 'PUT' });
}
