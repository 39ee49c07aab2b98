/**
 * Keeps dropped errors (spec §8) away from the recorder's own error capture.
 *
 * The pinned client (`highlight.run` 9.20.0) has no `beforeSend` or ignore-list option:
 * it reports uncaught errors through `window.onerror` and unhandled rejections through
 * `window.onunhandledrejection`, which it assigns itself, and filters only its own short
 * built-in list. Those handlers are ordinary non-capturing listeners on the window, so a
 * capturing listener on the window runs before them whatever the order of registration;
 * for an error the drop list matches, it stops the event there. The browser still logs
 * the error to the console (that depends on `preventDefault`, which is not called).
 * Errors of resources (`<img>`, `<script>`) reach the window only while capturing, as
 * plain events with the element as target, and are left alone.
 */
import { shouldDropError, type ReportedError } from './drop-list';

/** Turns a thrown value (or a rejection reason) into what the drop list reads. */
export function describeError(value: unknown, fallbackMessage = ''): Omit<ReportedError, 'userAgent'> {
  if (value instanceof Error || (typeof value === 'object' && value !== null && 'message' in value)) {
    const { name, message, stack } = value as { name?: unknown; message?: unknown; stack?: unknown };
    const text = typeof message === 'string' ? message : fallbackMessage;
    return {
      message: typeof name === 'string' && name && !text.startsWith(name) ? `${name}: ${text}` : text,
      stack: typeof stack === 'string' ? stack : undefined,
    };
  }
  if (value === undefined || value === null) return { message: fallbackMessage };
  return { message: typeof value === 'string' ? value : safeStringify(value) };
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The error an `error` event reports, for the drop list. */
function fromErrorEvent(event: ErrorEvent): Omit<ReportedError, 'userAgent'> {
  const described = describeError(event.error, event.message);
  const stack = [described.stack, event.filename].filter(Boolean).join('\n') || undefined;
  return { message: [event.message, described.message].filter(Boolean).join('\n'), stack };
}

/**
 * Stops dropped uncaught errors and unhandled rejections before any other window
 * listener (the recorder's) sees them. Returns the uninstaller.
 */
export function installErrorFilter(win: Window, userAgent: string): () => void {
  const onError = (event: Event) => {
    // Resource errors are plain events targeted at their element.
    if (!(event instanceof ErrorEvent) || event.target instanceof Node) return;
    if (shouldDropError({ ...fromErrorEvent(event), userAgent })) event.stopImmediatePropagation();
  };
  const onRejection = (event: Event) => {
    const { reason } = event as PromiseRejectionEvent;
    if (shouldDropError({ ...describeError(reason), userAgent })) event.stopImmediatePropagation();
  };
  win.addEventListener('error', onError, true);
  win.addEventListener('unhandledrejection', onRejection, true);
  return () => {
    win.removeEventListener('error', onError, true);
    win.removeEventListener('unhandledrejection', onRejection, true);
  };
}
