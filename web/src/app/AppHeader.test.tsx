import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';

/** What the header offers, in order: each link's or button's name. */
function headerItems() {
  const banner = within(screen.getByRole('banner'));
  return [...banner.getAllByRole('link'), ...banner.queryAllByRole('button')]
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
    .map((el) => el.getAttribute('aria-label') ?? el.textContent);
}

describe('the header, assembled from the areas’ items', () => {
  it('offers the wordmark, then search, log-in and the language', async () => {
    renderApp({ route: '/settings' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    expect(headerItems()).toEqual(['Moat 홈', '종목 검색', '로그인', '언어 변경']);
    expect(within(screen.getByRole('banner')).getByRole('link', { name: '로그인' }).getAttribute('href')).toBe('/login?next=%2Fsettings');
  });

  it('names the member instead of the log-in link', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ nickname: '개미' }));
    renderApp({ route: '/settings' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    expect(headerItems()).toEqual(['Moat 홈', '종목 검색', '내 계정: 개미', '언어 변경']);
  });
});
