import { readStorage } from '@/shared/lib/storage';
import type { BridgeAction } from './actions';
import { createBridge, VIBRATION_PATTERNS, type BridgeFallbacks } from './send';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function fallbacks() {
  return {
    navigate: vi.fn<BridgeFallbacks['navigate']>(),
    goBack: vi.fn<BridgeFallbacks['goBack']>(),
    setLoading: vi.fn<BridgeFallbacks['setLoading']>(),
    setDimmer: vi.fn<BridgeFallbacks['setDimmer']>(),
    openUrl: vi.fn<BridgeFallbacks['openUrl']>(),
  };
}

function readBytes(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.readAsArrayBuffer(blob);
  });
}

afterEach(() => {
  delete window.ReactNativeWebView;
  for (const prop of ['share', 'canShare', 'vibrate']) Reflect.deleteProperty(navigator, prop);
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe('inside the web view', () => {
  it('posts every action as JSON {type, payload} and runs no fallback', () => {
    const postMessage = vi.fn();
    window.ReactNativeWebView = { postMessage };
    const fb = fallbacks();
    const send = createBridge(fb);
    const actions: BridgeAction[] = [
      { type: 'NAVIGATE', payload: { path: '/news', replace: true } },
      { type: 'DEEP_LINK', payload: { url: 'https://example.com' } },
      { type: 'GO_BACK', payload: null },
      { type: 'SHARE_IMAGE', payload: { dataUrl: PNG, fileName: 'card.png', title: 'Moat' } },
      { type: 'LOADING', payload: { visible: true } },
      { type: 'HAPTIC_FEEDBACK', payload: { style: 'light' } },
      { type: 'DIMMER_ON', payload: { opacity: 0.5 } },
      { type: 'DIMMER_OFF', payload: null },
      { type: 'LOCAL_STORAGE_SET', payload: { key: 'MOAT_LOCALE', value: 'en' } },
    ];
    actions.forEach(send);
    expect(postMessage.mock.calls.map(([m]) => JSON.parse(m as string))).toEqual(actions);
    expect(Object.values(fb).every((f) => f.mock.calls.length === 0)).toBe(true);
    expect(readStorage('MOAT_LOCALE')).toBeUndefined();
  });

  it('detects the bridge object on each send', () => {
    const fb = fallbacks();
    const send = createBridge(fb);
    const postMessage = vi.fn();
    window.ReactNativeWebView = { postMessage };
    send({ type: 'GO_BACK', payload: null });
    expect(postMessage).toHaveBeenCalledWith('{"type":"GO_BACK","payload":null}');
    expect(fb.goBack).not.toHaveBeenCalled();
  });
});

describe('browser fallbacks', () => {
  it('routes navigation, links, back, loading and dimmer to the fallbacks', () => {
    const fb = fallbacks();
    const send = createBridge(fb);
    send({ type: 'NAVIGATE', payload: { path: '/a' } });
    send({ type: 'NAVIGATE', payload: { path: '/b', replace: true } });
    send({ type: 'DEEP_LINK', payload: { url: 'moat://x' } });
    send({ type: 'GO_BACK', payload: null });
    send({ type: 'LOADING', payload: { visible: true } });
    send({ type: 'DIMMER_ON', payload: { opacity: 0.3 } });
    send({ type: 'DIMMER_ON', payload: {} });
    send({ type: 'DIMMER_OFF', payload: null });
    expect(fb.navigate.mock.calls).toEqual([['/a', false], ['/b', true]]);
    expect(fb.openUrl).toHaveBeenCalledWith('moat://x');
    expect(fb.goBack).toHaveBeenCalledTimes(1);
    expect(fb.setLoading).toHaveBeenCalledWith(true);
    expect(fb.setDimmer.mock.calls).toEqual([[true, 0.3], [true, undefined], [false]]);
  });

  it('vibrates per haptic style when available, and is silent otherwise', () => {
    const vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });
    const send = createBridge(fallbacks());
    send({ type: 'HAPTIC_FEEDBACK', payload: { style: 'error' } });
    expect(vibrate).toHaveBeenCalledWith(VIBRATION_PATTERNS.error);
    Object.defineProperty(navigator, 'vibrate', { value: undefined, configurable: true });
    expect(() => send({ type: 'HAPTIC_FEEDBACK', payload: { style: 'light' } })).not.toThrow();
  });

  it('writes LOCAL_STORAGE_SET through the validating storage module', () => {
    const send = createBridge(fallbacks());
    send({ type: 'LOCAL_STORAGE_SET', payload: { key: 'MOAT_LOCALE', value: 'en' } });
    send({ type: 'LOCAL_STORAGE_SET', payload: { key: 'NOT_OURS', value: 'x' } });
    send({ type: 'LOCAL_STORAGE_SET', payload: { key: 'MOAT_NEWS_COUNTRY', value: 'XX' } });
    expect(readStorage('MOAT_LOCALE')).toBe('en');
    expect(window.localStorage.getItem('NOT_OURS')).toBeNull();
    expect(window.localStorage.getItem('MOAT_NEWS_COUNTRY')).toBeNull();
  });

  it('shares the image as a file when the browser can share files', async () => {
    const share = vi.fn(async (_data: ShareData) => {});
    const canShare = vi.fn(() => true);
    Object.assign(navigator, { share, canShare });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    createBridge(fallbacks())({ type: 'SHARE_IMAGE', payload: { dataUrl: PNG, fileName: 'card.png', text: 'hi' } });
    await vi.waitFor(() => expect(share).toHaveBeenCalled());
    const data = share.mock.calls[0]![0] as ShareData;
    expect(data.text).toBe('hi');
    const file = data.files![0]!;
    expect(file.name).toBe('card.png');
    expect(file.type).toBe('image/png');
    expect(new Uint8Array(await readBytes(file))).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(click).not.toHaveBeenCalled();
  });

  it('downloads the data URL when files cannot be shared', async () => {
    Object.assign(navigator, { share: vi.fn(), canShare: vi.fn(() => false) });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    createBridge(fallbacks())({ type: 'SHARE_IMAGE', payload: { dataUrl: PNG, fileName: 'card.png' } });
    await vi.waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.href).toBe(PNG);
    expect(clicked[0]!.download).toBe('card.png');
    expect(clicked[0]!.isConnected).toBe(false);
    expect(navigator.share).not.toHaveBeenCalled();
  });

  it('does not download after the user cancels the share sheet', async () => {
    const share = vi.fn(async () => {
      throw new DOMException('cancelled', 'AbortError');
    });
    Object.assign(navigator, { share, canShare: () => true });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click');
    createBridge(fallbacks())({ type: 'SHARE_IMAGE', payload: { dataUrl: PNG, fileName: 'card.png' } });
    await vi.waitFor(() => expect(share).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 0));
    expect(click).not.toHaveBeenCalled();
  });
});
