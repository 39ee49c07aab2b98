import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { renderApp } from '@/test/renderApp';

function setOnline(online: boolean) {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

describe('Shell', () => {
  it('renders the header and only the navigation items of areas that exist', async () => {
    renderApp();
    const nav = screen.getByRole('navigation', { name: '주요 메뉴' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['홈', '/'],
      ['포트폴리오', '/portfolios'],
      ['뉴스', '/news'],
      ['배당', '/dividends'],
      ['관심 종목', '/favorites'],
      ['설정', '/settings'],
    ]);
    expect(screen.getByRole('link', { name: 'Moat 홈' })).toHaveProperty('pathname', '/');
    expect(screen.getByTestId('open-language')).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 1, name: '오늘의 시장' })).toBeTruthy();
  });

  it('marks the current area in the navigation and moves between areas', async () => {
    const app = renderApp();
    await screen.findByRole('heading', { level: 1, name: '오늘의 시장' });
    expect(screen.getByTestId('nav-home').getAttribute('aria-current')).toBe('page');

    fireEvent.click(screen.getByTestId('nav-settings'));
    expect(await screen.findByRole('heading', { level: 1, name: '설정' })).toBeTruthy();
    expect(app.location().pathname).toBe('/settings');
    expect(screen.getByTestId('nav-settings').getAttribute('aria-current')).toBe('page');
    // The link is there; what is absent is its mark.
    // eslint-disable-next-line testing-library/prefer-presence-queries
    expect(screen.getByTestId('nav-home').getAttribute('aria-current')).toBeNull();
  });

  it('shows the 404 page, with a link home, for an unknown path', async () => {
    const app = renderApp({ route: '/no/such/page' });
    const notFound = await screen.findByTestId('not-found');
    expect(within(notFound).getByRole('heading', { name: '페이지를 찾을 수 없습니다' })).toBeTruthy();

    fireEvent.click(within(notFound).getByRole('link', { name: '홈으로 가기' }));
    expect(await screen.findByRole('heading', { level: 1, name: '오늘의 시장' })).toBeTruthy();
    expect(app.location().pathname).toBe('/');
  });

  it('shows an offline banner while the browser is offline', async () => {
    renderApp();
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('offline-banner')).toBeNull();

    setOnline(false);
    const banner = screen.getByTestId('offline-banner');
    expect(banner.getAttribute('role')).toBe('status');
    expect(banner.textContent).toContain('오프라인');

    setOnline(true);
    expect(screen.queryByTestId('offline-banner')).toBeNull();
  });

  it('keeps the page title and Open Graph tags in step with the route', async () => {
    renderApp({ route: '/settings' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    expect(document.title).toBe('설정 — Moat');
    const og = (p: string) => document.head.querySelector(`meta[property="${p}"]`)?.getAttribute('content');
    expect(og('og:title')).toBe('설정 — Moat');
    expect(og('og:description')).toBe('언어, 계정, 약관과 문의 등 Moat 설정.');
    // No public address configured (the server wrote no og:url): no absolute URL from
    // the page's own host, and a relative canonical link.
    const canonical = () => document.head.querySelector('link[rel="canonical"]')?.getAttribute('href');
    expect(og('og:url')).toBeUndefined();
    expect(canonical()).toBe('/settings');

    fireEvent.click(screen.getByTestId('nav-home'));
    await screen.findByRole('heading', { level: 1, name: '오늘의 시장' });
    expect(document.title).toBe('Moat — 모든 투자를 한곳에');
    expect(canonical()).toBe('/');
  });

  it('keeps og:url and the canonical link on the public address the server wrote', async () => {
    const tag = document.createElement('meta');
    tag.setAttribute('property', 'og:url');
    tag.content = 'https://moat.example/settings';
    document.head.append(tag);
    try {
      renderApp({ route: '/settings' });
      await screen.findByRole('heading', { level: 1, name: '설정' });
      fireEvent.click(screen.getByTestId('nav-home'));
      await screen.findByRole('heading', { level: 1, name: '오늘의 시장' });
      expect(document.head.querySelector('meta[property="og:url"]')?.getAttribute('content')).toBe('https://moat.example/');
      expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe('https://moat.example/');
    } finally {
      document.head.querySelectorAll('meta[property="og:url"]').forEach((m) => m.remove());
    }
  });

  it('shows a page in English, its own texts included, when English was chosen before', async () => {
    await act(() => setLocale('en'));
    renderApp({ route: '/' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Markets today' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeTruthy();
    expect(document.title).toBe('Moat — all your investing in one place');
    expect(document.documentElement.lang).toBe('en');
  });

  it('has an always-present live region for toasts', () => {
    renderApp();
    expect(screen.getByTestId('toast-area').getAttribute('aria-live')).toBe('polite');
  });
});
