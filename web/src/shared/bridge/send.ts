import { writeStorageRaw } from '@/shared/lib/storage';
import { isMobileWebView } from '@/shared/lib/webview';
import { encodeBridgeAction, type BridgeAction, type HapticStyle } from './actions';

/** What each action does outside the app's web view. */
export interface BridgeFallbacks {
  navigate(path: string, replace: boolean): void;
  goBack(): void;
  setLoading(visible: boolean): void;
  setDimmer(on: boolean, opacity?: number): void;
  openUrl(url: string): void;
}

/** Sends one web → app action (or runs its browser fallback). */
export type BridgeSend = (action: BridgeAction) => void;

/** `navigator.vibrate` patterns (ms) standing in for the app's haptic styles. */
export const VIBRATION_PATTERNS: Record<HapticStyle, number | number[]> = {
  light: 10,
  medium: 20,
  heavy: 40,
  success: [10, 60, 10],
  warning: [20, 80, 20],
  error: [40, 60, 40, 60, 40],
};

/**
 * Returns `send(action)`. Inside the web view (checked on every call) the action is posted
 * as JSON `{type, payload}` through `ReactNativeWebView.postMessage`; in a browser the
 * fallback for its type runs instead.
 */
export function createBridge(fallbacks: BridgeFallbacks, win: Window = window): BridgeSend {
  return (action) => {
    if (postToApp(action, win)) return;
    switch (action.type) {
      case 'NAVIGATE':
        return fallbacks.navigate(action.payload.path, action.payload.replace ?? false);
      case 'DEEP_LINK':
        return fallbacks.openUrl(action.payload.url);
      case 'GO_BACK':
        return fallbacks.goBack();
      case 'SHARE_IMAGE':
        // Outside the app only: its code (Web Share, the download) loads when first used.
        return void import('./share-image').then((m) => m.shareImage(action.payload, win)).catch(() => undefined);
      case 'LOADING':
        return fallbacks.setLoading(action.payload.visible);
      case 'HAPTIC_FEEDBACK':
        if (typeof win.navigator.vibrate === 'function') win.navigator.vibrate(VIBRATION_PATTERNS[action.payload.style]);
        return;
      case 'DIMMER_ON':
        return fallbacks.setDimmer(true, action.payload.opacity);
      case 'DIMMER_OFF':
        return fallbacks.setDimmer(false);
      case 'LOCAL_STORAGE_SET':
        writeStorageRaw(action.payload.key, action.payload.value);
        return;
      default:
        action satisfies never;
    }
  };
}

/** Posts `action` to the app when the page runs in its web view; returns whether it did. */
export function postToApp(action: BridgeAction, win: Window = window): boolean {
  if (!isMobileWebView(win)) return false;
  win.ReactNativeWebView!.postMessage(encodeBridgeAction(action));
  return true;
}
