import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECORDER_BACKGROUND_RECORDING } from '@/shared/config/constants';
import {
  RECORDER_INIT_GIVE_UP_MS,
  RECORDER_STATE_POLL_MS,
  createRecorder,
  type Recorder,
  type RecorderOptions,
  type RecordingClient,
} from './recorder';

/**
 * A stand-in for `H`: records calls; `comeUp()` makes it report that it records. Its
 * sessions are `secure-1`, then `secure-2` after a `start({forceNew: true})`, and so on.
 */
function fakeClient() {
  let recording: 'NotRecording' | 'Recording' = 'NotRecording';
  let session = 1;
  const client = {
    init: vi.fn<RecordingClient['init']>(() => ({ sessionSecureID: 'secure-1' })),
    start: vi.fn<RecordingClient['start']>((options) => {
      if (options?.forceNew) session += 1;
    }),
    stop: vi.fn<RecordingClient['stop']>(() => {
      recording = 'NotRecording';
    }),
    identify: vi.fn<RecordingClient['identify']>(),
    getSessionDetails: vi.fn<RecordingClient['getSessionDetails']>(() =>
      Promise.resolve({ url: '', urlWithTimestamp: '', sessionSecureID: `secure-${session}` }),
    ),
    consume: vi.fn<RecordingClient['consume']>(),
    addSessionFeedback: vi.fn<RecordingClient['addSessionFeedback']>(),
    getRecordingState: vi.fn<RecordingClient['getRecordingState']>(() => recording),
  } satisfies RecordingClient;
  return {
    client,
    /** The client finished initialising: the recorder notices at its next poll. */
    comeUp() {
      recording = 'Recording';
      vi.advanceTimersByTime(RECORDER_STATE_POLL_MS);
    },
  };
}

/** Lets pending promise callbacks run (the timers are fake; promises are not). */
async function settle() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

const recorders: Recorder[] = [];
function recorder(options: Omit<RecorderOptions, 'client'> & { client: RecordingClient }) {
  const r = createRecorder(options);
  recorders.push(r);
  return r;
}

/** jsdom's navigator has no `webdriver`. */
function setWebdriver(value: boolean) {
  Object.defineProperty(navigator, 'webdriver', { configurable: true, get: () => value });
}

function setHidden(hidden: boolean) {
  vi.spyOn(document, 'hidden', 'get').mockReturnValue(hidden);
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  recorders.splice(0).forEach((r) => r.dispose());
  vi.restoreAllMocks();
  delete (window as { Cypress?: unknown }).Cypress;
  delete (navigator as { webdriver?: boolean }).webdriver;
});

describe('session recorder', () => {
  it('initialises the client once, on start, and records once the client says so', () => {
    const { client, comeUp } = fakeClient();
    const r = recorder({ client });
    expect(client.init).not.toHaveBeenCalled();

    r.start();
    expect(client.init).toHaveBeenCalledOnce();
    expect(client.init.mock.calls[0]![0]).toBe('moat');
    expect(client.init.mock.calls[0]![1]).toMatchObject({
      backendUrl: `${location.origin}/public`,
      otlpEndpoint: location.origin,
      manualStart: true,
    });
    expect(client.start).toHaveBeenCalledWith({ silent: true, forceNew: false });
    expect(r.state().status).toBe('Initializing');

    vi.advanceTimersByTime(RECORDER_STATE_POLL_MS * 3);
    expect(r.state().status).toBe('Initializing');
    comeUp();
    expect(r.state().status).toBe('Recording');

    r.start();
    expect(client.init).toHaveBeenCalledOnce();
    expect(client.start).toHaveBeenCalledOnce();
  });

  it('gives up waiting when the client never records (initialisation failed)', () => {
    const { client } = fakeClient();
    const r = recorder({ client });
    r.start();
    vi.advanceTimersByTime(RECORDER_INIT_GIVE_UP_MS + RECORDER_STATE_POLL_MS);
    expect(r.state().status).toBe('NotRecording');
  });

  it('background recording is off by default', () => {
    expect(RECORDER_BACKGROUND_RECORDING).toBe(false);
  });

  describe('with background recording disabled', () => {
    it('stops when the tab is hidden and re-initialises when it is visible', () => {
      const { client, comeUp } = fakeClient();
      const r = recorder({ client, backgroundRecording: false });
      r.start();
      comeUp();

      setHidden(true);
      expect(client.stop).toHaveBeenCalledWith({ silent: true });
      expect(r.state().status).toBe('NotRecording');

      setHidden(false);
      expect(client.start).toHaveBeenCalledTimes(2);
      comeUp();
      expect(r.state().status).toBe('Recording');
    });

    it('after a manual stop, ignores visibility changes', () => {
      const { client, comeUp } = fakeClient();
      const r = recorder({ client, backgroundRecording: false });
      r.start();
      comeUp();
      r.stop();
      expect(client.stop).toHaveBeenCalledOnce();

      setHidden(true);
      setHidden(false);
      expect(client.start).toHaveBeenCalledOnce();
      expect(client.stop).toHaveBeenCalledOnce();
      expect(r.state()).toMatchObject({ status: 'NotRecording', manualStopped: true });
    });

    it('a page opened in a hidden tab waits until it is visible', () => {
      vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
      const { client } = fakeClient();
      const r = recorder({ client, backgroundRecording: false });
      r.start();
      expect(client.start).not.toHaveBeenCalled();
      setHidden(false);
      expect(client.start).toHaveBeenCalledOnce();
    });
  });

  describe('with background recording enabled', () => {
    it('keeps recording while hidden', () => {
      const { client, comeUp } = fakeClient();
      const r = recorder({ client, backgroundRecording: true });
      r.start();
      comeUp();
      setHidden(true);
      setHidden(false);
      expect(client.stop).not.toHaveBeenCalled();
      expect(client.start).toHaveBeenCalledOnce();
      expect(r.state().status).toBe('Recording');
    });
  });

  describe('who is recorded', () => {
    it('not a webdriver browser', () => {
      setWebdriver(true);
      const { client } = fakeClient();
      const r = recorder({ client });
      r.start();
      r.setIdentity({ id: '7', nickname: 'ant' });
      r.report(new Error('boom'));
      expect(r.feedback({ verbatim: 'hi' })).toBe(false);
      expect(client.init).not.toHaveBeenCalled();
      expect(client.identify).not.toHaveBeenCalled();
      expect(client.consume).not.toHaveBeenCalled();
      expect(client.addSessionFeedback).not.toHaveBeenCalled();
    });

    it('a webdriver browser under the test runner (window.Cypress)', () => {
      setWebdriver(true);
      (window as { Cypress?: unknown }).Cypress = {};
      const { client } = fakeClient();
      recorder({ client }).start();
      expect(client.init).toHaveBeenCalledOnce();
    });

    it('not a crawler', () => {
      vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)');
      const { client } = fakeClient();
      recorder({ client }).start();
      expect(client.init).not.toHaveBeenCalled();
    });
  });

  describe('identity', () => {
    it('identifies the member by user id and nickname once the session records', () => {
      const { client, comeUp } = fakeClient();
      const r = recorder({ client });
      r.setIdentity({ id: '42', nickname: '개미' });
      r.start();
      expect(client.identify).not.toHaveBeenCalled();
      comeUp();
      expect(client.identify).toHaveBeenCalledExactlyOnceWith('42', { nickname: '개미' });

      // The same member again (a token renewal, a re-render): nothing new.
      r.setIdentity({ id: '42', nickname: '개미' });
      expect(client.identify).toHaveBeenCalledOnce();
      // A new nickname: identified again, same session.
      r.setIdentity({ id: '42', nickname: '황소' });
      expect(client.identify).toHaveBeenLastCalledWith('42', { nickname: '황소' });
      expect(client.start).toHaveBeenCalledOnce();
    });

    it('log-out keeps the session; another member continues on a new session', () => {
      const { client, comeUp } = fakeClient();
      const r = recorder({ client });
      r.start();
      comeUp();
      r.setIdentity({ id: '1', nickname: 'a' });
      expect(client.identify).toHaveBeenCalledExactlyOnceWith('1', { nickname: 'a' });

      r.setIdentity(null);
      expect(client.start).toHaveBeenCalledOnce();
      expect(client.stop).not.toHaveBeenCalled();

      r.setIdentity({ id: '2', nickname: 'b' });
      expect(client.start).toHaveBeenLastCalledWith({ silent: true, forceNew: true });
      // Not before the new session is up: the client would label the previous one.
      expect(client.identify).toHaveBeenCalledOnce();
      comeUp();
      expect(client.identify).toHaveBeenLastCalledWith('2', { nickname: 'b' });
    });

    it('the same member logging in again continues the same session', () => {
      const { client, comeUp } = fakeClient();
      const r = recorder({ client });
      r.start();
      comeUp();
      r.setIdentity({ id: '1', nickname: 'a' });
      r.setIdentity(null);
      r.setIdentity({ id: '1', nickname: 'a' });
      expect(client.start).toHaveBeenCalledOnce();
      expect(client.identify).toHaveBeenCalledOnce();
    });

    it('binds each identified session to the member, with the member’s token, after identifying it', async () => {
      const { client, comeUp } = fakeClient();
      const bindSession = vi.fn((_id: string) => Promise.resolve());
      const r = recorder({ client, bindSession });
      r.setIdentity({ id: '1', nickname: 'a' });
      r.start();
      await settle();
      expect(bindSession).not.toHaveBeenCalled();
      comeUp();
      await settle();
      expect(bindSession).toHaveBeenCalledExactlyOnceWith('secure-1');
      expect(client.identify.mock.invocationCallOrder[0]).toBeLessThan(client.getSessionDetails.mock.invocationCallOrder[0]!);

      // A new nickname: bound again (the server takes the nickname from the account).
      r.setIdentity({ id: '1', nickname: 'a2' });
      await settle();
      expect(bindSession).toHaveBeenLastCalledWith('secure-1');
      expect(bindSession).toHaveBeenCalledTimes(2);

      // Logging out binds nothing; another member's new session is bound to them once it records.
      r.setIdentity(null);
      r.setIdentity({ id: '2', nickname: 'b' });
      await settle();
      expect(bindSession).toHaveBeenCalledTimes(2);
      comeUp();
      await settle();
      expect(bindSession).toHaveBeenLastCalledWith('secure-2');
      expect(bindSession).toHaveBeenCalledTimes(3);
    });

    it('a binding that fails leaves the session recording, unbound', async () => {
      const { client, comeUp } = fakeClient();
      const bindSession = vi.fn(() => Promise.reject(new Error('offline')));
      const r = recorder({ client, bindSession });
      r.start();
      comeUp();
      r.setIdentity({ id: '1', nickname: 'a' });
      await settle();
      expect(bindSession).toHaveBeenCalledOnce();
      expect(r.state().status).toBe('Recording');

      client.getSessionDetails.mockRejectedValueOnce(new Error('no session data'));
      r.setIdentity({ id: '1', nickname: 'a2' });
      await settle();
      expect(bindSession).toHaveBeenCalledOnce();
    });

    it('rejects an empty identifier with a console warning (spec §5)', () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { client, comeUp } = fakeClient();
      const r = recorder({ client });
      r.start();
      comeUp();
      r.setIdentity({ id: '', nickname: 'nobody' });
      expect(warn).toHaveBeenCalledOnce();
      expect(String(warn.mock.calls[0]![0])).toContain('non-empty user identifier');
      expect(client.identify).not.toHaveBeenCalled();
    });
  });

  describe('errors', () => {
    it('reports an error-boundary error with its component stack', () => {
      const { client } = fakeClient();
      const r = recorder({ client });
      r.start();
      const error = new TypeError("Cannot read properties of undefined (reading 'price')");
      r.report(error, { componentStack: '\n    at Holdings' });
      expect(client.consume).toHaveBeenCalledExactlyOnceWith(error, {
        type: 'React.ErrorBoundary',
        payload: { componentStack: '\n    at Holdings' },
      });
    });

    it('wraps thrown values that are not errors', () => {
      const { client } = fakeClient();
      const r = recorder({ client });
      r.start();
      r.report('plain string');
      const [thrown, options] = client.consume.mock.calls[0]!;
      expect(thrown).toBeInstanceOf(Error);
      expect(thrown.message).toBe('plain string');
      expect(options).toEqual({ type: 'custom' });
    });

    it('drops what the drop list matches', () => {
      const { client } = fakeClient();
      const r = recorder({ client });
      r.start();
      r.report(new TypeError('Failed to fetch'));
      r.report(new DOMException('The user aborted a request.', 'AbortError'));
      r.report(new Error('Failed to fetch dynamically imported module: /assets/x.js'));
      expect(client.consume).not.toHaveBeenCalled();
    });

    it('stops dropped uncaught errors before the client’s window.onerror sees them', () => {
      const { client } = fakeClient();
      recorder({ client }).start();
      const seen: string[] = [];
      const clientHandler = (event: Event) => seen.push((event as ErrorEvent).message);
      window.addEventListener('error', clientHandler);
      try {
        window.dispatchEvent(new ErrorEvent('error', { message: 'ResizeObserver loop limit exceeded' }));
        window.dispatchEvent(new ErrorEvent('error', { message: 'TypeError: price is undefined' }));
      } finally {
        window.removeEventListener('error', clientHandler);
      }
      expect(seen).toEqual(['TypeError: price is undefined']);
    });
  });

  describe('feedback', () => {
    it('attaches the feedback to the session, stamped when sent', () => {
      vi.setSystemTime(new Date('2025-03-04T05:06:07.000Z'));
      const { client } = fakeClient();
      const r = recorder({ client });
      r.start();
      expect(r.feedback({ verbatim: '차트가 느려요', userName: '개미', userEmail: 'ant@example.com' })).toBe(true);
      expect(client.addSessionFeedback).toHaveBeenCalledExactlyOnceWith({
        verbatim: '차트가 느려요',
        userName: '개미',
        userEmail: 'ant@example.com',
        timestampOverride: '2025-03-04T05:06:07.000Z',
      });
    });

    it('leaves out an empty name and email', () => {
      const { client } = fakeClient();
      const r = recorder({ client });
      r.start();
      r.feedback({ verbatim: 'x', userName: '', userEmail: '' });
      expect(client.addSessionFeedback.mock.calls[0]![0]).toMatchObject({ userName: undefined, userEmail: undefined });
    });

    it('is refused while nothing is recorded', () => {
      const { client, comeUp } = fakeClient();
      const r = recorder({ client });
      expect(r.feedback({ verbatim: 'before start' })).toBe(false);
      r.start();
      comeUp();
      r.stop();
      expect(r.feedback({ verbatim: 'after stop' })).toBe(false);
      expect(client.addSessionFeedback).not.toHaveBeenCalled();
    });
  });
});
