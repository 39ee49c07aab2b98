import { isMobileWebView } from './webview';

describe('isMobileWebView', () => {
  afterEach(() => {
    delete window.ReactNativeWebView;
  });

  it('is false without the native bridge object', () => {
    expect(isMobileWebView()).toBe(false);
  });

  it('is true when the native bridge object exists, whatever the user agent', () => {
    window.ReactNativeWebView = { postMessage: () => {} };
    expect(isMobileWebView()).toBe(true);
  });

  it('checks the given window', () => {
    expect(isMobileWebView({ ReactNativeWebView: { postMessage: () => {} } } as unknown as Window)).toBe(true);
    expect(isMobileWebView({} as Window)).toBe(false);
  });
});
