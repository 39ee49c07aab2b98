import { describe, expect, it } from 'vitest';
import {
  INITIAL_RECORDING_STATE,
  mayRecord,
  transition,
  type RecordingConfig,
  type RecordingEffect,
  type RecordingEvent,
  type RecordingState,
} from './recording-state';

const BACKGROUND_OFF: RecordingConfig = { backgroundRecording: false, eligible: true };
const BACKGROUND_ON: RecordingConfig = { backgroundRecording: true, eligible: true };

/** Runs `events` from the initial state; returns the final state and every effect, in order. */
function run(config: RecordingConfig, ...events: RecordingEvent['type'][]) {
  let state: RecordingState = INITIAL_RECORDING_STATE;
  const effects: RecordingEffect[] = [];
  for (const type of events) {
    const next = transition(state, { type } as RecordingEvent, config);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

const INIT = { type: 'init', newSession: false } as const;
const INIT_NEW = { type: 'init', newSession: true } as const;
const STOP = { type: 'stop' } as const;

describe('recording states (spec §4)', () => {
  it('NotRecording becomes Recording only after initialisation succeeds', () => {
    expect(run(BACKGROUND_OFF, 'start')).toEqual({
      state: { ...INITIAL_RECORDING_STATE, status: 'Initializing' },
      effects: [INIT],
    });
    expect(run(BACKGROUND_OFF, 'start', 'initSucceeded').state.status).toBe('Recording');
    expect(run(BACKGROUND_OFF, 'start', 'initFailed').state.status).toBe('NotRecording');
    // A success nobody asked for changes nothing.
    expect(run(BACKGROUND_OFF, 'initSucceeded')).toEqual({ state: INITIAL_RECORDING_STATE, effects: [STOP] });
  });

  it('starting twice initialises once', () => {
    expect(run(BACKGROUND_OFF, 'start', 'start').effects).toEqual([INIT]);
    expect(run(BACKGROUND_OFF, 'start', 'initSucceeded', 'start').effects).toEqual([INIT]);
  });

  it('stopping returns to NotRecording', () => {
    const { state, effects } = run(BACKGROUND_OFF, 'start', 'initSucceeded', 'stop');
    expect(state.status).toBe('NotRecording');
    expect(effects).toEqual([INIT, STOP]);
  });

  it('a client that comes up after a stop during initialisation is stopped again', () => {
    const { state, effects } = run(BACKGROUND_OFF, 'start', 'stop', 'initSucceeded');
    expect(state.status).toBe('NotRecording');
    expect(effects).toEqual([INIT, STOP, STOP]);
  });

  describe('with background recording disabled', () => {
    it('a hidden tab stops recording and a visible one re-initialises it', () => {
      const { state, effects } = run(BACKGROUND_OFF, 'start', 'initSucceeded', 'hidden', 'visible', 'initSucceeded');
      expect(effects).toEqual([INIT, STOP, INIT]);
      expect(state.status).toBe('Recording');
    });

    it('hiding while initialising stops, and the late client is stopped too', () => {
      const { state, effects } = run(BACKGROUND_OFF, 'start', 'hidden', 'initSucceeded');
      expect(effects).toEqual([INIT, STOP, STOP]);
      expect(state).toEqual({ ...INITIAL_RECORDING_STATE, hidden: true });
    });

    it('a page loaded in a hidden tab starts recording when it becomes visible', () => {
      expect(run(BACKGROUND_OFF, 'hidden', 'start').effects).toEqual([]);
      expect(run(BACKGROUND_OFF, 'hidden', 'start', 'visible').effects).toEqual([INIT]);
    });

    it('a manual stop makes later visibility events ignored', () => {
      const { state, effects } = run(BACKGROUND_OFF, 'start', 'initSucceeded', 'stop', 'hidden', 'visible');
      expect(effects).toEqual([INIT, STOP]);
      expect(state).toEqual({ ...INITIAL_RECORDING_STATE, manualStopped: true });
    });

    it('an explicit start after a manual stop records again and listens to visibility again', () => {
      const { state, effects } = run(BACKGROUND_OFF, 'start', 'initSucceeded', 'stop', 'start', 'initSucceeded', 'hidden');
      expect(effects).toEqual([INIT, STOP, INIT, STOP]);
      expect(state.manualStopped).toBe(false);
    });

    it('visible after a failed initialisation tries again', () => {
      expect(run(BACKGROUND_OFF, 'start', 'initFailed', 'visible').effects).toEqual([INIT, INIT]);
    });
  });

  describe('with background recording enabled', () => {
    it('hiding and showing the tab changes nothing', () => {
      const { state, effects } = run(BACKGROUND_ON, 'start', 'initSucceeded', 'hidden', 'visible', 'hidden');
      expect(effects).toEqual([INIT]);
      expect(state.status).toBe('Recording');
    });

    it('a page loaded in a hidden tab records at once', () => {
      expect(run(BACKGROUND_ON, 'hidden', 'start').effects).toEqual([INIT]);
    });

    it('a manual stop still stops', () => {
      expect(run(BACKGROUND_ON, 'start', 'initSucceeded', 'stop').effects).toEqual([INIT, STOP]);
    });
  });

  describe('a new session (the member changed)', () => {
    it('restarts the recording on a new session', () => {
      const { state, effects } = run(BACKGROUND_OFF, 'start', 'initSucceeded', 'newSession');
      expect(effects).toEqual([INIT, INIT_NEW]);
      expect(state.status).toBe('Initializing');
      expect(state.newSessionPending).toBe(false);
    });

    it('while not recording, makes the next initialisation a new session', () => {
      const hidden = run(BACKGROUND_OFF, 'start', 'initSucceeded', 'hidden', 'newSession', 'visible');
      expect(hidden.effects).toEqual([INIT, STOP, INIT_NEW]);
      const stopped = run(BACKGROUND_OFF, 'start', 'initSucceeded', 'stop', 'newSession', 'start');
      expect(stopped.effects).toEqual([INIT, STOP, INIT_NEW]);
    });
  });

  it('an ineligible browser never records', () => {
    const config = { backgroundRecording: false, eligible: false };
    expect(run(config, 'start', 'initSucceeded', 'visible', 'newSession')).toEqual({
      state: INITIAL_RECORDING_STATE,
      effects: [],
    });
  });
});

describe('who may be recorded (spec §4)', () => {
  it('ordinary browsers', () => {
    expect(mayRecord({ webdriver: false, testRunner: false, crawler: false })).toBe(true);
  });

  it('not bots, not webdriver browsers', () => {
    expect(mayRecord({ webdriver: false, testRunner: false, crawler: true })).toBe(false);
    expect(mayRecord({ webdriver: true, testRunner: false, crawler: false })).toBe(false);
  });

  it('except webdriver browsers under the test runner (window.Cypress)', () => {
    expect(mayRecord({ webdriver: true, testRunner: true, crawler: false })).toBe(true);
    expect(mayRecord({ webdriver: true, testRunner: true, crawler: true })).toBe(false);
  });
});
