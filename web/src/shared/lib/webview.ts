/** The native bridge object that the mobile app injects into its web view. */
export interface ReactNativeWebViewBridge {
  postMessage(message: string): void;
}

declare global {
  interface Window {
    ReactNativeWebView?: ReactNativeWebViewBridge;
  }
}

/** True exactly when the page runs inside the app's web view: the native bridge object exists (spec §2). */
export function isMobileWebView(win: Window = window): boolean {
  return win.ReactNativeWebView != null;
}
