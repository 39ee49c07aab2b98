import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../model/auth-context';
import { loginPath } from '../model/next';

/** Set by a members-only page that logs the member out on purpose (log-out, deletion). */
let leaving = false;

/**
 * Call just before logging out from a members-only page: it then goes home instead of to
 * the log-in page. (Navigating first would race the log-out: the router's navigation is
 * a transition, the auth state's update is not.)
 */
export function markLoggingOut(): void {
  leaving = true;
}

/** Renders `children` for a member; sends a visitor to `/login?next=<this page>`. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoggedIn } = useAuth();
  const { pathname, search } = useLocation();
  useEffect(() => {
    if (!isLoggedIn) leaving = false;
  }, [isLoggedIn]);
  if (!isLoggedIn) return <Navigate to={leaving ? '/' : loginPath(pathname + search)} replace />;
  return children;
}
