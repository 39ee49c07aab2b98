/**
 * Development/test only: when the app is framed by the web-view host page
 * (`/webview-host.html`), borrow the host's recording bridge as
 * `window.ReactNativeWebView`, exactly as react-native-webview injects its bridge. This
 * module must be evaluated before anything reads `isMobileWebView()`, so `main.tsx`
 * imports it first. Outside such a frame it does nothing.
 */
import type { ReactNativeWebViewBridge } from '@/shared/lib/webview';

/** What the host page puts on its window (see src/webview-host/main.tsx). */
export interface WebViewHostHandle {
  bridgeFor(win: Window): ReactNativeWebViewBridge;
}

declare global {
  interface Window {
    __MOAT_WEBVIEW_HOST__?: WebViewHostHandle;
  }
}

/** Installs the host's bridge when framed by the host page; returns whether it did. */
export function installWebViewHostBridge(win: Window = window): boolean {
  if (win.ReactNativeWebView || win.parent === win) return false;
  try {
    // Reading a cross-origin parent's property throws; that is "not our host".
    const host = win.parent.__MOAT_WEBVIEW_HOST__;
    if (!host || typeof host.bridgeFor !== 'function') return false;
    win.ReactNativeWebView = host.bridgeFor(win);
    return true;
  } catch {
    return false;
  }
}

installWebViewHostBridge();
