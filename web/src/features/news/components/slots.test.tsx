import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import type { NewsList } from '../api/types';
import { article, newsList, NOW, OPERATOR } from '../lib/test-fixtures';
import { HomeNews, messagesReady, StockNews } from './slots';

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

const stories = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => article({ id: from + i, title: `기사 ${from + i}`, url: `https://example.com/${from + i}` }));

describe('a stock’s news (stock page slot)', () => {
  it('shows the instrument’s five newest articles, and five more on request', async () => {
    const api = marketApi({
      'GET /api/instruments/KRX%3A005930/news': (_call, url) => (url.searchParams.get('cursor') === 'c5' ? newsList(stories(6, 2)) : newsList(stories(1, 5), 'c5')),
    });
    renderApp({ ui: <StockNews instrumentId="KRX:005930" />, api: api.handler });
    const section = await screen.findByRole('region', { name: '뉴스' });
    const list = within(section).getByRole('list', { name: '뉴스' });
    expect(within(list).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['기사 1', '기사 2', '기사 3', '기사 4', '기사 5']);
    expect(api.find('GET', '/api/instruments/')[0]!.path).toBe('/api/instruments/KRX%3A005930/news?limit=5');

    fireEvent.click(within(section).getByRole('button', { name: '더 보기' }));
    expect(await within(list).findByRole('link', { name: '기사 7' })).toBeTruthy();
    expect(within(section).queryByRole('button', { name: '더 보기' })).toBeNull();
  });

  it('renders nothing when no article names the instrument', async () => {
    const api = marketApi({ 'GET /api/instruments/KRX%3A005930/news': () => newsList([]) });
    const { container, queryClient } = renderApp({ ui: <StockNews instrumentId="KRX:005930" />, api: api.handler });
    await waitFor(() => expect(queryClient.getQueryState(['news', 'instrument', 'KRX:005930'])?.status).toBe('success'));
    expect(container.textContent).toBe('');
  });
});

describe('home’s top stories (home slot)', () => {
  const homeApi = (answer: NewsList, me?: unknown) =>
    marketApi({ 'GET /api/news': () => answer, ...(me ? { 'GET /api/me': () => me } : {}) });

  it('shows the chosen country’s five newest stories and the way to the news page', async () => {
    window.localStorage.setItem('MOAT_NEWS_COUNTRY', 'US');
    const api = homeApi(newsList(stories(1, 5)));
    renderApp({ ui: <HomeNews />, api: api.handler });
    const section = await screen.findByRole('region', { name: '주요 뉴스' });
    expect(await within(section).findAllByRole('heading', { level: 3 })).toHaveLength(5);
    expect(within(section).getByRole('link', { name: '뉴스 더보기' }).getAttribute('href')).toBe('/news');
    expect(api.find('GET', '/api/news')[0]!.path).toBe('/api/news?country=US&limit=5');
  });

  it('says so when the feeds cannot be reached and nothing arrived', async () => {
    renderApp({ ui: <HomeNews />, api: homeApi(newsList([], null, { state: 'unreachable', last_success_at: null })).handler });
    const section = await screen.findByRole('region', { name: '주요 뉴스' });
    expect(await within(section).findByText('뉴스 피드에 연결할 수 없어요')).toBeTruthy();
    expect(within(section).getByText('마지막 수신: 아직 없음')).toBeTruthy();
  });

  it('shows no empty card while news is not set up, except to operators, who get the way to set it up', async () => {
    const notConfigured = newsList([], null, { state: 'not_configured', last_success_at: null });
    const visitor = homeApi(notConfigured);
    const first = renderApp({ ui: <HomeNews />, api: visitor.handler });
    await waitFor(() => expect(visitor.find('GET', '/api/news')).toHaveLength(1));
    await waitFor(() => expect(first.container.textContent).toBe(''));
    first.unmount();

    window.localStorage.setItem('AUTH_TOKEN', makeToken());
    renderApp({ ui: <HomeNews />, api: homeApi(notConfigured, OPERATOR).handler });
    const section = await screen.findByRole('region', { name: '주요 뉴스' });
    expect(await within(section).findByText('뉴스가 아직 설정되지 않았어요')).toBeTruthy();
    expect(within(section).getByRole('link', { name: '뉴스 피드 설정하기' }).getAttribute('href')).toBe('/operator/news');
  });
});
