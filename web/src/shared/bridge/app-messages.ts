import { FOCUS_MESSAGE_FALSE, FOCUS_MESSAGE_TRUE } from '@/shared/config/constants';

/** An app → web message, parsed. */
export type AppMessage =
  | { type: 'FOCUS'; focused: boolean }
  | { type: 'LOCAL_STORAGE_SET'; payload: { key: string; value: string | null } };

function parseFocus(text: string): AppMessage | null {
  if (text === FOCUS_MESSAGE_TRUE) return { type: 'FOCUS', focused: true };
  if (text === FOCUS_MESSAGE_FALSE) return { type: 'FOCUS', focused: false };
  return null;
}

function parseObject(data: unknown): AppMessage | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, payload } = data as { type?: unknown; payload?: unknown };
  if (type !== 'LOCAL_STORAGE_SET' || typeof payload !== 'object' || payload === null) return null;
  const { key, value } = payload as { key?: unknown; value?: unknown };
  if (typeof key !== 'string' || (typeof value !== 'string' && value !== null)) return null;
  return { type, payload: { key, value } };
}

/**
 * Parses a `message` event's data. Accepts the focus strings raw (`IS_FOCUSED_FROM_APP=TRUE`)
 * or JSON-encoded (`"IS_FOCUSED_FROM_APP=TRUE"` with quotes), and
 * `{type:'LOCAL_STORAGE_SET', payload:{key, value}}` as an object or its JSON string.
 * Anything else is `null`; never throws.
 */
export function parseAppMessage(data: unknown): AppMessage | null {
  if (typeof data !== 'string') return parseObject(data);
  const focus = parseFocus(data);
  if (focus) return focus;
  let decoded: unknown;
  try {
    decoded = JSON.parse(data);
  } catch {
    return null;
  }
  return typeof decoded === 'string' ? parseFocus(decoded) : parseObject(decoded);
}

/**
 * Calls `handler` for every app → web message. Only events whose origin is `''` (injected by
 * the native app) or this page's origin are considered; anything else, and any data that is
 * not an app message, is ignored silently (native bridge messages are never errors, spec §8).
 * Listens in the capture phase on the window, so messages dispatched on `document`
 * (react-native-webview on Android) are seen too. Returns the unsubscribe function.
 */
export function listenAppMessages(handler: (message: AppMessage) => void, win: Window = window): () => void {
  const onMessage = (event: Event) => {
    const { origin, data } = event as MessageEvent;
    if (origin !== '' && origin !== win.location.origin) return;
    const message = parseAppMessage(data);
    if (message) handler(message);
  };
  win.addEventListener('message', onMessage, true);
  return () => win.removeEventListener('message', onMessage, true);
}
