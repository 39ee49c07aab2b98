/**
 * Development/test only: when the app is framed by the web-view host page
 * (`/webview-host.html`), borrow the host's recording bridge as
 * `window.ReactNativeWebView`, and the host's `window.MoatApp` flags, exactly as
 * react-native-webview injects them before content loads. This module must be evaluated
 * before anything reads `isMobileWebView()`, so `main.tsx` imports it first. Outside such a
 * frame it does nothing.
 *
 * The host page also drives the app's bridge from its own debug buttons: once the app has
 * rendered, `HostAttach` (`./HostAttach.tsx`, loaded only in a frame) hands the host the
 * app's `send`, so a button of the host runs an action inside the framed app (posted to
 * the host in app mode, the browser fallback in browser mode).
 */
import type { BridgeSend } from '@/shared/bridge/send';
import type { MoatAppInfo, ReactNativeWebViewBridge } from '@/shared/lib/webview';

/** What the framed app gives the host page. */
export interface HostedApp {
  send: BridgeSend;
}

/** What the host page puts on its window (see src/webview-host/main.tsx). */
export interface WebViewHostHandle {
  /** The recording bridge for this frame; `null` in browser mode (no bridge, the fallbacks run). */
  bridgeFor(win: Window): ReactNativeWebViewBridge | null;
  /** The app's flags for this frame (`window.MoatApp`); `null` for an app that sets none. */
  appInfoFor?(win: Window): MoatAppInfo | null;
  /** The framed app, once rendered; returns the detach function. */
  attach?(win: Window, app: HostedApp): () => void;
}

declare global {
  interface Window {
    __MOAT_WEBVIEW_HOST__?: WebViewHostHandle;
  }
}

/** The host page framing this window, if any. */
export function hostOf(win: Window): WebViewHostHandle | null {
  if (win.parent === win) return null;
  try {
    // Reading a cross-origin parent's property throws; that is "not our host".
    const host = win.parent.__MOAT_WEBVIEW_HOST__;
    return host && typeof host.bridgeFor === 'function' ? host : null;
  } catch {
    return null;
  }
}

/** Installs the host's bridge when framed by the host page; returns whether it did. */
export function installWebViewHostBridge(win: Window = window): boolean {
  if (win.ReactNativeWebView) return false;
  const host = hostOf(win);
  if (!host) return false;
  const bridge = host.bridgeFor(win);
  if (bridge) {
    win.ReactNativeWebView = bridge;
    win.MoatApp = host.appInfoFor?.(win) ?? undefined;
  }
  return !!bridge;
}

installWebViewHostBridge();
