import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { resetLiveStream } from '@/shared/stream/stream';
import { FakeWebSocket, marketApi, quote } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import type { NewsList } from '../api/types';
import { article, newsList, NOW, OPERATOR, SAMSUNG_LINK } from '../lib/test-fixtures';
import { messagesReady } from './NewsPage';

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => resetLiveStream());

const FIRST = article({
  id: 101,
  source_count: 3,
  published_at: '2026-11-28T02:55:00Z',
  image_url: '/media/news/ab12.jpg',
  instruments: [SAMSUNG_LINK],
});
const SECOND = article({ id: 102, title: '美 연준, 금리 동결 시사', source: '한국경제', published_at: '2026-11-27T22:00:00Z' });
const US_STORY = article({ id: 201, title: 'Apple shares rise after earnings', source: 'Reuters', country: 'US', language: 'en' });

/** A news API: `/api/news` answers `pages[country][cursor]`; quotes for the chips. */
function newsApi(pages: Record<string, Record<string, NewsList>>, me?: unknown) {
  return marketApi({
    'GET /api/news': (_call, url) => pages[url.searchParams.get('country') ?? '']?.[url.searchParams.get('cursor') ?? ''] ?? newsList([]),
    'GET /api/instruments/KRX%3A005930/quote': () => quote(),
    ...(me ? { 'GET /api/me': () => me } : {}),
  });
}

describe('the news page', () => {
  it('lists Korea’s newest articles: title, outlets, how long ago, thumbnail and live chips', async () => {
    const api = newsApi({ KR: { '': newsList([FIRST, SECOND]) } });
    renderApp({ route: '/news', api: api.handler });
    expect(await screen.findByRole('heading', { level: 1, name: '뉴스' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: '기사 목록' });
    const rows = within(list).getAllByRole('listitem').filter((li) => li.classList.contains('news-row'));
    expect(rows).toHaveLength(2);

    const title = within(rows[0]!).getByRole('link', { name: FIRST.title });
    expect(title.getAttribute('href')).toBe('/news/101');
    expect(rows[0]!.textContent).toContain('연합뉴스 외 2곳');
    expect(rows[0]!.textContent).toContain('5분 전');
    expect(rows[1]!.textContent).toContain('5시간 전');
    expect(rows[1]!.textContent).not.toContain('곳');

    // A thumbnail of fixed size, loaded lazily, decorative.
    const img = rows[0]!.querySelector('img')!;
    expect([img.getAttribute('src'), img.getAttribute('width'), img.getAttribute('height'), img.getAttribute('loading'), img.getAttribute('alt')]).toEqual([
      '/media/news/ab12.jpg',
      '72',
      '72',
      'lazy',
      '',
    ]);
    expect(rows[1]!.querySelector('img')).toBeNull();

    // The instrument with its change, red (up) in Korean, opening its stock page.
    const chip = await within(rows[0]!).findByRole('link', { name: '삼성전자 +1.71%' });
    expect(chip.getAttribute('href')).toBe('/stocks/KRX%3A005930');
    expect(within(chip).getByText('+1.71%').className).toContain('market-up');

    expect(api.find('GET', '/api/news')[0]!.path).toBe('/api/news?country=KR&limit=20');
  }, 15_000);

  it('switches to 해외 and keeps the choice for the next visit', async () => {
    const api = newsApi({ KR: { '': newsList([FIRST]) }, US: { '': newsList([US_STORY]) } });
    const first = renderApp({ route: '/news', api: api.handler });
    await screen.findByRole('link', { name: FIRST.title });
    const countries = screen.getByRole('group', { name: '지역' });
    expect(within(countries).getByRole('button', { name: '국내' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(within(countries).getByRole('button', { name: '해외' }));
    expect(await screen.findByRole('link', { name: US_STORY.title })).toBeTruthy();
    expect(screen.queryByRole('link', { name: FIRST.title })).toBeNull();
    expect(window.localStorage.getItem('MOAT_NEWS_COUNTRY')).toBe('US');
    first.unmount();

    const again = newsApi({ KR: { '': newsList([FIRST]) }, US: { '': newsList([US_STORY]) } });
    renderApp({ route: '/news', api: again.handler });
    expect(await screen.findByRole('link', { name: US_STORY.title })).toBeTruthy();
    expect(screen.getByRole('button', { name: '해외' }).getAttribute('aria-pressed')).toBe('true');
    expect(again.find('GET', '/api/news').map((c) => c.path)).toEqual(['/api/news?country=US&limit=20']);
  });

  it('loads the next page with 더 보기 (the fallback of loading on scroll)', async () => {
    const api = newsApi({ KR: { '': newsList([FIRST], 'c1'), c1: newsList([SECOND]) } });
    renderApp({ route: '/news', api: api.handler });
    fireEvent.click(await screen.findByRole('button', { name: '더 보기' }));
    expect(await screen.findByRole('link', { name: SECOND.title })).toBeTruthy();
    expect(screen.getByRole('link', { name: FIRST.title })).toBeTruthy();
    expect(api.find('GET', '/api/news').at(-1)!.path).toBe('/api/news?country=KR&cursor=c1&limit=20');
    // The last page: nothing more to load.
    expect(screen.queryByRole('button', { name: '더 보기' })).toBeNull();
  });

  it('says news is not set up, and shows operators where to set it up', async () => {
    const notConfigured = { KR: { '': newsList([], null, { state: 'not_configured', last_success_at: null }) } };
    const visitor = renderApp({ route: '/news', api: newsApi(notConfigured).handler });
    expect(await screen.findByText('뉴스가 아직 설정되지 않았어요')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '뉴스 피드 설정하기' })).toBeNull();
    visitor.unmount();

    window.localStorage.setItem('AUTH_TOKEN', makeToken());
    renderApp({ route: '/news', api: newsApi(notConfigured, OPERATOR).handler });
    const setUp = await screen.findByRole('link', { name: '뉴스 피드 설정하기' });
    expect(setUp.getAttribute('href')).toBe('/operator/news');
  });

  it('says the feeds cannot be reached, with when news last arrived', async () => {
    const unreachable = (last: string | null) => ({ KR: { '': newsList([], null, { state: 'unreachable', last_success_at: last }) } });
    const first = renderApp({ route: '/news', api: newsApi(unreachable('2026-11-27T09:30:00Z')).handler });
    expect(await screen.findByText('뉴스 피드에 연결할 수 없어요')).toBeTruthy();
    expect(screen.getByText(/^마지막 수신: 2026년 11월 27일/)).toBeTruthy();
    first.unmount();

    renderApp({ route: '/news', api: newsApi(unreachable(null)).handler });
    expect(await screen.findByText('마지막 수신: 아직 없음')).toBeTruthy();
  });

  it('says there is nothing yet rather than showing a blank list', async () => {
    renderApp({ route: '/news', api: newsApi({ KR: { '': newsList([]) } }).handler });
    expect(await screen.findByText('아직 기사가 없어요')).toBeTruthy();
    expect(screen.queryByRole('list', { name: '기사 목록' })).toBeNull();
  });

  it('counts new articles announced live, and shows them at the top when the pill is pressed', async () => {
    const pages = { KR: { '': newsList([FIRST]) } };
    const api = newsApi(pages);
    renderApp({ route: '/news', api: api.handler });
    await screen.findByRole('link', { name: FIRST.title });
    const socket = FakeWebSocket.latest!;
    act(() => socket.open());
    expect(socket.frames('subscribe').flat()).toContain('news:KR');
    expect(screen.queryByRole('button', { name: /새 기사/ })).toBeNull();

    const fresh = article({ id: 103, title: '코스피 2,600선 회복', published_at: '2026-11-28T02:59:40Z' });
    act(() => {
      socket.push({ op: 'new', topic: 'news:KR', seq: 7, data: { id: 103, country: 'KR', instrument_ids: [] } });
      socket.push({ op: 'new', topic: 'news:KR', seq: 8, data: { id: 104, country: 'KR', instrument_ids: [] } });
    });
    const pill = await screen.findByRole('button', { name: '새 기사 2건' });
    // The list does not change under the reader's eyes.
    expect(screen.queryByRole('link', { name: fresh.title })).toBeNull();

    pages.KR[''] = newsList([fresh, FIRST]);
    const calls = api.find('GET', '/api/news').length;
    fireEvent.click(pill);
    expect(await screen.findByRole('link', { name: fresh.title })).toBeTruthy();
    expect(api.find('GET', '/api/news')).toHaveLength(calls + 1);
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, behavior: 'smooth' });
    expect(screen.getByRole('link', { name: fresh.title }).closest('li')!.textContent).toContain('방금');
    await waitFor(() => expect(screen.queryByRole('button', { name: /새 기사/ })).toBeNull());
  });

  it('refreshes with its button', async () => {
    const pages = { KR: { '': newsList([FIRST]) } };
    const api = newsApi(pages);
    renderApp({ route: '/news', api: api.handler });
    await screen.findByRole('link', { name: FIRST.title });
    pages.KR[''] = newsList([SECOND, FIRST]);
    fireEvent.click(screen.getByRole('button', { name: '새로고침' }));
    expect(await screen.findByRole('link', { name: SECOND.title })).toBeTruthy();
  });

  it('loads the next page as the end of the list scrolls into view', async () => {
    const observers: { callback: IntersectionObserverCallback; targets: Element[] }[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        private readonly entry: { callback: IntersectionObserverCallback; targets: Element[] };
        constructor(callback: IntersectionObserverCallback) {
          this.entry = { callback, targets: [] };
          observers.push(this.entry);
        }
        observe(target: Element) {
          this.entry.targets.push(target);
        }
        disconnect() {
          this.entry.targets = [];
        }
      },
    );
    const api = newsApi({ KR: { '': newsList([FIRST], 'c1'), c1: newsList([SECOND]) } });
    renderApp({ route: '/news', api: api.handler });
    await screen.findByRole('link', { name: FIRST.title });
    const watching = observers.filter((o) => o.targets.length > 0);
    expect(watching).toHaveLength(1);
    expect(api.find('GET', '/api/news')).toHaveLength(1);
    act(() => watching[0]!.callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver));
    expect(await screen.findByRole('link', { name: SECOND.title })).toBeTruthy();
    expect(api.find('GET', '/api/news').at(-1)!.path).toContain('cursor=c1');
  });

  it('speaks English too', async () => {
    await act(() => setLocale('en'));
    renderApp({ route: '/news', api: newsApi({ KR: { '': newsList([FIRST, SECOND]) } }).handler });
    expect(await screen.findByRole('heading', { level: 1, name: 'News' })).toBeTruthy();
    const row = (await screen.findByRole('link', { name: FIRST.title })).closest('li')!;
    expect(row.textContent).toContain('연합뉴스 +2 more');
    expect(row.textContent).toContain('5 minutes ago');
    expect(await within(row).findByRole('link', { name: 'Samsung Electronics +1.71%' })).toBeTruthy();
    const countries = screen.getByRole('group', { name: 'Region' });
    expect(within(countries).getAllByRole('button').map((b) => b.textContent)).toEqual(['Korea', 'Global']);

    const socket = FakeWebSocket.latest!;
    act(() => socket.open());
    act(() => socket.push({ op: 'new', topic: 'news:KR', seq: 3, data: { id: 9, country: 'KR', instrument_ids: [] } }));
    expect(await screen.findByRole('button', { name: 'New articles: 1' })).toBeTruthy();
  });
});
