/**
 * The recording bridge of the web-view host page. It stands in for react-native-webview:
 * the framed app posts its web → app messages here, and they are kept for display and for
 * end-to-end tests (`window.__MOAT_WEBVIEW_HOST__.messages`).
 */

/** One message the app posted, as received. */
export interface HostMessage {
  /** 1, 2, 3… in arrival order. */
  seq: number;
  /** The action type, or `(invalid)` when the message is not `{type, payload}` JSON. */
  type: string;
  payload: unknown;
  /** The exact string posted. */
  raw: string;
  /** Arrival time, ms since the epoch. */
  at: number;
}

/** A message this page sent into the app. */
export interface SentMessage {
  seq: number;
  data: unknown;
  at: number;
}

export interface HostRecorder {
  /** Every received message, parsed (the same array, appended to). */
  readonly messages: HostMessage[];
  /** Every message sent into the app. */
  readonly sent: SentMessage[];
  record(raw: string): HostMessage;
  recordSent(data: unknown): void;
  clear(): void;
  subscribe(listener: () => void): () => void;
  /** Changes on every record/clear, for `useSyncExternalStore`. */
  version(): number;
}

export function parseHostMessage(raw: string): { type: string; payload: unknown } {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string') {
      const { type, payload } = value as { type: string; payload?: unknown };
      return { type, payload: payload ?? null };
    }
  } catch {
    // fall through
  }
  return { type: '(invalid)', payload: raw };
}

export function createRecorder(now: () => number = Date.now): HostRecorder {
  const messages: HostMessage[] = [];
  const sent: SentMessage[] = [];
  const listeners = new Set<() => void>();
  let version = 0;
  let seq = 0;
  const changed = () => {
    version += 1;
    listeners.forEach((l) => l());
  };
  return {
    messages,
    sent,
    record(raw) {
      const message = { seq: ++seq, ...parseHostMessage(raw), raw, at: now() };
      messages.push(message);
      changed();
      return message;
    },
    recordSent(data) {
      sent.push({ seq: sent.length + 1, data, at: now() });
      changed();
    },
    clear() {
      messages.length = 0;
      sent.length = 0;
      changed();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
  };
}

/** The path to load in the frame: `?path=` when it is a same-origin path, else `/`. */
export function framePath(search: string): string {
  const path = new URLSearchParams(search).get('path') ?? '/';
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') ? path : '/';
}
