import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '@/test/fetch';
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

const LCP = 'largest-contentful-paint';

/**
 * A browser's PerformanceObserver, reduced to what the module uses: the test emits the
 * page's LCP candidates with `emit()`.
 */
class FakeObserver {
  static supportedEntryTypes: readonly string[] = ['mark', 'measure', 'paint', LCP];
  static all: FakeObserver[] = [];
  observing?: PerformanceObserverInit;
  constructor(private readonly callback: PerformanceObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(init: PerformanceObserverInit) {
    this.observing = init;
  }
  disconnect() {
    this.observing = undefined;
  }
  /** A new largest-contentful-paint candidate (delivered only while observed, as in browsers). */
  emit() {
    if (this.observing?.type !== LCP) return;
    const entry = { entryType: LCP, startTime: performance.now() } as PerformanceEntry;
    this.callback({ getEntries: () => [entry] } as unknown as PerformanceObserverEntryList, this as unknown as PerformanceObserver);
  }
}

/** Emits an LCP candidate on every observer the module made. */
const emitLcp = () => FakeObserver.all.forEach((o) => o.emit());

/** The page paints its largest content, and nothing bigger comes for the quiet period. */
const paintSettles = (recording: { RECORDER_LCP_QUIET_MS: number }) => {
  emitLcp();
  vi.advanceTimersByTime(recording.RECORDER_LCP_QUIET_MS);
};

/**
 * Fakes the clock, a browser with (or without) the LCP API, and a `requestIdleCallback`
 * that only records its calls: `idle` is how a test sees that recording has started.
 */
function browser({ lcp = true, idleCallback = true, readyState = 'complete' as DocumentReadyState } = {}) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  FakeObserver.all = [];
  FakeObserver.supportedEntryTypes = lcp ? ['mark', 'measure', 'paint', LCP] : ['mark', 'measure', 'paint'];
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  const idle = vi.fn<(cb: () => void, options?: IdleRequestOptions) => number>(() => 1);
  if (idleCallback) vi.stubGlobal('requestIdleCallback', idle);
  vi.spyOn(document, 'readyState', 'get').mockReturnValue(readyState);
  return idle;
}

beforeEach(() => {
  loadRecorder.mockReset();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('when recording starts', () => {
  it('after load, once no new LCP candidate has come for the quiet period, when idle', async () => {
    const idle = browser({ readyState: 'loading' });
    const recording = await fresh();
    recording.startRecording();
    vi.advanceTimersByTime(recording.RECORDER_START_MAX_DELAY_MS * 2);
    expect(FakeObserver.all).toHaveLength(0); // nothing before `load`

    window.dispatchEvent(new Event('load'));
    const [observer] = FakeObserver.all;
    expect(observer?.observing).toEqual({ type: LCP, buffered: true });
    emitLcp(); // the buffered candidates, just after load
    vi.advanceTimersByTime(recording.RECORDER_LCP_QUIET_MS - 1);
    expect(idle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(idle).toHaveBeenCalledExactlyOnceWith(expect.any(Function), { timeout: 2000 });
    expect(observer?.observing).toBeUndefined();
    expect(loadRecorder).not.toHaveBeenCalled(); // the browser is not idle yet

    loadRecorder.mockResolvedValue(fakeRecorder());
    idle.mock.calls[0]![0]();
    await vi.waitFor(() => expect(loadRecorder).toHaveBeenCalledOnce());
  });

  it('a new LCP candidate restarts the quiet wait', async () => {
    const idle = browser();
    const recording = await fresh();
    recording.startRecording();
    const quiet = recording.RECORDER_LCP_QUIET_MS;

    emitLcp(); // the shell
    vi.advanceTimersByTime(quiet - 200);
    emitLcp(); // the content, once its data has arrived
    vi.advanceTimersByTime(quiet - 1);
    expect(idle).not.toHaveBeenCalled();
    emitLcp();
    vi.advanceTimersByTime(quiet - 1);
    expect(idle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(idle).toHaveBeenCalledOnce();
  });

  it('counts the quiet wait from the first candidate: the app paints after load', async () => {
    const idle = browser();
    const recording = await fresh();
    recording.startRecording();
    vi.advanceTimersByTime(recording.RECORDER_LCP_QUIET_MS * 3);
    expect(idle).not.toHaveBeenCalled();

    emitLcp();
    vi.advanceTimersByTime(recording.RECORDER_LCP_QUIET_MS - 1);
    expect(idle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(idle).toHaveBeenCalledOnce();
  });

  it('in a tab hidden at load (no LCP comes), counts the quiet wait from load', async () => {
    const idle = browser();
    vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    const recording = await fresh();
    recording.startRecording();
    vi.advanceTimersByTime(recording.RECORDER_LCP_QUIET_MS - 1);
    expect(idle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(idle).toHaveBeenCalledOnce();
  });

  it.each(['pointerdown', 'keydown'])('starts at the first %s, without waiting for the quiet period', async (type) => {
    const idle = browser();
    const recording = await fresh();
    recording.startRecording();
    vi.advanceTimersByTime(100);
    expect(idle).not.toHaveBeenCalled();

    document.body.dispatchEvent(new Event(type, { bubbles: true }));
    expect(idle).toHaveBeenCalledOnce();
  });

  it('sees input even when the page stops it from propagating', async () => {
    const idle = browser();
    const recording = await fresh();
    recording.startRecording();
    const stop = (e: Event) => e.stopPropagation();
    document.body.addEventListener('pointerdown', stop);
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(idle).toHaveBeenCalledOnce();
    document.body.removeEventListener('pointerdown', stop);
  });

  it('starts when the tab is hidden, not when it becomes visible', async () => {
    const idle = browser();
    const recording = await fresh();
    recording.startRecording();
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(false);
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    expect(idle).not.toHaveBeenCalled();

    hidden.mockReturnValue(true);
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    expect(idle).toHaveBeenCalledOnce();
  });

  it('starts after the maximum delay even while LCP candidates keep coming', async () => {
    const idle = browser();
    const recording = await fresh();
    recording.startRecording();
    const max = recording.RECORDER_START_MAX_DELAY_MS;
    const step = recording.RECORDER_LCP_QUIET_MS / 2;

    let elapsed = 0;
    while (elapsed + step < max) {
      vi.advanceTimersByTime(step);
      elapsed += step;
      emitLcp();
    }
    vi.advanceTimersByTime(max - elapsed - 1);
    expect(idle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(idle).toHaveBeenCalledOnce();
  });

  it('without the LCP API (older Safari), starts the quiet period after load', async () => {
    const idle = browser({ lcp: false });
    const recording = await fresh();
    recording.startRecording();
    expect(FakeObserver.all).toHaveLength(0);
    vi.advanceTimersByTime(recording.RECORDER_LCP_QUIET_MS - 1);
    expect(idle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(idle).toHaveBeenCalledOnce();
  });

  it('without PerformanceObserver at all, the same', async () => {
    const idle = browser();
    vi.stubGlobal('PerformanceObserver', undefined);
    const recording = await fresh();
    recording.startRecording();
    vi.advanceTimersByTime(recording.RECORDER_LCP_QUIET_MS - 1);
    expect(idle).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(idle).toHaveBeenCalledOnce();
  });

  it('without requestIdleCallback (older Safari), loads on the next task', async () => {
    browser({ idleCallback: false });
    expect('requestIdleCallback' in window).toBe(false); // jsdom has none either
    const recording = await fresh();
    loadRecorder.mockResolvedValue(fakeRecorder());
    recording.startRecording();
    paintSettles(recording);
    expect(loadRecorder).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    await vi.waitFor(() => expect(loadRecorder).toHaveBeenCalledOnce());
  });

  it('starts once only, and leaves no listener, observer or timer behind', async () => {
    const idle = browser();
    const added = vi.spyOn(window, 'addEventListener');
    const removed = vi.spyOn(window, 'removeEventListener');
    const recording = await fresh();
    loadRecorder.mockResolvedValue(fakeRecorder());
    recording.startRecording();
    const waitsFor = added.mock.calls.filter(([type]) => !['error', 'unhandledrejection'].includes(type));
    expect(waitsFor.map(([type]) => type).sort()).toEqual(['keydown', 'pointerdown', 'visibilitychange']);
    for (const [, , options] of waitsFor) expect(options).toEqual({ capture: true, passive: true });

    document.body.dispatchEvent(new Event('keydown', { bubbles: true }));
    expect(idle).toHaveBeenCalledOnce();
    for (const [type, listener] of waitsFor) expect(removed).toHaveBeenCalledWith(type, listener, true);
    expect(FakeObserver.all[0]?.observing).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);

    // Whatever comes later changes nothing.
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    document.body.dispatchEvent(new Event('keydown', { bubbles: true }));
    vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    emitLcp();
    vi.advanceTimersByTime(recording.RECORDER_START_MAX_DELAY_MS * 2);
    expect(idle).toHaveBeenCalledOnce();
    idle.mock.calls[0]![0]();
    await vi.waitFor(() => expect(loadRecorder).toHaveBeenCalledOnce());
  });
});

describe('recording facade', () => {
  it('hands over, in order, what was asked before the recorder was there', async () => {
    const recording = await fresh();
    const recorder = fakeRecorder();
    loadRecorder.mockResolvedValue(recorder);
    const error = new Error('boom');

    recording.setRecorderIdentity({ id: '1', nickname: 'a' });
    recording.reportError(error, { componentStack: 'at X' });
    const sent = recording.sendFeedback({ verbatim: 'hi' });
    browser();
    idleNow();
    recording.startRecording();
    paintSettles(recording);

    expect(await sent).toBe(true);
    expect(recorder.setIdentity).toHaveBeenCalledWith({ id: '1', nickname: 'a' });
    expect(recorder.report).toHaveBeenCalledWith(error, { componentStack: 'at X' });
    expect(recorder.feedback).toHaveBeenCalledWith({ verbatim: 'hi' });
  });

  it('with recording off, loads nothing and sends feedback straight to the server', async () => {
    const idle = browser();
    const fetch = mockFetch(() => new Response(null, { status: 204 }));
    const recording = await fresh();
    recording.startRecording(false);
    expect(await recording.sendFeedback({ verbatim: 'hi', userName: '', userEmail: 'ant@example.com' })).toBe(true);
    const [url, init] = fetch.mock.calls[0]!;
    expect(String(url)).toBe('/api/feedback');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ verbatim: 'hi', user_email: 'ant@example.com' });
    vi.advanceTimersByTime(recording.RECORDER_START_MAX_DELAY_MS * 2);
    expect(FakeObserver.all).toHaveLength(0);
    expect(idle).not.toHaveBeenCalled();
    expect(loadRecorder).not.toHaveBeenCalled();
    recording.setRecorderIdentity(null); // no recorder: nothing to do, nothing thrown
  });

  it('a browser that is not recorded (or a failed load) sends feedback to the server; false when the server refuses', async () => {
    browser();
    idleNow();
    let status = 204;
    const fetch = mockFetch(() =>
      status === 204
        ? new Response(null, { status })
        : jsonResponse({ code: 'rate_limited', message: 'slow down', request_id: 'r' }, { status }),
    );
    const recording = await fresh();
    loadRecorder.mockRejectedValue(new Error('Failed to fetch dynamically imported module'));
    recording.startRecording();
    paintSettles(recording);
    expect(await recording.sendFeedback({ verbatim: 'hi' })).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    status = 429;
    expect(await recording.sendFeedback({ verbatim: 'again' })).toBe(false);
  });

  it('hands errors thrown before the recorder loaded to it once it is there', async () => {
    const recorder = fakeRecorder();
    let loaded: (r: Recorder) => void = () => {};
    loadRecorder.mockReturnValue(new Promise((resolve) => (loaded = resolve)));
    browser();
    idleNow();
    const removed = vi.spyOn(window, 'removeEventListener');
    const recording = await fresh();
    recording.startRecording();
    // The test's own error events count as handled (else the runner reports them).
    const handled = (e: Event) => e.preventDefault();
    window.addEventListener('error', handled);
    const early = new Error('thrown during start-up');
    window.dispatchEvent(new ErrorEvent('error', { error: early, message: early.message }));
    paintSettles(recording);
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
    browser();
    idleNow();
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const recording = await fresh();
    recording.startRecording();
    paintSettles(recording);
    await Promise.resolve();
    expect(loadRecorder).not.toHaveBeenCalled();
    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(loadRecorder).toHaveBeenCalledTimes(1));
  });
});
