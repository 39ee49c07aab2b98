import { describe, expect, it, vi } from 'vitest';
import { installWebViewHostBridge } from './webview-host-bootstrap';

/** A stand-in for a framed window and its parent. */
function framedWindow(parent: unknown): Window {
  return { parent } as unknown as Window;
}

describe('installWebViewHostBridge', () => {
  it('borrows the host page bridge as window.ReactNativeWebView', () => {
    const bridge = { postMessage: vi.fn() };
    const bridgeFor = vi.fn(() => bridge);
    const win = framedWindow({ __MOAT_WEBVIEW_HOST__: { bridgeFor } });
    expect(installWebViewHostBridge(win)).toBe(true);
    expect(win.ReactNativeWebView).toBe(bridge);
    expect(bridgeFor).toHaveBeenCalledWith(win);
  });

  it('sets the app flags the host gives (window.MoatApp), as the app injects them', () => {
    const win = framedWindow({
      __MOAT_WEBVIEW_HOST__: { bridgeFor: () => ({ postMessage: vi.fn() }), appInfoFor: () => ({ chrome: 'native' }) },
    });
    expect(installWebViewHostBridge(win)).toBe(true);
    expect(win.MoatApp).toEqual({ chrome: 'native' });
  });

  it('installs nothing when the host plays a browser (no bridge)', () => {
    const win = framedWindow({ __MOAT_WEBVIEW_HOST__: { bridgeFor: () => null, appInfoFor: () => ({ chrome: 'native' }) } });
    expect(installWebViewHostBridge(win)).toBe(false);
    expect(win.ReactNativeWebView).toBeUndefined();
    expect(win.MoatApp).toBeUndefined();
  });

  it('does nothing in a top-level window', () => {
    const win = {} as Window & { parent?: Window };
    win.parent = win;
    expect(installWebViewHostBridge(win)).toBe(false);
    expect(win.ReactNativeWebView).toBeUndefined();
  });

  it('does nothing when the parent is not the host page', () => {
    const win = framedWindow({});
    expect(installWebViewHostBridge(win)).toBe(false);
    expect(win.ReactNativeWebView).toBeUndefined();
  });

  it('does nothing when the parent is cross-origin', () => {
    const parent = new Proxy(
      {},
      {
        get() {
          throw new DOMException('Blocked a frame with origin', 'SecurityError');
        },
      },
    );
    const win = framedWindow(parent);
    expect(installWebViewHostBridge(win)).toBe(false);
    expect(win.ReactNativeWebView).toBeUndefined();
  });

  it('keeps a bridge the native app already injected', () => {
    const native = { postMessage: vi.fn() };
    const win = framedWindow({ __MOAT_WEBVIEW_HOST__: { bridgeFor: () => ({ postMessage: vi.fn() }) } });
    win.ReactNativeWebView = native;
    expect(installWebViewHostBridge(win)).toBe(false);
    expect(win.ReactNativeWebView).toBe(native);
  });
});
