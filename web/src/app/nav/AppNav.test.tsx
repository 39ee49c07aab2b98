import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';

describe('the navigation on screen', () => {
  it('offers 전체 (All) as the last item, which lists every area and leaves its own history entry when one is chosen', async () => {
    const app = renderApp({ route: '/' });
    await screen.findByRole('heading', { level: 1, name: '오늘의 시장' });
    const nav = screen.getByRole('navigation', { name: '주요 메뉴' });
    const all = within(nav).getByRole('button', { name: '전체' });
    expect(all.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(all);
    const menu = await screen.findByRole('dialog', { name: '전체 메뉴' });
    expect(app.location().search).toBe('?menu=routeModalTrue');
    expect(within(menu).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['홈', '/'],
      ['포트폴리오', '/portfolios'],
      ['뉴스', '/news'],
      ['배당', '/dividends'],
      ['관심 종목', '/favorites'],
      ['설정', '/settings'],
    ]);
    expect(within(menu).getByRole('link', { name: '홈' }).getAttribute('aria-current')).toBe('page');

    fireEvent.click(within(menu).getByRole('link', { name: '설정' }));
    expect(await screen.findByRole('heading', { level: 1, name: '설정' })).toBeTruthy();
    expect(app.location().pathname).toBe('/settings');
    expect(app.location().search).toBe('');
    expect(screen.queryByRole('dialog', { name: '전체 메뉴' })).toBeNull();
  });

  it('shows 포트폴리오 and 배당 as tabs inside each other', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken());
    const app = renderApp({ route: '/dividends' });
    const tabs = await screen.findByRole('navigation', { name: '포트폴리오 메뉴' });
    const links = within(tabs).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')])).toEqual([
      ['포트폴리오', '/portfolios', null],
      ['배당', '/dividends', 'page'],
    ]);

    fireEvent.click(within(tabs).getByRole('link', { name: '포트폴리오' }));
    expect(await screen.findByRole('heading', { level: 1, name: '포트폴리오' })).toBeTruthy();
    expect(app.location().pathname).toBe('/portfolios');
    const after = screen.getByRole('navigation', { name: '포트폴리오 메뉴' });
    expect(within(after).getByRole('link', { name: '포트폴리오' }).getAttribute('aria-current')).toBe('page');
  });

  it('has no area tabs elsewhere', async () => {
    renderApp({ route: '/settings' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    expect(screen.queryByRole('navigation', { name: '포트폴리오 메뉴' })).toBeNull();
  });
});
