import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_ACTION_TYPES } from '@/shared/bridge/actions';
import { jsonResponse, TEST_META } from '@/test/fetch';
import { renderApp } from '@/test/renderApp';

function installNativeBridge() {
  const postMessage = vi.fn<(message: string) => void>();
  window.ReactNativeWebView = { postMessage };
  const sent = () => postMessage.mock.calls.map(([m]) => JSON.parse(m) as { type: string; payload: unknown });
  return { postMessage, sent };
}

describe('settings page', () => {
  it('shows the server version from /api/meta', async () => {
    const app = renderApp({ route: '/settings' });
    expect(await screen.findByRole('heading', { level: 1, name: '설정' })).toBeTruthy();
    expect(await within(screen.getByTestId('app-version')).findByText(TEST_META.version)).toBeTruthy();
    expect(app.fetchMock).toHaveBeenCalledWith('/api/meta', expect.objectContaining({ method: 'GET' }));
    expect(screen.getByTestId('current-language').textContent).toBe('한국어');
  });

  it('explains a failed load and retries', async () => {
    let fail = true;
    renderApp({
      route: '/settings',
      api: () =>
        fail
          ? jsonResponse({ code: 'internal_error', message: 'boom', request_id: 'r1' }, { status: 500 })
          : jsonResponse(TEST_META),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('앱 정보를 불러오지 못했습니다');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: '다시 시도' }));
    expect(await within(await screen.findByTestId('app-version')).findByText(TEST_META.version)).toBeTruthy();
  });

  it('has one button per bridge action and says it runs in a browser', async () => {
    renderApp({ route: '/settings' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    for (const type of BRIDGE_ACTION_TYPES) expect(screen.getByTestId(`bridge-${type}`)).toBeTruthy();
    expect(screen.getByTestId('bridge-status').textContent).toContain('브라우저에서 실행 중');
  });

  it('in the web view, posts each action to the app as JSON {type, payload}', async () => {
    const native = installNativeBridge();
    renderApp({ route: '/settings' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    expect(screen.getByTestId('bridge-status').textContent).toContain('Moat 앱 안에서 실행 중');

    fireEvent.click(screen.getByTestId('bridge-HAPTIC_FEEDBACK'));
    fireEvent.click(screen.getByTestId('bridge-NAVIGATE'));
    fireEvent.click(screen.getByTestId('bridge-LOCAL_STORAGE_SET'));
    fireEvent.click(screen.getByTestId('bridge-GO_BACK'));
    expect(native.sent()).toEqual([
      { type: 'HAPTIC_FEEDBACK', payload: { style: 'medium' } },
      { type: 'NAVIGATE', payload: { path: '/' } },
      { type: 'LOCAL_STORAGE_SET', payload: { key: 'MOAT_LOCALE', value: 'ko' } },
      { type: 'GO_BACK', payload: null },
    ]);
    // Inside the app the page stays put: the app does the navigating.
    expect(screen.getByRole('heading', { level: 1, name: '설정' })).toBeTruthy();
  });

  it('turns the loading indicator off again after a second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const native = installNativeBridge();
    renderApp({ route: '/settings' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    fireEvent.click(screen.getByTestId('bridge-LOADING'));
    expect(native.sent()).toEqual([{ type: 'LOADING', payload: { visible: true } }]);
    vi.advanceTimersByTime(1000);
    expect(native.sent()).toEqual([
      { type: 'LOADING', payload: { visible: true } },
      { type: 'LOADING', payload: { visible: false } },
    ]);
  });

  it('dims the app chrome while a route modal is open, in the web view', async () => {
    const native = installNativeBridge();
    renderApp({ route: '/settings' });
    fireEvent.click(await screen.findByTestId('settings-language'));
    await screen.findByTestId('modal-language');
    expect(native.sent()).toEqual([{ type: 'DIMMER_ON', payload: {} }]);
    fireEvent.keyDown(document, { key: 'Escape' });
    await vi.waitFor(() => expect(screen.queryByTestId('modal-language')).toBeNull());
    expect(native.sent().at(-1)).toEqual({ type: 'DIMMER_OFF', payload: null });
  });
});
