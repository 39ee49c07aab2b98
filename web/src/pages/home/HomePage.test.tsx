import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetLiveStream } from '@/shared/stream/stream';
import { AAPL, detail, FakeWebSocket, HYNIX, instrument, marketApi, overview, quote } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';

const SAMSUNG = instrument();

function homeApi(overrides: Parameters<typeof marketApi>[0] = {}) {
  return marketApi({
    'GET /api/market/overview': () => overview(),
    'GET /api/me/favorites': () => [SAMSUNG, AAPL],
    'GET /api/instruments/KRX%3A005930/quote': () => quote(),
    'GET /api/instruments/NASDAQ%3AAAPL/quote': () => quote({ instrument_id: AAPL.id, price: '189.43', change: '-1.2', change_percent: '-0.63' }),
    'GET /api/instruments/KRX%3A005930': () => detail(SAMSUNG),
    'GET /api/instruments/KRX%3A000660': () => detail(HYNIX, { price: '190000' }),
    ...overrides,
  });
}

beforeEach(() => {
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => {
  resetLiveStream();
});

describe('market home', () => {
  it('shows indices and USD/KRW with their changes, and marks simulated prices', async () => {
    renderApp({ route: '/', api: homeApi().handler });
    expect(await screen.findByRole('heading', { level: 1, name: '오늘의 시장' })).toBeTruthy();
    const indices = await screen.findByTestId('indices');
    await waitFor(() => expect(within(indices).getAllByTestId('index-card')).toHaveLength(2));
    const [kospi, usdkrw] = within(indices).getAllByTestId('index-card');
    expect(kospi!.getAttribute('href')).toBe('/stocks/INDEX%3AKOSPI');
    expect(within(kospi!).getByText('코스피')).toBeTruthy();
    expect(within(kospi!).getByText('2,650.12')).toBeTruthy();
    expect(kospi!.querySelector('[data-direction]')!.textContent).toBe('▲+10.12 (+0.38%)');
    expect(within(usdkrw!).getByText('1,380.50')).toBeTruthy();
    expect(usdkrw!.querySelector('[data-direction]')!.className).toContain('market-down');
    expect(within(indices).getAllByText('시뮬레이션')).toHaveLength(1);
  });

  it('marks an index whose market is closed', async () => {
    const closed = overview();
    closed.indices[0] = { ...closed.indices[0]!, quote: { ...closed.indices[0]!.quote!, state: 'closed' } };
    renderApp({ route: '/', api: homeApi({ 'GET /api/market/overview': () => closed }).handler });
    const indices = await screen.findByTestId('indices');
    await waitFor(() => expect(within(indices).getAllByTestId('index-card')).toHaveLength(2));
    const [kospi, usdkrw] = within(indices).getAllByTestId('index-card');
    expect(within(kospi!).getByText('장 마감')).toBeTruthy();
    expect(within(usdkrw!).queryByText('장 마감')).toBeNull();
  });

  it('updates index prices live from the stream', async () => {
    renderApp({ route: '/', api: homeApi().handler });
    const indices = await screen.findByTestId('indices');
    await waitFor(() => expect(within(indices).getByText('2,650.12')).toBeTruthy());
    const socket = FakeWebSocket.latest!;
    act(() => socket.open());
    expect(socket.frames('subscribe').flat()).toEqual(expect.arrayContaining(['quote:INDEX:KOSPI', 'quote:FX:USDKRW', 'quote:KRX:000660']));
    act(() =>
      socket.push({
        op: 'quote',
        topic: 'quote:INDEX:KOSPI',
        data: quote({ instrument_id: 'INDEX:KOSPI', price: '2601.5', change: '-38.5', change_percent: '-1.46', as_of: '2025-01-02T06:31:00Z' }),
      }),
    );
    await waitFor(() => expect(within(indices).getByText('2,601.50')).toBeTruthy());
  });

  it('asks a visitor to log in for favourites, without asking the server for them', async () => {
    const api = homeApi();
    renderApp({ route: '/', api: api.handler });
    const card = await screen.findByTestId('favorites-login');
    expect(within(card).getByText('로그인하고 관심 종목을 모아 보세요')).toBeTruthy();
    expect(within(card).getByRole('link', { name: '로그인' }).getAttribute('href')).toBe('/login');
    expect(api.find('GET', '/api/me/favorites')).toHaveLength(0);
  });

  it('shows a member’s favourites with live prices and a way to manage them', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
    renderApp({ route: '/', api: homeApi().handler });
    const section = await screen.findByTestId('home-favorites');
    await waitFor(() => expect(within(section).getAllByTestId('instrument-row')).toHaveLength(2));
    await waitFor(() =>
      expect(within(section).getAllByTestId('row-price').map((p) => p.textContent)).toEqual(['₩71,200', '$189.43']),
    );
    expect(within(section).getByRole('link', { name: '관리' }).getAttribute('href')).toBe('/favorites');
    expect(within(within(section).getAllByTestId('instrument-row')[0]!).getByRole('link').getAttribute('href')).toBe('/stocks/KRX%3A005930');
  });

  it('invites a member without favourites to find some', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
    renderApp({ route: '/', api: homeApi({ 'GET /api/me/favorites': () => [] }).handler });
    const section = await screen.findByTestId('home-favorites');
    expect(await within(section).findByText(/아직 관심 종목이 없어요/)).toBeTruthy();
    expect(within(section).getByRole('link', { name: '종목 찾기' }).getAttribute('href')).toBe('/search');
  });

  it('shows top gainers and losers as tabs, switched by click or arrow keys', async () => {
    renderApp({ route: '/', api: homeApi().handler });
    const movers = await screen.findByTestId('movers');
    const gainers = within(movers).getByRole('tab', { name: '상승' });
    const losers = within(movers).getByRole('tab', { name: '하락' });
    expect(gainers.getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(within(movers).getByText('SK하이닉스')).toBeTruthy());
    expect(within(movers).getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(gainers.id);

    fireEvent.click(losers);
    expect(losers.getAttribute('aria-selected')).toBe('true');
    expect(within(movers).getByText('애플')).toBeTruthy();
    expect(within(movers).queryByText('SK하이닉스')).toBeNull();

    losers.focus();
    fireEvent.keyDown(losers, { key: 'ArrowRight' });
    expect(gainers.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(gainers);
  });

  it('lists recently viewed stocks, newest first, skipping ones that no longer exist', async () => {
    window.localStorage.setItem('MOAT_RECENT_STOCKS_2', JSON.stringify(['KRX:000660', 'KRX:999999', 'KRX:005930']));
    renderApp({ route: '/', api: homeApi().handler });
    const recent = await screen.findByTestId('home-recent');
    await waitFor(() =>
      expect(within(recent).getAllByTestId('instrument-row').map((r) => r.getAttribute('data-id'))).toEqual(['KRX:000660', 'KRX:005930']),
    );
    expect(within(recent).getByText('₩190,000')).toBeTruthy();
  });

  it('has no recent section before any stock was viewed', async () => {
    renderApp({ route: '/', api: homeApi().handler });
    await screen.findByTestId('movers');
    expect(screen.queryByTestId('home-recent')).toBeNull();
  });

  it('offers a retry when prices cannot be loaded', async () => {
    let fail = true;
    const api = homeApi({
      'GET /api/market/overview': () =>
        fail ? new Response('{"code":"unavailable","message":"x","request_id":"r"}', { status: 503 }) : overview(),
    });
    renderApp({ route: '/', api: api.handler });
    const indices = await screen.findByTestId('indices');
    expect(await within(indices).findByText('시세를 불러오지 못했습니다.')).toBeTruthy();
    fail = false;
    fireEvent.click(within(indices).getByRole('button', { name: '다시 시도' }));
    await waitFor(() => expect(within(indices).getAllByTestId('index-card')).toHaveLength(2));
  });

  it('links to search', async () => {
    const app = renderApp({ route: '/', api: homeApi().handler });
    fireEvent.click(await screen.findByTestId('home-search'));
    expect(await screen.findByRole('heading', { level: 1, name: '종목 검색' })).toBeTruthy();
    expect(app.location().pathname).toBe('/search');
  });
});
