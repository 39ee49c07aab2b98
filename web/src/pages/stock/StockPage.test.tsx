import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import type { CandlesResponse } from '@/entities/instrument/api/types';
import { resetLiveStream } from '@/shared/stream/stream';
import { AAPL, detail, FakeWebSocket, instrument, marketApi, quote } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { portfolioList } from '@/features/portfolio/lib/test-fixtures';

// The canvas chart needs a real browser; here it shows what it was given.
vi.mock('@/features/stock/components/ChartCanvas', () => ({
  default: ({ data, mode }: { data: CandlesResponse; mode: string }) => (
    <div data-testid="chart-canvas" data-mode={mode} data-range={data.range} data-count={data.candles.length} />
  ),
}));

const SAMSUNG_PATH = '/api/instruments/KRX%3A005930';

function candles(range: string): CandlesResponse {
  return {
    instrument_id: 'KRX:005930',
    range: range as CandlesResponse['range'],
    interval: '1d',
    candles: [
      { t: 1735776000, o: '70000', h: '71000', l: '69000', c: '70500', v: 100 },
      { t: 1735862400, o: '70500', h: '71500', l: '70100', c: '71200', v: 200 },
    ],
  };
}

function stockApi(overrides: Parameters<typeof marketApi>[0] = {}) {
  return marketApi({
    [`GET ${SAMSUNG_PATH}`]: () =>
      detail(instrument(), { state: 'closed', simulated: true }),
    [`GET ${SAMSUNG_PATH}/candles`]: (_call, url) => candles(url.searchParams.get('range') ?? ''),
    [`GET ${SAMSUNG_PATH}/quote`]: () => quote({ state: 'closed' }),
    'GET /api/me/favorites': () => [AAPL],
    'PUT /api/me/favorites': (call) => (call.body as { ids: string[] }).ids.map((id) => (id === AAPL.id ? AAPL : instrument())),
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

describe('stock page', () => {
  it('shows the price, the change in the rise colour, when it was current and what kind of price it is', async () => {
    renderApp({ route: '/stocks/KRX%3A005930', api: stockApi().handler });
    expect(await screen.findByRole('heading', { level: 1, name: '삼성전자' })).toBeTruthy();
    expect(screen.getByText('Samsung Electronics')).toBeTruthy();
    expect(screen.getByText('005930')).toBeTruthy();
    expect(screen.getByText('KOSPI')).toBeTruthy();

    const quoteBox = screen.getByTestId('stock-quote');
    expect(screen.getByTestId('stock-price').textContent).toBe('₩71,200');
    expect(screen.getByTestId('stock-price').className).toContain('market-up');
    const change = quoteBox.querySelector('[data-direction]')!;
    expect(change.getAttribute('data-direction')).toBe('up');
    expect(change.className).toContain('market-up');
    expect(change.textContent).toBe('▲+1,200 (+1.71%)');

    const badges = screen.getByTestId('quote-badges');
    expect(within(badges).getByText('시뮬레이션 데이터')).toBeTruthy();
    expect(within(badges).getByText('장 마감')).toBeTruthy();
    // 06:30 UTC written on the exchange's clock, whatever the browser's zone.
    // (Node's ICU data may write PM where a browser writes 오후.)
    expect(screen.getByTestId('stock-as-of').textContent).toMatch(/^한국 시간 2025\. 1\. 2\. (오후|PM) 3:30:00 기준$/);
    expect(document.title).toBe('삼성전자 (005930) 시세 — Moat');
  });

  it('shows the key figures, with a dash for what the server does not know', async () => {
    const api = stockApi({
      [`GET ${SAMSUNG_PATH}`]: () => {
        const d = detail(instrument(), { state: 'live', simulated: false });
        return { ...d, stats: { ...d.stats, market_cap: null, dividend_yield: null } };
      },
    });
    renderApp({ route: '/stocks/KRX:005930', api: api.handler });
    const figures = await screen.findByTestId('key-figures');
    const value = (key: string) => within(figures).getByTestId(`figure-${key}`).querySelector('dd')!.textContent;
    expect(value('previousClose')).toBe('₩70,000');
    expect(value('open')).toBe('₩70,100');
    expect(value('dayRange')).toBe('₩69,900 – ₩71,500');
    expect(value('week52Range')).toBe('₩49,900 – ₩88,800');
    expect(value('volume')).toBe('12,345,678');
    expect(value('marketCap')).toBe('—');
    expect(value('dividendYield')).toBe('—');
    // Live and real: no badge at all.
    expect(screen.queryByTestId('quote-badges')).toBeNull();
  });

  it('shows delayed and stale prices as such', async () => {
    const api = stockApi({ [`GET ${SAMSUNG_PATH}`]: () => detail(instrument({ simulated: false }), { state: 'stale', simulated: false }) });
    renderApp({ route: '/stocks/KRX:005930', api: api.handler });
    expect(within(await screen.findByTestId('quote-badges')).getByText('갱신 지연')).toBeTruthy();
  });

  it('records the visit in recently viewed stocks', async () => {
    window.localStorage.setItem('MOAT_RECENT_STOCKS_2', JSON.stringify(['NASDAQ:AAPL', 'KRX:005930']));
    renderApp({ route: '/stocks/KRX%3A005930', api: stockApi().handler });
    await screen.findByTestId('stock-page');
    await waitFor(() =>
      expect(JSON.parse(window.localStorage.getItem('MOAT_RECENT_STOCKS_2')!)).toEqual(['KRX:005930', 'NASDAQ:AAPL']),
    );
  });

  it('says so for an unknown instrument, and does not record it', async () => {
    renderApp({ route: '/stocks/KRX%3A999999', api: stockApi().handler });
    expect(await screen.findByRole('heading', { level: 1, name: '종목을 찾을 수 없습니다' })).toBeTruthy();
    expect(window.localStorage.getItem('MOAT_RECENT_STOCKS_2')).toBeNull();
    renderApp({ route: '/stocks/garbage', api: stockApi().handler });
    expect(await screen.findAllByTestId('stock-not-found')).toHaveLength(2);
  });

  it('keeps the chart range in the address and loads its candles', async () => {
    const api = stockApi();
    const app = renderApp({ route: '/stocks/KRX%3A005930?range=1W', api: api.handler });
    const canvas = await screen.findByTestId('chart-canvas');
    expect(canvas.getAttribute('data-range')).toBe('1W');
    expect(screen.getByTestId('range-1W').getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByTestId('range-1Y'));
    expect(app.location().search).toBe('?range=1Y');
    await waitFor(() => expect(screen.getByTestId('chart-canvas').getAttribute('data-range')).toBe('1Y'));
    expect(api.find('GET', `${SAMSUNG_PATH}/candles?range=1Y`)).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: '캔들' }));
    expect(screen.getByTestId('chart-canvas').getAttribute('data-mode')).toBe('candle');
    expect(screen.getByRole('button', { name: '캔들' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('falls back to the default range for an unknown one', async () => {
    const api = stockApi();
    renderApp({ route: '/stocks/KRX%3A005930?range=10Y', api: api.handler });
    expect((await screen.findByTestId('chart-canvas')).getAttribute('data-range')).toBe('3M');
    expect(screen.getByTestId('range-3M').getAttribute('aria-pressed')).toBe('true');
  });

  it('updates the price live from the stream', async () => {
    renderApp({ route: '/stocks/KRX%3A005930', api: stockApi().handler });
    await screen.findByTestId('stock-price');
    const socket = FakeWebSocket.latest!;
    expect(socket.url).toBe(`ws://${window.location.host}/api/stream`);
    act(() => socket.open());
    expect(socket.frames('subscribe')).toEqual([['quote:KRX:005930']]);

    act(() =>
      socket.push({
        op: 'quote',
        topic: 'quote:KRX:005930',
        data: quote({ price: '69500', change: '-500', change_percent: '-0.71', as_of: '2025-01-02T06:31:00Z', state: 'live' }),
      }),
    );
    // The cache notifies its observers on the next tick.
    await waitFor(() => expect(screen.getByTestId('stock-price').textContent).toBe('₩69,500'));
    expect(screen.getByTestId('stock-price').className).toContain('market-down');
    expect(screen.getByTestId('stock-quote').querySelector('[data-direction]')!.textContent).toBe('▼-500 (-0.71%)');
    expect(within(screen.getByTestId('quote-badges')).queryByText('장 마감')).toBeNull();
  });

  it('shows a dash until the first price of an instrument without one arrives', async () => {
    const api = stockApi({
      [`GET ${SAMSUNG_PATH}`]: () => ({ ...detail(instrument()), quote: null }),
      [`GET ${SAMSUNG_PATH}/quote`]: () => new Response('{"code":"not_found","message":"no price","request_id":"r"}', { status: 404 }),
    });
    renderApp({ route: '/stocks/KRX%3A005930', api: api.handler });
    expect((await screen.findByTestId('stock-price')).textContent).toBe('—');
    expect(within(screen.getByTestId('key-figures')).getByTestId('figure-previousClose').querySelector('dd')!.textContent).toBe('₩70,000');
    const socket = FakeWebSocket.latest!;
    act(() => socket.open());
    act(() => socket.push({ op: 'quote', topic: 'quote:KRX:005930', data: quote() }));
    await waitFor(() => expect(screen.getByTestId('stock-price').textContent).toBe('₩71,200'));
  });

  it('sends a visitor who taps the star to log in, and back here after', async () => {
    renderApp({ route: '/stocks/KRX%3A005930?range=1M', api: stockApi().handler });
    const star = await screen.findByTestId('favorite-login');
    expect(star.getAttribute('href')).toBe(`/login?next=${encodeURIComponent('/stocks/KRX%3A005930?range=1M')}`);
    expect(star.getAttribute('aria-label')).toBe('로그인하고 관심 종목에 추가');
  });

  it('lets a member add it to favourites at once and saves the whole list', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
    const api = stockApi();
    renderApp({ route: '/stocks/KRX%3A005930', api: api.handler });
    const star = await screen.findByTestId('favorite-toggle');
    await waitFor(() => expect((star as HTMLButtonElement).disabled).toBe(false));
    expect(star.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(star);
    await waitFor(() => expect(star.getAttribute('aria-pressed')).toBe('true'));
    await waitFor(() => expect(api.find('PUT', '/api/me/favorites')).toHaveLength(1));
    expect(api.find('PUT', '/api/me/favorites')[0]!.body).toEqual({ ids: ['NASDAQ:AAPL', 'KRX:005930'] });
    expect(await screen.findByText('관심 종목에 추가했습니다.')).toBeTruthy();
  });

  it('rolls the star back when saving fails', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
    const api = stockApi({
      'PUT /api/me/favorites': () =>
        new Response(JSON.stringify({ code: 'internal', message: 'boom', request_id: 'r' }), {
          status: 500,
          headers: { 'Content-Type': 'application/json' },
        }),
    });
    renderApp({ route: '/stocks/KRX%3A005930', api: api.handler });
    const star = await screen.findByTestId('favorite-toggle');
    await waitFor(() => expect((star as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(star);
    expect(await screen.findByText('관심 종목을 저장하지 못했습니다.')).toBeTruthy();
    expect(star.getAttribute('aria-pressed')).toBe('false');
  });

  it('in English: English name first, the same rise colour, English badges', async () => {
    await act(() => setLocale('en'));
    renderApp({ route: '/stocks/KRX%3A005930', api: stockApi().handler });
    expect(await screen.findByRole('heading', { level: 1, name: 'Samsung Electronics' })).toBeTruthy();
    expect(screen.getByText('삼성전자')).toBeTruthy();
    expect(screen.getByTestId('stock-price').className).toContain('market-up');
    expect(within(screen.getByTestId('quote-badges')).getByText('Simulated data')).toBeTruthy();
    expect(within(screen.getByTestId('quote-badges')).getByText('Market closed')).toBeTruthy();
  });
});

describe('stock page: the member’s own part', () => {
  const holding = (quantity: string, cost: string, value: string, ret: string) => ({
    instrument: 'KRX:005930',
    currency: 'KRW',
    trade_currency: 'KRW',
    quantity,
    cost_basis: cost,
    market_value: value,
    return_percent: ret,
  });
  const memberApi = () =>
    stockApi({
      'GET /api/portfolios': () => portfolioList('original'),
      'GET /api/portfolios/7/valuation': () => ({ holdings: [holding('10', '600000', '712000', '18.67')] }),
      'GET /api/portfolios/9/valuation': () => ({ holdings: [holding('5', '380000', '356000', '-6.32')] }),
      [`GET ${SAMSUNG_PATH}/dividends`]: () => [
        { instrument_id: 'KRX:005930', ex_date: '2025-12-29', record_date: null, pay_date: '2026-04-17', amount: '361', currency: 'KRW' },
        { instrument_id: 'KRX:005930', ex_date: '2026-03-30', record_date: null, pay_date: null, amount: '365', currency: 'KRW' },
      ],
    });

  it('shows the position across portfolios, the dividends, and 거래 기록 asks which portfolio', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken());
    const api = memberApi();
    renderApp({ route: '/stocks/KRX%3A005930', api: api.handler });
    // The position waits for the list, then every portfolio's valuation.
    const position = await screen.findByRole('region', { name: '내 보유' }, { timeout: 8000 });
    // 15 shares: cost ₩980,000 (₩65,333.33 each), value ₩1,068,000, +₩88,000 (+8.98%).
    expect(within(position).getByText('15주')).toBeTruthy();
    expect(within(position).getByText('₩1,068,000')).toBeTruthy();
    expect(within(position).getByText('+₩88,000')).toBeTruthy();
    expect(within(position).getByText('+8.98%')).toBeTruthy();
    const parts = within(position).getByRole('list', { name: '포트폴리오별 보유' });
    expect(within(parts).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/portfolios/7', '/portfolios/9']);

    const dividends = await screen.findByRole('region', { name: '배당 내역' });
    const rows = await within(dividends).findAllByRole('row', {}, { timeout: 4000 });
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('₩365')).toBeTruthy();
    expect(within(rows[1]!).getByText('미정')).toBeTruthy();

    const record = screen.getByRole('button', { name: '거래 기록' });
    fireEvent.click(record);
    expect(record.getAttribute('aria-expanded')).toBe('true');
    const menu = within(document.getElementById(record.getAttribute('aria-controls')!)!);
    expect(menu.getByText('어느 포트폴리오에 기록할까요?')).toBeTruthy();
    const main = menu.getByRole('link', { name: '키움 메인' });
    const href = new URL(main.getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/portfolios/7/transactions/new');
    expect(href.searchParams.get('instrument')).toBe('KRX:005930');
    expect(href.searchParams.get('price')).toBe(quote({ state: 'closed' }).price);
    expect(menu.getByRole('link', { name: 'US growth' }).getAttribute('href')).toContain('/portfolios/9/transactions/new?');
  }, 20_000);

  it('shows a visitor no position, and 거래 기록 leads to log-in', async () => {
    const api = memberApi();
    renderApp({ route: '/stocks/KRX%3A005930', api: api.handler });
    const record = await screen.findByRole('link', { name: '거래 기록' });
    expect(record.getAttribute('href')).toBe(`/login?next=${encodeURIComponent('/stocks/KRX:005930')}`);
    await screen.findByRole('region', { name: '배당 내역' });
    expect(screen.queryByRole('region', { name: '내 보유' })).toBeNull();
    expect(api.find('GET', '/api/portfolios')).toHaveLength(0);
  });
});
