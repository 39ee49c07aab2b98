/**
 * Session recording and error reporting (spec §1, §4, §8), as the rest of the app sees it.
 * This module is on the first page, so it stays tiny: the recorder itself (`./load`) is
 * imported only once the page has loaded and its largest paint has settled (no new
 * largest-contentful-paint candidate for `RECORDER_LCP_QUIET_MS`), at the visitor's first
 * input, when the tab is hidden, or `RECORDER_START_MAX_DELAY_MS` after `load`, whichever
 * comes first, and then when the browser is idle. The home page's largest paint comes
 * after `load` (its data arrives from API requests), and loading the recorder (its chunk,
 * then rrweb's full snapshot of the DOM) in that window delayed it by about 10 %.
 * The cost: the first moments of a visit (the LCP plus the quiet period: about 3.5 s on
 * a phone-like 4× slower CPU, less at a first tap) are not in the replay, which opens on
 * the page as it is when recording starts (its full snapshot); errors from before then
 * are kept and sent (`catchEarlyErrors`). Calls made before the recorder is there wait
 * for it, in order.
 */
import type { MemberIdentity } from './identity';
import { setErrorReporter } from '@/shared/lib/report-error';
import type { ErrorDetails, Feedback, Recorder } from './recorder';

export type { Feedback, MemberIdentity };

let settle: (recorder: Recorder | undefined) => void;
/** The started recorder; `undefined` when nothing is recorded (recording off, a bot, a failed load). */
const recorder = new Promise<Recorder | undefined>((resolve) => (settle = resolve));

/**
 * How long the page must go without a new largest-contentful-paint candidate (counted
 * from the first one) before its largest paint counts as settled and the recorder is
 * loaded. Candidates come with each bigger paint (the wordmark, the title, then content
 * as its API data arrives), 0.3–0.8 s apart on a phone-like 4× slower CPU
 * (bench/recording.mjs); 1 s covers those gaps with a margin while keeping the
 * unrecorded start of a visit short. Without LCP entries, the wait after `load`.
 */
export const RECORDER_LCP_QUIET_MS = 1000;

/**
 * The longest the recorder waits after `load` for the largest paint to settle, so a page
 * that keeps producing bigger paints (a slow feed, a carousel) or none (no text or
 * image) is still recorded; far above the home page's LCP on a phone-like CPU (2–3 s),
 * short enough to record most of a brief visit.
 */
export const RECORDER_START_MAX_DELAY_MS = 10_000;

/**
 * Starts recording once the page has loaded and its largest paint has settled (see the
 * module's comment), when the browser is next idle. Once per page;
 * `startRecording(false)` turns recording off instead (the dev server has no ingest).
 */
export function startRecording(enabled = true): void {
  // What error boundaries catch (shared/lib/report-error) comes here from now on.
  setErrorReporter(reportError);
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
  const afterLoad = () => {
    const lcp = 'largest-contentful-paint';
    // Input ends LCP (and is worth recording); a hidden tab may never come back.
    const events = ['pointerdown', 'keydown', 'visibilitychange'];
    const observer = self.PerformanceObserver?.supportedEntryTypes?.includes(lcp) ? new PerformanceObserver(() => wait()) : undefined;
    let quiet: ReturnType<typeof setTimeout> | undefined;
    // Once only, even if a callback was already queued when everything is cleared.
    let started = false;
    const start = (event?: Event) => {
      if (started || (event?.type === events[2] && !document.hidden)) return;
      started = true;
      observer?.disconnect();
      clearTimeout(quiet);
      clearTimeout(latest);
      for (const type of events) removeEventListener(type, start, true);
      whenIdle();
    };
    const wait = () => {
      clearTimeout(quiet);
      quiet = setTimeout(start, RECORDER_LCP_QUIET_MS);
    };
    const latest = setTimeout(start, RECORDER_START_MAX_DELAY_MS);
    for (const type of events) addEventListener(type, start, { capture: true, passive: true });
    observer?.observe({ type: lcp, buffered: true });
    // The quiet wait starts at the first candidate: this app paints its content after
    // `load`. Older Safari has no LCP entries, and a tab hidden at load gets none: the
    // wait starts at `load` then.
    if (!observer || document.hidden) wait();
  };
  if (document.readyState === 'complete') afterLoad();
  else addEventListener('load', afterLoad, { once: true });
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

/**
 * Attaches feedback to the recorded session; when nothing is recorded (recording off, a
 * browser the recorder skips, a failed load), sends it straight to the server's own
 * store (`POST /api/feedback`). Resolves whether it went.
 */
export function sendFeedback(feedback: Feedback): Promise<boolean> {
  return recorder.then((r) =>
    r?.feedback(feedback) ? true : import('./direct-feedback').then((m) => m.postFeedback(feedback)),
  );
}
