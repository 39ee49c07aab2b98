import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { portfolioList } from '@/features/portfolio/lib/test-fixtures';
import { resetLiveStream } from '@/shared/stream/stream';
import { AAPL, detail, FakeWebSocket, HYNIX, instrument, marketApi, overview, quote } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';

const SAMSUNG = instrument();

const TOP_STORY = {
  id: 1,
  title: '코스피, 외국인 매수에 2,600선 회복',
  summary: '',
  url: 'https://www.yna.co.kr/view/1',
  source: '연합뉴스',
  source_count: 1,
  published_at: '2026-11-28T00:30:00Z',
  country: 'KR',
  language: 'ko',
  image_url: null,
  instruments: [],
};

/** The API a member's home asks: the overview, favourites, quotes, recently viewed stocks, portfolios. */
function homeApi(portfolios: unknown = portfolioList('original')) {
  return marketApi({
    'GET /api/market/overview': () => overview(),
    'GET /api/me/favorites': () => [SAMSUNG, AAPL],
    'GET /api/instruments/KRX%3A005930/quote': () => quote(),
    'GET /api/instruments/NASDAQ%3AAAPL/quote': () => quote({ instrument_id: AAPL.id, price: '189.43' }),
    'GET /api/instruments/KRX%3A000660': () => detail(HYNIX, { price: '190000' }),
    'GET /api/portfolios': () => portfolios,
    'GET /api/news': () => ({
      items: [TOP_STORY],
      next_cursor: null,
      status: { state: 'ok', last_success_at: '2026-11-28T01:00:00Z' },
    }),
  });
}

const sectionTitles = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);

beforeEach(() => {
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => {
  resetLiveStream();
});

describe('home, assembled from the areas’ sections', () => {
  it('shows a member’s money first, then the market, favourites, movers and recently viewed stocks', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken());
    window.localStorage.setItem('MOAT_RECENT_STOCKS_2', JSON.stringify(['KRX:000660']));
    renderApp({ route: '/', api: homeApi().handler });
    const money = await screen.findByRole('region', { name: '내 자산' });
    await waitFor(() => expect(sectionTitles()).toEqual(['내 자산', '지수·환율', '관심 종목', '급등·급락', '주요 뉴스', '최근 본 종목']));

    // Every portfolio combined, in the currency mode of the portfolio screens (original: won).
    expect(await within(money).findByText('₩18,175,000')).toBeTruthy();
    expect(within(money).getByText('총 평가금액')).toBeTruthy();
    expect(within(money).getByText('오늘 손익')).toBeTruthy();
    expect(within(money).getByText('총 수익률')).toBeTruthy();
    expect(within(money).getByText('+₩85,240')).toBeTruthy();
    expect(within(money).getByText('+0.47%')).toBeTruthy();
    expect(within(money).getByText('+6.25%')).toBeTruthy();
    // Each portfolio at a glance: its name, value and return; a tap opens it.
    const list = within(money).getByRole('list', { name: '내 포트폴리오' });
    const rows = within(list).getAllByRole('link');
    expect(rows.map((r) => r.getAttribute('href'))).toEqual(['/portfolios/7', '/portfolios/9']);
    expect(rows[0]!.textContent).toContain('키움 메인');
    expect(rows[1]!.textContent).toContain('US growth');
    expect(rows[1]!.textContent).toContain('-2.35%');
    expect(within(money).getByRole('link', { name: '포트폴리오 보기' }).getAttribute('href')).toBe('/portfolios');
  });

  it('hides the amounts while the member keeps them hidden, and keeps the percentages', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken());
    window.localStorage.setItem('MOAT_META_PORTFOLIO_LOCK', 'true');
    renderApp({ route: '/', api: homeApi().handler });
    const money = await screen.findByRole('region', { name: '내 자산' });
    expect(await within(money).findByText('+6.25%')).toBeTruthy();
    expect(within(money).queryByText('₩18,175,000')).toBeNull();
    // The total, today's change and each portfolio's value.
    expect(within(money).getAllByText('금액 숨김')).toHaveLength(4);
  });

  it('invites a member without portfolios to make one', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken());
    renderApp({ route: '/', api: homeApi({ ...portfolioList('original'), portfolios: [] }).handler });
    const money = await screen.findByRole('region', { name: '내 자산' });
    const create = await within(money).findByRole('link', { name: '포트폴리오 만들기' });
    expect(create.getAttribute('href')).toBe('/portfolios');
  });

  it('shows a visitor the market first, then an invitation to sign up or log in', async () => {
    const api = homeApi();
    renderApp({ route: '/', api: api.handler });
    await screen.findByRole('region', { name: '지수·환율' });
    await waitFor(() => expect(sectionTitles()).toEqual(['지수·환율', '관심 종목', '급등·급락', '주요 뉴스', '내 자산을 한곳에서']));
    expect(screen.queryByRole('region', { name: '내 자산' })).toBeNull();
    const invite = screen.getByRole('region', { name: '내 자산을 한곳에서' });
    expect(within(invite).getByRole('link', { name: '회원 가입' }).getAttribute('href')).toBe('/signup');
    expect(within(invite).getByRole('link', { name: '로그인' }).getAttribute('href')).toBe('/login');
    expect(api.find('GET', '/api/portfolios')).toHaveLength(0);
  });
});
