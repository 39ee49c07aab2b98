/**
 * The session recorder's states (spec §4) as a pure state machine. `transition` decides;
 * the driver (`./recorder`) carries out the effects on the recording client and feeds
 * back what happened. No timers, no DOM, no client here.
 *
 * - NotRecording → Initializing on start; → Recording only once initialisation succeeded
 *   (a failed one returns to NotRecording).
 * - A stop returns to NotRecording. An explicit stop is manual: later visibility events
 *   are ignored until the next explicit start.
 * - With background recording disabled, a hidden tab stops recording and a visible one
 *   re-initialises it. With it enabled, visibility changes nothing.
 * - A new session (another member logged in, or the member logged out) restarts the
 *   recording on a fresh session, or marks the next initialisation to do so.
 * - Bots and webdriver browsers never record, except under the test runner
 *   (`window.Cypress`).
 */

export type RecordingStatus = 'NotRecording' | 'Initializing' | 'Recording';

export interface RecordingState {
  status: RecordingStatus;
  /** Stopped by an explicit stop: visibility events are ignored until an explicit start. */
  manualStopped: boolean;
  /** The tab is hidden (tracked only when background recording is disabled). */
  hidden: boolean;
  /** The next initialisation must start a new session. */
  newSessionPending: boolean;
}

export type RecordingEvent =
  /** Page load, or an explicit start after an explicit stop. */
  | { type: 'start' }
  /** The client reports that it records. */
  | { type: 'initSucceeded' }
  /** The client gave up initialising. */
  | { type: 'initFailed' }
  /** Explicit (manual) stop. */
  | { type: 'stop' }
  | { type: 'hidden' }
  | { type: 'visible' }
  /** The identified member changed: what follows belongs to a new session. */
  | { type: 'newSession' };

/** What the driver must do to the client. */
export type RecordingEffect = { type: 'init'; newSession: boolean } | { type: 'stop' };

export interface RecordingConfig {
  /** Keep recording while the tab is hidden. */
  backgroundRecording: boolean;
  /** This browser may be recorded at all (see {@link mayRecord}). */
  eligible: boolean;
}

export interface Transition {
  state: RecordingState;
  effects: RecordingEffect[];
}

export const INITIAL_RECORDING_STATE: RecordingState = {
  status: 'NotRecording',
  manualStopped: false,
  hidden: false,
  newSessionPending: false,
};

/** What decides whether a browser is recorded. */
export interface BrowserTraits {
  /** `navigator.webdriver`: an automated browser. */
  webdriver: boolean;
  /** `window.Cypress` exists: the test runner, which must record. */
  testRunner: boolean;
  /** The user agent is a crawler (`isCrawler`). */
  crawler: boolean;
}

/**
 * Bots and webdriver browsers do not record, except under the test runner (spec §4). As
 * in the client itself, the test-runner exception is for webdriver only: a crawler's user
 * agent never records.
 */
export function mayRecord({ webdriver, testRunner, crawler }: BrowserTraits): boolean {
  return !crawler && (!webdriver || testRunner);
}

const same = (state: RecordingState): Transition => ({ state, effects: [] });

/** Starts initialising, taking up a pending new session. */
function initialise(state: RecordingState): Transition {
  return {
    state: { ...state, status: 'Initializing', newSessionPending: false },
    effects: [{ type: 'init', newSession: state.newSessionPending }],
  };
}

function stop(state: RecordingState): Transition {
  return state.status === 'NotRecording'
    ? same(state)
    : { state: { ...state, status: 'NotRecording' }, effects: [{ type: 'stop' }] };
}

/** The next state of the recorder, and what to do to the client to get there. */
export function transition(state: RecordingState, event: RecordingEvent, config: RecordingConfig): Transition {
  if (!config.eligible) return same(state);
  const waitingForVisibility = state.hidden && !config.backgroundRecording;

  switch (event.type) {
    case 'start': {
      const next = { ...state, manualStopped: false };
      return next.status === 'NotRecording' && !waitingForVisibility ? initialise(next) : same(next);
    }
    case 'initSucceeded':
      if (state.status === 'Initializing') return same({ ...state, status: 'Recording' });
      // The client came up after we stopped meanwhile (hidden, or stopped while initialising).
      if (state.status === 'NotRecording') return { state, effects: [{ type: 'stop' }] };
      return same(state);
    case 'initFailed':
      return state.status === 'Initializing' ? same({ ...state, status: 'NotRecording' }) : same(state);
    case 'stop':
      return stop({ ...state, manualStopped: true });
    case 'hidden':
      if (state.manualStopped || config.backgroundRecording) return same(state);
      return stop({ ...state, hidden: true });
    case 'visible': {
      if (state.manualStopped || config.backgroundRecording) return same(state);
      const next = { ...state, hidden: false };
      return next.status === 'NotRecording' ? initialise(next) : same(next);
    }
    case 'newSession':
      if (state.status === 'NotRecording') return same({ ...state, newSessionPending: true });
      return initialise({ ...state, newSessionPending: true });
  }
}
