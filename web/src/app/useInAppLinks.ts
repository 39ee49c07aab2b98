import { useEffect } from 'react';
import { useBridge } from '@/shared/bridge/BridgeProvider';
import { appDrawsChrome } from '@/shared/lib/webview';

/**
 * The path a click on a link should open as a new app screen, or `null` when the click is
 * the page's own business: a modified click, a download, another target, another origin,
 * or the same page (a route modal's `?x=routeModalTrue`, a hash).
 */
export function screenPathOfClick(event: MouseEvent, win: Window = window): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return null;
  }
  // `closest` of the clicked node (an element of any realm; text nodes are not targets of clicks).
  const target = event.target as { closest?: (selector: string) => Element | null } | null;
  const link = typeof target?.closest === 'function' ? target.closest('a[href]') : null;
  if (!link || link.tagName !== 'A') return null;
  const anchor = link as HTMLAnchorElement;
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return null;
  const url = new URL(anchor.href, win.location.href);
  if (url.origin !== win.location.origin || url.pathname === win.location.pathname) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Inside the app's web view with the app's chrome (docs/mobile-bridge.md), a link to
 * another page opens a new app screen: the click sends NAVIGATE instead of routing in the
 * page. Listens in the capture phase on the window, before the router's own link handler,
 * which leaves a click whose default was prevented alone.
 */
export function useInAppLinks(): void {
  const { send } = useBridge();
  useEffect(() => {
    if (!appDrawsChrome()) return;
    const onClick = (event: MouseEvent) => {
      const path = screenPathOfClick(event);
      if (path === null) return;
      event.preventDefault();
      send({ type: 'NAVIGATE', payload: { path } });
    };
    window.addEventListener('click', onClick, true);
    return () => window.removeEventListener('click', onClick, true);
  }, [send]);
}
