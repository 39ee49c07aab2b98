import { writeStorageRaw } from '@/shared/lib/storage';
import { isMobileWebView } from '@/shared/lib/webview';
import { encodeBridgeAction, type BridgeAction, type BridgePayloads, type HapticStyle } from './actions';

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
        return void shareImage(action.payload, win);
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

/** Decodes a base64 `data:` URL into a File. */
function dataUrlToFile(dataUrl: string, fileName: string): File {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('not a base64 data URL');
  const binary = atob(match[2]!);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new File([bytes], fileName, { type: match[1] ?? 'application/octet-stream' });
}

/**
 * Web Share API with the image as a file when the browser can share files; otherwise a
 * download of the data URL. A share the user cancels is not retried as a download. Never rejects.
 */
async function shareImage({ dataUrl, fileName, title, text }: BridgePayloads['SHARE_IMAGE'], win: Window): Promise<void> {
  const nav = win.navigator;
  try {
    const file = dataUrlToFile(dataUrl, fileName);
    if (typeof nav.canShare === 'function' && nav.canShare({ files: [file] })) {
      await nav.share({ files: [file], title, text });
      return;
    }
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
  }
  const link = win.document.createElement('a');
  link.href = dataUrl;
  link.download = fileName;
  link.rel = 'noopener';
  win.document.body.append(link);
  link.click();
  link.remove();
}
