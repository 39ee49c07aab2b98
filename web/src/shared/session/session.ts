/**
 * The logged-in identity (spec §3): the token kept in `AUTH_TOKEN` and the auth state
 * `{ token, userId, chatUserId }` decoded from it. No React here: the API client uses it
 * to authenticate requests, `AuthProvider` to render.
 *
 * A stored token counts only while it decodes to the expected payload and its `exp` is
 * in the future by the server's clock (spec §5): `exp * 1000 > Date.now() + offset`, the
 * offset measured in `./clock`. An expired token is left in storage (a browser clock
 * running ahead may be corrected by the next answer); a token that does not decode is
 * treated as absent.
 */
import { jwtDecode } from 'jwt-decode';
import { readStorage, removeStorage, subscribeStorage, writeStorage } from '@/shared/lib/storage';
import { serverClockOffset, subscribeClock } from './clock';

/** The decoded token: `{exp, iat, jti, data: {user_id, nickname, chat_user_id}}`. */
export interface TokenClaims {
  exp?: number;
  iat?: number;
  jti?: string;
  data: { user_id: number; nickname: string; chat_user_id: string };
}

/** The auth state of a member (spec §3), plus the nickname and expiry from the token. */
export interface AuthState {
  token: string;
  userId: number;
  chatUserId: string;
  nickname: string;
  /** Expiry, seconds since the epoch (server clock). */
  exp: number;
}

/** The token's claims, or `undefined` when it is corrupt or lacks the member's data. */
export function decodeToken(token: string): TokenClaims | undefined {
  try {
    const c = jwtDecode<Partial<TokenClaims>>(token);
    const d = c.data;
    if (d && typeof d.user_id === 'number' && typeof d.nickname === 'string' && typeof d.chat_user_id === 'string') {
      return c as TokenClaims;
    }
  } catch {
    // corrupt
  }
  return undefined;
}

/** The stored token, valid or not. */
export function storedToken(): string | undefined {
  return readStorage('AUTH_TOKEN');
}

let cachedToken: string | undefined;
let cachedState: AuthState | null = null;

/** The auth state of `token` (decoded once per token), `null` when it does not decode. */
function stateOf(token: string): AuthState | null {
  if (token !== cachedToken) {
    const c = decodeToken(token);
    cachedToken = token;
    cachedState = c
      ? { token, userId: c.data.user_id, chatUserId: c.data.chat_user_id, nickname: c.data.nickname, exp: c.exp ?? NaN }
      : null;
  }
  return cachedState;
}

/**
 * The current auth state, `null` for a visitor. Referentially stable while unchanged. A
 * token without `exp` (NaN) is never unexpired.
 */
export function getAuth(): AuthState | null {
  const token = storedToken();
  return token ? valid(stateOf(token)) : null;
}

/** `state` while its `exp` is in the future by the server's clock: `exp * 1000 > Date.now() + offset`. */
export function valid(state: AuthState | null): AuthState | null {
  return state && state.exp * 1000 > Date.now() + serverClockOffset() ? state : null;
}

/** The token to send as `Authorization: Bearer`, while valid. */
export function currentToken(): string | undefined {
  return getAuth()?.token;
}

/** Stores a token from the server. Returns whether it was usable (decodes, unexpired). */
export function storeToken(token: string): boolean {
  return !!valid(stateOf(token)) && writeStorage('AUTH_TOKEN', token);
}

/** Forgets the token (log-out). */
export function clearToken(): void {
  removeStorage('AUTH_TOKEN');
}

const endedListeners = new Set<() => void>();

/** Logs out because the server refused the token, and tells the "session ended" listeners. */
export function endSession(): void {
  clearToken();
  endedListeners.forEach((l) => l());
}

/** Calls `listener` when the server ended the session (see `./answers`). */
export function onSessionEnded(listener: () => void): () => void {
  endedListeners.add(listener);
  return () => endedListeners.delete(listener);
}

/** Longest `setTimeout` delay; longer ones fire at once. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Calls `listener` when the auth state may have changed: the token was stored or removed
 * (here or in another tab), the clock offset changed, or the token just expired.
 */
export function subscribeAuth(listener: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    clearTimeout(timer);
    const auth = getAuth();
    if (auth) {
      const ms = auth.exp * 1000 - Date.now() - serverClockOffset();
      timer = setTimeout(changed, Math.min(Math.max(ms, 0), MAX_DELAY));
    }
  };
  const changed = () => {
    listener();
    schedule();
  };
  const offStorage = subscribeStorage((key) => {
    if (key === null || key === 'AUTH_TOKEN') changed();
  });
  const offClock = subscribeClock(changed);
  schedule();
  return () => {
    clearTimeout(timer);
    offStorage();
    offClock();
  };
}
