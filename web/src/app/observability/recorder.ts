/**
 * Drives the recording client (`H` of `highlight.run`) through the states of
 * `./recording-state`: starts it, stops and restarts it on visibility changes, starts
 * new sessions when the member changes, identifies members (and binds their sessions to
 * them with their token, `./bind`), and reports errors and feedback. Every error goes through the drop list first: the app's own reports here,
 * the client's capture of uncaught errors through `./error-filter`.
 *
 * The client is passed in, so this module does not load it (tests use a fake).
 */
import type { H } from 'highlight.run';
import { RECORDER_BACKGROUND_RECORDING, RECORDER_RETRY, recorderRetryDelayMs } from '@/shared/config/constants';
import { isCrawler, shouldDropError } from './drop-list';
import { describeError, installErrorFilter } from './error-filter';
import { identityChange, type MemberIdentity } from './identity';
import { RECORDER_PROJECT_ID, highlightOptions } from './options';
import {
  INITIAL_RECORDING_STATE,
  mayRecord,
  transition,
  type RecordingEffect,
  type RecordingEvent,
  type RecordingState,
} from './recording-state';

/** The part of the client's public interface (`H`) the recorder uses. */
export type RecordingClient = Pick<
  typeof H,
  'init' | 'start' | 'stop' | 'identify' | 'getSessionDetails' | 'consume' | 'addSessionFeedback' | 'getRecordingState'
>;

/** How often the client is asked whether it records yet, while it initialises. */
export const RECORDER_STATE_POLL_MS = 500;

/**
 * After this long without recording, an initialisation counts as failed: the client
 * retries `initializeSession` up to 10 times, 1000 + 500 × 2^attempt ms apart (spec §7),
 * so by then it has given up; one more minute covers the requests themselves.
 */
export const RECORDER_INIT_GIVE_UP_MS =
  Array.from({ length: RECORDER_RETRY.attempts }, (_, attempt) => recorderRetryDelayMs(attempt)).reduce((a, b) => a + b, 0) +
  60_000;

/** A member's feedback on the session (spec §3). */
export interface Feedback {
  verbatim: string;
  userName?: string | undefined;
  userEmail?: string | undefined;
}

/** Where a reported error comes from. */
export interface ErrorDetails {
  /** React's component stack, for errors caught by an error boundary. */
  componentStack?: string | undefined;
}

export interface Recorder {
  /** Starts recording (page load), or again after {@link Recorder.stop}. */
  start(): void;
  /** Stops recording until the next `start()`; visibility changes are ignored meanwhile. */
  stop(): void;
  /** The logged-in member, or `null` for a visitor. An empty id is rejected with a warning. */
  setIdentity(identity: MemberIdentity | null): void;
  /** Reports an error caught by the app (an error boundary), unless the drop list matches it. */
  report(error: unknown, details?: ErrorDetails): void;
  /** Attaches feedback to the session; `false` when nothing is being recorded. */
  feedback(feedback: Feedback): boolean;
  /** The current recording state. */
  state(): RecordingState;
  /** Removes the recorder's listeners and timers (the client itself keeps running). */
  dispose(): void;
}

export interface RecorderOptions {
  client: RecordingClient;
  win?: Window;
  /** Keep recording while the tab is hidden; `RECORDER_BACKGROUND_RECORDING` by default. */
  backgroundRecording?: boolean;
  /**
   * Binds a recorded session (its secure id) to the logged-in member with the member's
   * token (`./bind`). The client's own `identify` reaches the server unauthenticated, as
   * a claim; this binding is what the server shows as the session's member. Without it,
   * sessions carry the claim only.
   */
  bindSession?: (sessionSecureId: string) => Promise<void>;
}

/** Whether this browser may be recorded: not a crawler, not webdriver unless under the test runner. */
export function browserMayRecord(win: Window): boolean {
  return mayRecord({
    webdriver: win.navigator.webdriver === true,
    testRunner: 'Cypress' in win,
    crawler: isCrawler(win.navigator.userAgent),
  });
}

export function createRecorder({
  client,
  win = window,
  backgroundRecording = RECORDER_BACKGROUND_RECORDING,
  bindSession,
}: RecorderOptions): Recorder {
  const { userAgent } = win.navigator;
  const config = { backgroundRecording, eligible: browserMayRecord(win) };
  let state: RecordingState = INITIAL_RECORDING_STATE;
  let initialised = false;
  let poll: ReturnType<typeof setTimeout> | undefined;
  /** The member the current session was last identified as. */
  let sessionIdentity: MemberIdentity | null = null;
  /** An identification waiting for the session to record (the client would send it to the previous one). */
  let pendingIdentity: MemberIdentity | null = null;
  const cleanups: (() => void)[] = [];

  const identifyNow = (identity: MemberIdentity) => {
    client.identify(identity.id, { nickname: identity.nickname });
    if (!bindSession) return;
    // The session the client records now (a new one after a change of member).
    client
      .getSessionDetails()
      .then(({ sessionSecureID }) => bindSession(sessionSecureID))
      .catch(() => {
        // Offline, or the session is not stored: it stays unbound, with the claim only.
      });
  };

  /** Asks the client, until it records or the wait runs out, whether initialisation worked. */
  const watchInitialisation = () => {
    clearTimeout(poll);
    const deadline = Date.now() + RECORDER_INIT_GIVE_UP_MS;
    const check = () => {
      if (client.getRecordingState() === 'Recording') dispatch({ type: 'initSucceeded' });
      else if (Date.now() >= deadline) dispatch({ type: 'initFailed' });
      else poll = setTimeout(check, RECORDER_STATE_POLL_MS);
    };
    poll = setTimeout(check, RECORDER_STATE_POLL_MS);
  };

  const run = (effect: RecordingEffect) => {
    if (effect.type === 'stop') {
      client.stop({ silent: true });
      return;
    }
    client.start({ silent: true, forceNew: effect.newSession });
    watchInitialisation();
  };

  function dispatch(event: RecordingEvent): void {
    const next = transition(state, event, config);
    state = next.state;
    next.effects.forEach(run);
    if (state.status === 'Recording' && pendingIdentity) {
      identifyNow(pendingIdentity);
      pendingIdentity = null;
    }
  }

  const init = () => {
    if (initialised || !config.eligible) return;
    initialised = true;
    cleanups.push(installErrorFilter(win, userAgent));
    client.init(RECORDER_PROJECT_ID, highlightOptions(win.location));
    if (!backgroundRecording) {
      const onVisibility = () => dispatch({ type: win.document.hidden ? 'hidden' : 'visible' });
      win.document.addEventListener('visibilitychange', onVisibility);
      cleanups.push(() => win.document.removeEventListener('visibilitychange', onVisibility));
      if (win.document.hidden) dispatch({ type: 'hidden' });
    }
  };

  return {
    start() {
      init();
      dispatch({ type: 'start' });
    },
    stop() {
      dispatch({ type: 'stop' });
    },
    setIdentity(next) {
      if (next && !next.id) {
        console.warn('Session recorder: identify() needs a non-empty user identifier; ignored.', next);
        return;
      }
      const change = identityChange(sessionIdentity, next);
      if (change.identify) sessionIdentity = change.identify;
      if (!config.eligible) return;
      if (change.newSession) dispatch({ type: 'newSession' });
      if (!change.identify) return;
      if (state.status === 'Recording') identifyNow(change.identify);
      else pendingIdentity = change.identify;
    },
    report(error, details = {}) {
      if (!config.eligible) return;
      const described = describeError(error);
      if (shouldDropError({ ...described, userAgent })) return;
      const thrown = error instanceof Error ? error : new Error(described.message);
      const { componentStack } = details;
      client.consume(thrown, {
        type: componentStack === undefined ? 'custom' : 'React.ErrorBoundary',
        ...(componentStack === undefined ? {} : { payload: { componentStack } }),
      });
    },
    feedback({ verbatim, userName, userEmail }) {
      if (!config.eligible || state.status === 'NotRecording') return false;
      client.addSessionFeedback({
        verbatim,
        userName: userName || undefined,
        userEmail: userEmail || undefined,
        // When the member sent it, not when the client gets round to uploading it.
        timestampOverride: new Date().toISOString(),
      });
      return true;
    },
    state: () => state,
    dispose() {
      clearTimeout(poll);
      cleanups.splice(0).forEach((cleanup) => cleanup());
    },
  };
}
