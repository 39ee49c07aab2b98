/**
 * Session recording and error reporting (spec §1, §4, §8), as the rest of the app sees it.
 * This module is on the first page, so it stays tiny: the recorder itself (`./load`) is
 * imported once the page has loaded and the browser is idle, so it never delays the
 * first paint. Calls made before then wait for it, in order.
 */
import type { MemberIdentity } from './identity';
import type { ErrorDetails, Feedback, Recorder } from './recorder';

export type { Feedback, MemberIdentity };

let settle: (recorder: Recorder | undefined) => void;
/** The started recorder; `undefined` when nothing is recorded (recording off, a bot, a failed load). */
const recorder = new Promise<Recorder | undefined>((resolve) => (settle = resolve));

/**
 * Starts recording after the page's `load` event, when the browser is next idle. Once
 * per page; `startRecording(false)` turns recording off instead (the dev server has no ingest).
 */
export function startRecording(enabled = true): void {
  if (!enabled) return settle(undefined);
  const stopEarly = catchEarlyErrors();
  const run = (): void => {
    // Offline, the chunk cannot load: wait to be online again rather than fail.
    if (navigator.onLine === false) return void addEventListener('online', run, { once: true });
    load();
  };
  const load = () =>
    void import('./load')
      .then((m) => m.loadRecorder())
      .then(
        (r) => {
          stopEarly(r);
          settle(r);
        },
        () => {
          stopEarly(undefined);
          settle(undefined);
        },
      );
  // Safari before 18.2 has no requestIdleCallback.
  const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 0));
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}

/** Errors kept from before the recorder has loaded, at most. */
export const EARLY_ERRORS_MAX = 20;

/**
 * Keeps the page's uncaught errors and unhandled rejections from before the recorder
 * has loaded (it loads after the page, so an error during start-up would otherwise be
 * lost), and hands them to the recorder once it is there; `report` applies the drop
 * list as for any other error.
 */
function catchEarlyErrors(): (recorder: Recorder | undefined) => void {
  const early: unknown[] = [];
  const keep = (error: unknown) => {
    if (early.length < EARLY_ERRORS_MAX) early.push(error);
  };
  const onError = (event: Event) => {
    // Resource errors (an <img>, a <script>) are plain events targeted at their element.
    if (!(event instanceof ErrorEvent) || event.target instanceof Node) return;
    keep(event.error ?? new Error(event.message));
  };
  const onRejection = (event: Event) => keep((event as PromiseRejectionEvent).reason);
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
  return (recorder) => {
    removeEventListener('error', onError);
    removeEventListener('unhandledrejection', onRejection);
    for (const error of early.splice(0)) recorder?.report(error);
  };
}

/** The logged-in member (`null`: a visitor), for the recording's identity. */
export function setRecorderIdentity(identity: MemberIdentity | null): void {
  void recorder.then((r) => r?.setIdentity(identity));
}

/** Reports an error the app caught (an error boundary), unless it is noise (spec §8). */
export function reportError(error: unknown, details?: ErrorDetails): void {
  void recorder.then((r) => r?.report(error, details));
}

/** Attaches feedback to the recorded session; resolves `false` when nothing is recorded. */
export function sendFeedback(feedback: Feedback): Promise<boolean> {
  return recorder.then((r) => !!r?.feedback(feedback));
}
