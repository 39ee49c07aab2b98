import { fireEvent, screen, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import type { NewsSearch } from '../api/types';
import { article, NOW, OK } from '../lib/test-fixtures';
import { messagesReady } from './SearchPage';

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

const storedRecent = () => JSON.parse(window.localStorage.getItem('MOAT_NEWS_RECENT_SEARCHES') ?? 'null') as string[] | null;

function search(items = [article()], terms: string[] = ['삼성전자'], next_cursor: string | null = null): NewsSearch {
  return { items, next_cursor, terms, status: OK };
}

/** `/api/news/search` answers `answers[q]` (no results otherwise). */
function searchApi(answers: Record<string, NewsSearch>) {
  return marketApi({
    'GET /api/news/search': (_call, url) => answers[url.searchParams.get('q') ?? ''] ?? search([], []),
  });
}

const submit = (query: string) => {
  const box = screen.getByRole('searchbox', { name: '뉴스 검색' });
  fireEvent.change(box, { target: { value: query } });
  fireEvent.submit(box.closest('form')!);
};

const recentList = () => screen.queryByRole('list', { name: '최근 검색' });
const recentQueries = () => within(recentList()!).getAllByRole('listitem').map((li) => li.querySelector('button')!.textContent);

describe('news search', () => {
  it('searches when submitted, records the search, and marks the matched words in titles and summaries', async () => {
    const api = searchApi({ 삼성전자가: search([article()], ['삼성전자']) });
    const app = renderApp({ route: '/news/search', api: api.handler });
    await screen.findByRole('searchbox', { name: '뉴스 검색' }, { timeout: 10_000 });
    submit('삼성전자가');
    const results = await screen.findByRole('list', { name: '검색 결과' });
    expect(app.location().search).toBe(`?q=${encodeURIComponent('삼성전자가')}`);
    expect(storedRecent()).toEqual(['삼성전자가']);

    const row = within(results).getAllByRole('listitem')[0]!;
    const marks = [...row.querySelectorAll('mark')].map((m) => m.textContent);
    // Once in the title, once in the summary.
    expect(marks).toEqual(['삼성전자', '삼성전자']);
    expect(row.querySelector('h3 mark')).toBeTruthy();
    expect(row.querySelector('.news-row__summary mark')).toBeTruthy();
    expect(api.find('GET', '/api/news/search')[0]!.path).toBe(`/api/news/search?q=${encodeURIComponent('삼성전자가')}&limit=20`);
  }, 15_000);

  it('takes terms with regex characters literally, and never as HTML', async () => {
    const tricky = article({ id: 7, title: 'C++ 개발자 채용 (주)모앗 <b>굵게</b>', summary: 'c++과 (주)' });
    renderApp({ route: '/news/search?q=c%2B%2B', api: searchApi({ 'c++': search([tricky], ['c++', '(']) }).handler });
    const results = await screen.findByRole('list', { name: '검색 결과' });
    const title = within(results).getByRole('heading', { level: 3 });
    expect([...title.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['C++', '(']);
    expect(title.textContent).toBe('C++ 개발자 채용 (주)모앗 <b>굵게</b>');
    expect(title.querySelector('b')).toBeNull();
  });

  it('filters by country', async () => {
    const api = searchApi({ 반도체: search([article()], ['반도체']) });
    const app = renderApp({ route: '/news/search?q=반도체', api: api.handler });
    await screen.findByRole('list', { name: '검색 결과' });
    fireEvent.click(within(screen.getByRole('group', { name: '지역' })).getByRole('button', { name: '해외' }));
    await screen.findByRole('list', { name: '검색 결과' });
    expect(new URLSearchParams(app.location().search).get('country')).toBe('US');
    expect(api.find('GET', '/api/news/search').at(-1)!.path).toContain('country=US');
  });

  it('says when nothing matched', async () => {
    renderApp({ route: '/news/search?q=없는말', api: searchApi({}).handler });
    expect(await screen.findByText("'없는말'에 대한 기사가 없어요")).toBeTruthy();
  });

  it('records a search when one of its results is opened', async () => {
    renderApp({ route: '/news/search?q=삼성전자', api: searchApi({ 삼성전자: search() }).handler });
    const results = await screen.findByRole('list', { name: '검색 결과' });
    expect(storedRecent()).toBeNull();
    fireEvent.click(within(results).getByRole('link', { name: /4분기 영업이익/ }));
    expect(storedRecent()).toEqual(['삼성전자']);
  });

  it('lists recent searches newest first, once each, at most ten', async () => {
    window.localStorage.setItem('MOAT_NEWS_RECENT_SEARCHES', JSON.stringify(['반도체', '금리']));
    renderApp({ route: '/news/search', api: searchApi({}).handler });
    await screen.findByRole('list', { name: '최근 검색' });
    expect(recentQueries()).toEqual(['반도체', '금리']);

    // A repeated search moves to the top rather than showing twice.
    submit('금리');
    await screen.findByText("'금리'에 대한 기사가 없어요");
    expect(storedRecent()).toEqual(['금리', '반도체']);
    // Nine more: the oldest falls off the end.
    for (let i = 1; i <= 9; i += 1) submit(`검색${i}`);
    const stored = storedRecent()!;
    expect(stored).toHaveLength(10);
    expect(stored.slice(0, 2)).toEqual(['검색9', '검색8']);
    expect(stored.at(-1)).toBe('금리');
    expect(stored).not.toContain('반도체');
  });

  it('removes one recent search, then all of them', async () => {
    window.localStorage.setItem('MOAT_NEWS_RECENT_SEARCHES', JSON.stringify(['반도체', '금리', '환율']));
    renderApp({ route: '/news/search', api: searchApi({}).handler });
    await screen.findByRole('list', { name: '최근 검색' });
    fireEvent.click(screen.getByRole('button', { name: '금리 삭제' }));
    expect(recentQueries()).toEqual(['반도체', '환율']);
    expect(storedRecent()).toEqual(['반도체', '환율']);

    // Picking one searches it and moves it to the top.
    fireEvent.click(within(recentList()!).getByRole('button', { name: '환율' }));
    await screen.findByText("'환율'에 대한 기사가 없어요");
    expect(storedRecent()).toEqual(['환율', '반도체']);
  });

  it('clears every recent search', async () => {
    window.localStorage.setItem('MOAT_NEWS_RECENT_SEARCHES', JSON.stringify(['반도체', '금리']));
    renderApp({ route: '/news/search', api: searchApi({}).handler });
    await screen.findByRole('list', { name: '최근 검색' });
    fireEvent.click(screen.getByRole('button', { name: '전체 삭제' }));
    expect(recentList()).toBeNull();
    expect(screen.getByText('최근 검색어가 없어요')).toBeTruthy();
    expect(storedRecent()).toBeNull();
  });
});
