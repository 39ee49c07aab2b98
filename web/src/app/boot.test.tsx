import { act, fireEvent, screen } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';

const openInExternalBrowser = vi.fn();
const installDelayedScripts = vi.fn();
const installAutoReload = vi.fn();

vi.mock('@/shared/lib/kakao', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/shared/lib/kakao')>()),
  openInExternalBrowser: () => openInExternalBrowser(),
}));
vi.mock('@/shared/lib/delayed-scripts', () => ({ installDelayedScripts: () => installDelayedScripts() }));
vi.mock('@/shared/lib/auto-reload', () => ({ installAutoReload: () => installAutoReload() }));

const { boot } = await import('./boot');

const KAKAOTALK_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-S921N; wv) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131 Mobile Safari/537.36;KAKAOTALK 2410200';

describe('boot', () => {
  let container: HTMLElement;
  let root: Root | undefined;

  afterEach(() => {
    act(() => root?.unmount());
    container?.remove();
    vi.clearAllMocks();
  });

  it('in KakaoTalk, hands off to the external browser and shows the fallback view with a retry', async () => {
    container = document.body.appendChild(document.createElement('div'));
    root = await act(() => boot(container, KAKAOTALK_UA));

    expect(installDelayedScripts).toHaveBeenCalledOnce();
    expect(installAutoReload).toHaveBeenCalledOnce();
    expect(openInExternalBrowser).toHaveBeenCalledOnce();
    const fallback = await screen.findByTestId('kakao-fallback');
    expect(screen.getByTestId('kakao-fallback-url').textContent).toBe(window.location.href);
    expect(fallback.textContent).toContain('외부 브라우저');
    expect(fallback.textContent).toContain('Please open Moat in your browser');
    expect(container.querySelector('.shell')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: '외부 브라우저로 열기 / Open in browser' }));
    expect(openInExternalBrowser).toHaveBeenCalledTimes(2);
  });

  it('elsewhere, renders the app', async () => {
    container = document.body.appendChild(document.createElement('div'));
    vi.stubGlobal('fetch', vi.fn(() => new Promise(() => {})));
    root = await act(() => boot(container, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131'));
    expect(openInExternalBrowser).not.toHaveBeenCalled();
    expect(await screen.findByTestId('app-nav')).toBeTruthy();
    expect(screen.queryByTestId('kakao-fallback')).toBeNull();
  });
});
