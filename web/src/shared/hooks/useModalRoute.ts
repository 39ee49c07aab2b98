import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { MODAL_ROUTE_VALUE } from '@/shared/config/constants';
import { postToApp } from '@/shared/bridge/send';
import { appDrawsChrome } from '@/shared/lib/webview';
import { isAtHistoryRoot } from '@/shared/lib/history';

/** History-state field marking the entry that `open()` pushed, with the modal's name. */
const OPENED_BY = 'modalRouteOpenedBy';

/** An open/close handle on one modal route. */
export interface ModalRoute {
  isOpen: boolean;
  open(): void;
  close(): void;
}

/**
 * Modal route `?<name>=routeModalTrue` (spec §2). The URL is the state, so browser back
 * closes the modal. `open()` pushes the parameter, keeping the other query parameters and
 * the hash. `close()` goes back one step when this hook pushed the current entry;
 * otherwise (e.g. the page was loaded with the parameter) it replaces the URL without it, or,
 * in the app's web view with the app's chrome at the screen's first entry, sends GO_BACK.
 */
export function useModalRoute(name: string): ModalRoute {
  const location = useLocation();
  const navigate = useNavigate();
  const isOpen = new URLSearchParams(location.search).get(name) === MODAL_ROUTE_VALUE;

  const open = useCallback(() => {
    const params = new URLSearchParams(location.search);
    if (params.get(name) === MODAL_ROUTE_VALUE) return;
    params.set(name, MODAL_ROUTE_VALUE);
    const state: unknown = location.state;
    void navigate(
      { pathname: location.pathname, search: `?${params}`, hash: location.hash },
      { state: { ...(typeof state === 'object' ? state : null), [OPENED_BY]: name } },
    );
  }, [location, name, navigate]);

  const close = useCallback(() => {
    const params = new URLSearchParams(location.search);
    if (params.get(name) !== MODAL_ROUTE_VALUE) return;
    if ((location.state as Record<string, unknown> | null)?.[OPENED_BY] === name) {
      void navigate(-1);
      return;
    }
    // In the app, a screen opened on the modal itself (NAVIGATE to `…?<name>=routeModalTrue`)
    // is that modal: closing it at the web view's first entry is "back at the root", so the
    // app closes the screen (GO_BACK).
    if (appDrawsChrome() && isAtHistoryRoot()) {
      postToApp({ type: 'GO_BACK', payload: null });
      return;
    }
    params.delete(name);
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search && `?${search}`, hash: location.hash },
      { replace: true, state: location.state },
    );
  }, [location, name, navigate]);

  return { isOpen, open, close };
}
