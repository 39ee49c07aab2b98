import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/fetch';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import type { Feed, FeedInput } from '../api/types';
import { feed, MEMBER, NOW, OPERATOR } from '../lib/test-fixtures';
import { messagesReady } from './FeedsPage';

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  window.localStorage.setItem('AUTH_TOKEN', makeToken());
});

afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

/** The operator's feeds API over an in-memory list. */
function feedsApi({ feeds = [feed()], defaults = 0, me = OPERATOR }: { feeds?: Feed[]; defaults?: number; me?: unknown } = {}) {
  const state = { feeds: [...feeds], defaults };
  const api = marketApi({
    'GET /api/me': () => me,
    'GET /api/admin/news/feeds': () => ({ feeds: state.feeds, defaults_available: state.defaults }),
    'POST /api/admin/news/feeds': (call) => {
      const input = call.body as FeedInput;
      if (!/^https?:\/\//.test(input.url)) {
        return jsonResponse(
          {
            code: 'invalid_input',
            message: 'Some fields are not valid.',
            fields: { url: { code: 'invalid_feed_url', params: {}, message: 'not http(s)' } },
            request_id: 't',
          },
          { status: 422 },
        );
      }
      if (state.feeds.some((f) => f.url === input.url)) {
        return jsonResponse({ code: 'news_feed_exists', message: 'exists', request_id: 't' }, { status: 409 });
      }
      const created = feed({ ...input, country: input.country as Feed['country'], id: state.feeds.length + 10, is_default: false, status: 'pending', last_fetch_at: null, last_success_at: null, items_total: 0, items_last_fetch: 0 });
      state.feeds.push(created);
      return jsonResponse(created, { status: 201 });
    },
    'PATCH /api/admin/news/feeds/1': (call) => {
      state.feeds[0] = { ...state.feeds[0]!, ...(call.body as Partial<Feed>) };
      if (state.feeds[0].enabled === false) state.feeds[0].status = 'disabled';
      return state.feeds[0];
    },
    'DELETE /api/admin/news/feeds/1': () => {
      state.feeds = state.feeds.filter((f) => f.id !== 1);
      return new Response(null, { status: 204 });
    },
    'POST /api/admin/news/feeds/1/fetch': () => ({ feed: { ...state.feeds[0]!, items_last_fetch: 7 }, new_articles: 5, merged: 2 }),
    'POST /api/admin/news/feeds/defaults': () => {
      const added = [feed({ id: 20, source_name: '한국경제', url: 'https://www.hankyung.com/feed/all-news' })];
      state.feeds.push(...added);
      state.defaults = 0;
      return { added: added.length, feeds: state.feeds };
    },
  });
  return { ...api, state };
}

const feedCard = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('li')!;

describe('the operator’s news feeds', () => {
  it('lists each feed with its status, schedule and counts', async () => {
    const failing = feed({ id: 2, source_name: 'Reuters', url: 'https://example.com/rss', country: 'US', language: 'en', is_default: false, status: 'error', last_error: 'HTTP 503 Service Unavailable', error_count: 4 });
    renderApp({ route: '/operator/news', api: feedsApi({ feeds: [feed(), failing] }).handler });
    expect(await screen.findByRole('heading', { level: 1, name: '뉴스 피드' }, { timeout: 10_000 })).toBeTruthy();
    const list = await screen.findByRole('list', { name: '피드 목록' });
    expect(within(list).getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['연합뉴스', 'Reuters']);

    const ok = feedCard('연합뉴스');
    expect(within(ok).getByText('정상')).toBeTruthy();
    expect(within(ok).getByText('기본')).toBeTruthy();
    expect(within(ok).getByText('https://www.yna.co.kr/rss/news.xml')).toBeTruthy();
    expect(within(ok).getByText('1,520 / 12')).toBeTruthy();
    expect(within(ok).getByText('(15분마다)')).toBeTruthy();
    expect((within(ok).getByRole('checkbox', { name: '연합뉴스 사용' }) as HTMLInputElement).checked).toBe(true);

    const bad = feedCard('Reuters');
    expect(within(bad).getByText('오류')).toBeTruthy();
    expect(within(bad).getByText('HTTP 503 Service Unavailable')).toBeTruthy();
    expect(within(bad).getByText('해외')).toBeTruthy();
    expect(within(bad).getByText('영어')).toBeTruthy();
  }, 15_000);

  it('adds a feed, showing the server’s refusals at the URL field', async () => {
    const api = feedsApi();
    renderApp({ route: '/operator/news', api: api.handler });
    fireEvent.click(await screen.findByRole('button', { name: '피드 추가' }));
    const form = screen.getByRole('form', { name: '피드 추가' });
    fireEvent.change(within(form).getByLabelText('피드 주소'), { target: { value: 'ftp://example.com/feed' } });
    fireEvent.change(within(form).getByLabelText('언론사 이름'), { target: { value: 'Example' } });
    fireEvent.change(within(form).getByLabelText('지역'), { target: { value: 'US' } });
    fireEvent.change(within(form).getByLabelText('언어'), { target: { value: 'en' } });
    fireEvent.click(within(form).getByRole('button', { name: '저장' }));

    const url = within(form).getByLabelText('피드 주소');
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText(/http 또는 https로 시작하는 피드 주소/)).toBeTruthy();

    // Already there: 409 news_feed_exists, at the same field.
    fireEvent.change(url, { target: { value: 'https://www.yna.co.kr/rss/news.xml' } });
    fireEvent.click(within(form).getByRole('button', { name: '저장' }));
    expect(await within(form).findByText('이미 추가된 피드 주소입니다.')).toBeTruthy();

    fireEvent.change(url, { target: { value: 'https://example.com/feed.xml' } });
    fireEvent.click(within(form).getByRole('button', { name: '저장' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Example' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: '피드 추가' })).toBeNull();
    expect(api.find('POST', '/api/admin/news/feeds').at(-1)!.body).toEqual({
      url: 'https://example.com/feed.xml',
      source_name: 'Example',
      country: 'US',
      language: 'en',
      enabled: true,
    });
    expect(within(feedCard('Example')).getByText('대기')).toBeTruthy();
  });

  it('edits a feed', async () => {
    const api = feedsApi();
    renderApp({ route: '/operator/news', api: api.handler });
    fireEvent.click(await screen.findByRole('button', { name: '연합뉴스 편집' }));
    const form = screen.getByRole('form', { name: '연합뉴스 편집' });
    expect((within(form).getByLabelText('피드 주소') as HTMLInputElement).value).toBe('https://www.yna.co.kr/rss/news.xml');
    fireEvent.change(within(form).getByLabelText('언론사 이름'), { target: { value: '연합뉴스 경제' } });
    fireEvent.click(within(form).getByRole('button', { name: '저장' }));
    expect(await screen.findByRole('heading', { level: 2, name: '연합뉴스 경제' })).toBeTruthy();
    expect(api.find('PATCH', '/api/admin/news/feeds/1')[0]!.body).toMatchObject({ source_name: '연합뉴스 경제', url: 'https://www.yna.co.kr/rss/news.xml' });
  });

  it('fetches a feed now and says what came in', async () => {
    renderApp({ route: '/operator/news', api: feedsApi().handler });
    fireEvent.click(await screen.findByRole('button', { name: '연합뉴스 지금 가져오기' }));
    expect(await within(feedCard('연합뉴스')).findByText('새 기사 5건, 병합 2건')).toBeTruthy();
  });

  it('switches a feed off, and deletes it after a confirmation', async () => {
    const api = feedsApi();
    renderApp({ route: '/operator/news', api: api.handler });
    fireEvent.click(await screen.findByRole('checkbox', { name: '연합뉴스 사용' }));
    expect(await within(feedCard('연합뉴스')).findByText('꺼짐')).toBeTruthy();
    expect(api.find('PATCH', '/api/admin/news/feeds/1')[0]!.body).toEqual({ enabled: false });

    fireEvent.click(screen.getByRole('button', { name: '연합뉴스 삭제' }));
    const confirm = screen.getByRole('alertdialog', { name: '연합뉴스 삭제' });
    expect(api.find('DELETE', '/api/admin/news/feeds/1')).toHaveLength(0);
    fireEvent.click(within(confirm).getByRole('button', { name: '삭제' }));
    expect(await screen.findByText('아직 피드가 없어요.')).toBeTruthy();
    expect(api.find('DELETE', '/api/admin/news/feeds/1')).toHaveLength(1);
  });

  it('offers the default feeds while some are not added, saying it contacts the outlets', async () => {
    const api = feedsApi({ feeds: [], defaults: 14 });
    renderApp({ route: '/operator/news', api: api.handler });
    const card = await screen.findByRole('region', { name: '기본 피드' });
    expect(within(card).getByText(/각 언론사의 서버에 접속해/)).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: '기본 피드 사용하기 (14개)' }));
    expect(await screen.findByRole('heading', { level: 2, name: '한국경제' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: '기본 피드' })).toBeNull();
    expect(screen.getAllByText('기본 피드 1개를 추가했어요.').length).toBeGreaterThan(0);
    expect(api.find('POST', '/api/admin/news/feeds/defaults')).toHaveLength(1);
  });

  it('is for operators only', async () => {
    const api = feedsApi({ me: MEMBER });
    renderApp({ route: '/operator/news', api: api.handler });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', '운영자만 볼 수 있는 화면입니다.');
    expect(api.find('GET', '/api/admin/news/feeds')).toHaveLength(0);
  });
});
