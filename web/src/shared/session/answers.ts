/**
 * What API answers tell the session; used by the API client only (not on the first page).
 */
import { endSession, storeToken, storedToken } from './session';

/** A renewed token (`X-Moat-Token`) for a request sent with `sent`: kept if `sent` is still ours. */
export function renewToken(sent: string, renewed: string): void {
  if (storedToken() === sent && renewed !== sent) storeToken(renewed);
}

/**
 * The server answered `401 token_invalid` to a request sent with `sent`. If that is still
 * the stored token, the member is logged out and the "session ended" listeners run (one
 * toast); later answers for the same token find it gone, so this happens once however
 * many requests were in flight.
 */
export function tokenRejected(sent: string): void {
  if (storedToken() === sent) endSession();
}
