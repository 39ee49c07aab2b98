/** The native bridge object that the mobile app injects into its web view. */
export interface ReactNativeWebViewBridge {
  postMessage(message: string): void;
}

/**
 * What the app tells the page before content loads (docs/mobile-bridge.md, "What the app
 * draws"): `chrome: 'native'` when the app draws the header and the tab bar around the web
 * view. Anything else, or no object (an older app), means the page draws its own.
 */
export interface MoatAppInfo {
  chrome?: unknown;
}

declare global {
  interface Window {
    ReactNativeWebView?: ReactNativeWebViewBridge;
    MoatApp?: MoatAppInfo;
  }
}

/** True exactly when the page runs inside the app's web view: the native bridge object exists (spec §2). */
export function isMobileWebView(win: Window = window): boolean {
  return win.ReactNativeWebView != null;
}

/**
 * True when the page runs in the app's web view and the app draws the header and the tab
 * bar (`window.MoatApp.chrome === 'native'`, injected before content loads): the page then
 * draws neither, and links to another screen ask the app for a new screen (NAVIGATE).
 */
export function appDrawsChrome(win: Window = window): boolean {
  if (!isMobileWebView(win)) return false;
  try {
    const info = win.MoatApp;
    return typeof info === 'object' && info !== null && info.chrome === 'native';
  } catch {
    return false;
  }
}
