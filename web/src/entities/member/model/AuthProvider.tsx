import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { useToast } from '@/shared/ui/toast';
import { AuthContext, type Auth } from './auth-context';
import { clearToken, getAuth, onSessionEnded, storeToken, storedToken, subscribeAuth } from '@/shared/session/session';

/**
 * Forgets the token, then tells the server (`POST /api/auth/logout`, Bearer). Logged out
 * here whatever the answer. Plain `fetch`: the API client is not on the first page, and
 * there is no answer to read.
 */
async function logout(): Promise<void> {
  const token = storedToken();
  clearToken();
  if (token) await fetch('/api/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => {});
}

/**
 * Provides `useAuth()`: the auth state decoded from `AUTH_TOKEN`, kept in step with
 * storage (this tab and others), the server clock and the token's expiry. Shows one
 * toast when the server ends the session (`401 token_invalid`). Inside the toast provider.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const state = useSyncExternalStore(subscribeAuth, getAuth, getAuth);
  const toast = useToast();
  const { t } = useTranslation();

  useEffect(() => onSessionEnded(() => toast.show(t('auth.sessionEnded'), { tone: 'error' })), [toast, t]);

  const auth = useMemo<Auth>(
    () => ({
      token: state?.token ?? null,
      userId: state?.userId ?? null,
      chatUserId: state?.chatUserId ?? null,
      nickname: state?.nickname ?? null,
      isLoggedIn: state !== null,
      login: storeToken,
      logout,
    }),
    [state],
  );
  return <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>;
}
