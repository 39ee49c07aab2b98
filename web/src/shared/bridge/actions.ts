/**
 * Web → app actions of the mobile bridge (spec §7), posted as JSON `{type, payload}`
 * through `window.ReactNativeWebView.postMessage`. The contract is documented in
 * docs/mobile-bridge.md.
 */

/** Haptic feedback styles the app maps to its platform's feedback generators. */
export type HapticStyle = 'light' | 'medium' | 'heavy' | 'success' | 'warning' | 'error';

/** Payload of each action type. */
export interface BridgePayloads {
  /** Show an in-app screen for this web path (`/stocks/005930`). */
  NAVIGATE: { path: string; replace?: boolean };
  /** Open a URL outside the web view (another app, the system browser, a store page). */
  DEEP_LINK: { url: string };
  /** Go back one step (the app pops its screen when the web view cannot go back). */
  GO_BACK: null;
  /** Share an image through the system share sheet. */
  SHARE_IMAGE: { dataUrl: string; fileName: string; title?: string; text?: string };
  /** Show or hide the app's native loading indicator. */
  LOADING: { visible: boolean };
  /** Play a haptic feedback. */
  HAPTIC_FEEDBACK: { style: HapticStyle };
  /** Dim the native chrome around the web view (e.g. while a web modal is open); opacity 0–1. */
  DIMMER_ON: { opacity?: number };
  /** Remove the dimmer. */
  DIMMER_OFF: null;
  /** Mirror a storage value into the app's storage; `null` removes it. */
  LOCAL_STORAGE_SET: { key: string; value: string | null };
}

/** Every web → app action type. */
export const BRIDGE_ACTION_TYPES = [
  'NAVIGATE',
  'DEEP_LINK',
  'GO_BACK',
  'SHARE_IMAGE',
  'LOADING',
  'HAPTIC_FEEDBACK',
  'DIMMER_ON',
  'DIMMER_OFF',
  'LOCAL_STORAGE_SET',
] as const satisfies readonly (keyof BridgePayloads)[];

export type BridgeActionType = (typeof BRIDGE_ACTION_TYPES)[number];

/** One web → app action: the discriminated union over `type`. */
export type BridgeAction = { [T in BridgeActionType]: { type: T; payload: BridgePayloads[T] } }[BridgeActionType];

/** The exact string posted to the app: `{"type":…,"payload":…}`. */
export function encodeBridgeAction(action: BridgeAction): string {
  return JSON.stringify({ type: action.type, payload: action.payload });
}
