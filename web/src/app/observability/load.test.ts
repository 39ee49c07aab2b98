import { afterEach, describe, expect, it, vi } from 'vitest';

const imported = vi.fn();
const H = {
  init: vi.fn(() => ({ sessionSecureID: 's' })),
  start: vi.fn(),
  stop: vi.fn(),
  identify: vi.fn(),
  getSessionDetails: vi.fn(() => Promise.resolve({ url: '', urlWithTimestamp: '', sessionSecureID: 's' })),
  consume: vi.fn(),
  addSessionFeedback: vi.fn(),
  getRecordingState: vi.fn(() => 'NotRecording'),
};
vi.mock('highlight.run', () => {
  imported();
  return { H };
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('loading the recorder', () => {
  it('a crawler never downloads the client', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)');
    const { loadRecorder } = await import('./load');
    expect(await loadRecorder()).toBeUndefined();
    expect(imported).not.toHaveBeenCalled();
  });

  it('an ordinary browser loads the client and starts recording', async () => {
    const { loadRecorder } = await import('./load');
    const recorder = await loadRecorder();
    expect(imported).toHaveBeenCalledOnce();
    expect(H.init).toHaveBeenCalledWith('moat', expect.objectContaining({ backendUrl: `${location.origin}/public` }));
    expect(H.start).toHaveBeenCalledWith({ silent: true, forceNew: false });
    expect(recorder?.state().status).toBe('Initializing');
    recorder?.dispose();
  });
});
