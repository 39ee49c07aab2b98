import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Recorder } from './recorder';

const loadRecorder = vi.fn<() => Promise<Recorder | undefined>>();
vi.mock('./load', () => ({ loadRecorder }));

function fakeRecorder(): Recorder {
  return {
    start: vi.fn(),
    stop: vi.fn(),
    setIdentity: vi.fn(),
    report: vi.fn(),
    feedback: vi.fn(() => true),
    state: vi.fn(),
    dispose: vi.fn(),
  } as unknown as Recorder;
}

/** A fresh copy of the module (it holds one recorder per page). */
const fresh = async () => {
  vi.resetModules();
  return import('./index');
};

/** The browser is idle at once. */
const idleNow = () =>
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => {
    callback();
    return 1;
  });

beforeEach(() => {
  loadRecorder.mockReset();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('recording facade', () => {
  it('loads the recorder only when the page has loaded and the browser is idle', async () => {
    const idle = vi.fn<(cb: () => void) => number>(() => 1);
    vi.stubGlobal('requestIdleCallback', idle);
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const recording = await fresh();

    recording.startRecording();
    expect(idle).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('load'));
    expect(idle).toHaveBeenCalledOnce();
    expect(loadRecorder).not.toHaveBeenCalled();

    loadRecorder.mockResolvedValue(fakeRecorder());
    idle.mock.calls[0]![0]();
    await vi.waitFor(() => expect(loadRecorder).toHaveBeenCalledOnce());
  });

  it('without requestIdleCallback (older Safari), loads on the next task', async () => {
    expect('requestIdleCallback' in window).toBe(false); // jsdom has none either
    const recording = await fresh();
    loadRecorder.mockResolvedValue(fakeRecorder());
    recording.startRecording();
    expect(loadRecorder).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(loadRecorder).toHaveBeenCalledOnce());
  });

  it('hands over, in order, what was asked before the recorder was there', async () => {
    const recording = await fresh();
    const recorder = fakeRecorder();
    loadRecorder.mockResolvedValue(recorder);
    const error = new Error('boom');

    recording.setRecorderIdentity({ id: '1', nickname: 'a' });
    recording.reportError(error, { componentStack: 'at X' });
    const sent = recording.sendFeedback({ verbatim: 'hi' });
    idleNow();
    recording.startRecording();

    expect(await sent).toBe(true);
    expect(recorder.setIdentity).toHaveBeenCalledWith({ id: '1', nickname: 'a' });
    expect(recorder.report).toHaveBeenCalledWith(error, { componentStack: 'at X' });
    expect(recorder.feedback).toHaveBeenCalledWith({ verbatim: 'hi' });
  });

  it('with recording off, loads nothing and refuses feedback', async () => {
    const recording = await fresh();
    recording.startRecording(false);
    expect(await recording.sendFeedback({ verbatim: 'hi' })).toBe(false);
    expect(loadRecorder).not.toHaveBeenCalled();
    recording.setRecorderIdentity(null); // no recorder: nothing to do, nothing thrown
  });

  it('a browser that is not recorded (or a failed load) refuses feedback', async () => {
    const recording = await fresh();
    loadRecorder.mockRejectedValue(new Error('Failed to fetch dynamically imported module'));
    idleNow();
    recording.startRecording();
    expect(await recording.sendFeedback({ verbatim: 'hi' })).toBe(false);
  });

  it('hands errors thrown before the recorder loaded to it once it is there', async () => {
    const recorder = fakeRecorder();
    let loaded: (r: Recorder) => void = () => {};
    loadRecorder.mockReturnValue(new Promise((resolve) => (loaded = resolve)));
    idleNow();
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('complete');
    const removed = vi.spyOn(window, 'removeEventListener');
    const recording = await fresh();
    recording.startRecording();
    // The test's own error events count as handled (else the runner reports them).
    const handled = (e: Event) => e.preventDefault();
    window.addEventListener('error', handled);
    const early = new Error('thrown during start-up');
    window.dispatchEvent(new ErrorEvent('error', { error: early, message: early.message }));
    const rejection = new Event('unhandledrejection') as Event & { reason?: unknown };
    rejection.reason = 'rejected during start-up';
    window.dispatchEvent(rejection);
    expect(recorder.report).not.toHaveBeenCalled();
    loaded(recorder);
    await vi.waitFor(() => expect(recorder.report).toHaveBeenCalledTimes(2));
    expect(recorder.report).toHaveBeenNthCalledWith(1, early);
    expect(recorder.report).toHaveBeenNthCalledWith(2, 'rejected during start-up');
    // Later errors are the recorder's own business: the early listeners are gone.
    expect(removed.mock.calls.map(([type]) => type)).toEqual(expect.arrayContaining(['error', 'unhandledrejection']));
    window.removeEventListener('error', handled);
  });

  it('waits to be online before loading the recorder', async () => {
    loadRecorder.mockResolvedValue(fakeRecorder());
    idleNow();
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('complete');
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const recording = await fresh();
    recording.startRecording();
    await Promise.resolve();
    expect(loadRecorder).not.toHaveBeenCalled();
    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(loadRecorder).toHaveBeenCalledTimes(1));
  });
});
