import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '@/test/renderApp';

/** The app's web view: the bridge object and, when given, the app's flags. */
function inApp(info?: { chrome: unknown }) {
  const postMessage = vi.fn<(message: string) => void>();
  window.ReactNativeWebView = { postMessage };
  if (info) window.MoatApp = info;
  return () => postMessage.mock.calls.map(([m]) => JSON.parse(m) as { type: string; payload: unknown });
}

afterEach(() => {
  delete window.MoatApp;
});

/** The shell's in-web-view code is a chunk of its own: let it load and mount. */
async function inWebViewCodeLoaded() {
  await act(async () => {
    await import('./InWebView');
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}

describe('inside the app that draws the header and the tab bar', () => {
  it('draws neither itself', async () => {
    inApp({ chrome: 'native' });
    renderApp({ route: '/settings' });
    expect(await screen.findByRole('heading', { level: 1, name: '설정' })).toBeTruthy();
    expect(screen.queryByRole('banner')).toBeNull();
    expect(screen.queryByRole('navigation', { name: '주요 메뉴' })).toBeNull();
  });

  it('asks the app for a new screen (NAVIGATE) when a link leads to another page', async () => {
    const sent = inApp({ chrome: 'native' });
    const app = renderApp({ route: '/settings' });
    const account = await screen.findByRole('region', { name: '계정' });
    await inWebViewCodeLoaded();
    fireEvent.click(within(account).getByRole('link', { name: '로그인' }));
    expect(sent()).toEqual([{ type: 'NAVIGATE', payload: { path: '/login?next=%2Fsettings' } }]);
    expect(app.location().pathname).toBe('/settings');
  });

  it('keeps a modal on the same page in the page', async () => {
    const sent = inApp({ chrome: 'native' });
    const app = renderApp({ route: '/settings' });
    const terms = await screen.findByRole('button', { name: '이용약관' });
    await inWebViewCodeLoaded();
    fireEvent.click(terms);
    expect(app.location().search).toBe('?terms=routeModalTrue');
    expect(sent().map((m) => m.type)).not.toContain('NAVIGATE');
  });

  it('closing a screen that is a modal at its first entry is back at the root: GO_BACK', async () => {
    const sent = inApp({ chrome: 'native' });
    renderApp({ route: '/settings?terms=routeModalTrue' });
    const dialog = await screen.findByRole('dialog', { name: '이용약관' });
    fireEvent.click(within(dialog).getByRole('button', { name: '닫기' }));
    expect(sent().at(-1)).toEqual({ type: 'GO_BACK', payload: null });
  });
});

describe('inside an older app that sets no flag, or in a browser', () => {
  it('draws its own header and navigation, and links route in the page', async () => {
    const sent = inApp();
    const app = renderApp({ route: '/settings' });
    expect(await screen.findByRole('banner')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '주요 메뉴' })).toBeTruthy();
    fireEvent.click(within(screen.getByRole('navigation', { name: '주요 메뉴' })).getByRole('link', { name: '홈' }));
    expect(app.location().pathname).toBe('/');
    expect(sent().map((m) => m.type)).not.toContain('NAVIGATE');
  });

  it('ignores the flag outside the web view', async () => {
    window.MoatApp = { chrome: 'native' };
    renderApp({ route: '/settings' });
    expect(await screen.findByRole('banner')).toBeTruthy();
  });
});
