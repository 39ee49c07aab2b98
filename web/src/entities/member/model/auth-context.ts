import { createContext, useContext } from 'react';
import type { AuthState } from '@/shared/session/session';

/** What `useAuth()` gives: the member's identity (all `null` for a visitor) and the log-in actions. */
export interface Auth {
  token: string | null;
  userId: number | null;
  chatUserId: string | null;
  nickname: string | null;
  isLoggedIn: boolean;
  /** Stores a token from the server and logs in; `false` when the token is unusable. */
  login(token: string): boolean;
  /** Tells the server (`POST /api/auth/logout`), then forgets the token even if that failed. */
  logout(): Promise<void>;
}

export const AuthContext = createContext<Auth | null>(null);

/** The logged-in member, if any (inside `<AuthProvider>`). */
export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}

export type { AuthState };
