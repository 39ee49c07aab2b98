import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { jsonResponse, TEST_META } from '@/test/fetch';
import { detail, HYNIX } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { ToastArea } from '@/shared/ui/toast';
import type { Call } from '../lib/test-fixtures';
import type { ReturnChartProps } from '../components/ReturnChart';
import type { LinePoint } from '../lib/return-series';
import { ALLOCATION, ledgerIssue, META_ALLOCATION, performance, portfolio, portfolioApi, portfolioList, transaction, TRANSACTIONS, valuation } from '../lib/test-fixtures';
import { messagesReady, PortfolioDetailRoute } from '.';

// The canvas chart needs a real browser; here it shows the series it was given.
vi.mock('../components/ReturnChart', () => ({
  default: ({ portfolio, benchmark, label }: ReturnChartProps) => (
    <div data-testid="return-chart-canvas" aria-label={label} data-portfolio={JSON.stringify(portfolio)} data-benchmark={JSON.stringify(benchmark)} />
  ),
}));

/** The series the chart was given: `[date, value]` pairs. */
function fed() {
  const canvas = screen.getByTestId('return-chart-canvas');
  const pairs = (attr: string) => (JSON.parse(canvas.getAttribute(attr)!) as LinePoint[]).map((p) => [p.time, p.value]);
  return { portfolio: pairs('data-portfolio'), benchmark: pairs('data-benchmark'), label: canvas.getAttribute('aria-label') };
}

const fallback = (url: URL) =>
  url.pathname === '/api/meta' ? jsonResponse(TEST_META) : jsonResponse({ code: 'not_found', message: 'nf', request_id: 't' }, { status: 404 });

function detailApi(overrides: Parameters<typeof portfolioApi>[0] = {}) {
  let transactions = TRANSACTIONS;
  return portfolioApi(
    {
      'GET /api/portfolios/7': () => portfolio(),
      'GET /api/portfolios/7/valuation': () => valuation(),
      'GET /api/portfolios/meta/valuation': () => valuation(),
      'GET /api/portfolios/7/performance': () => performance(),
      'GET /api/portfolios/meta/performance': () => performance(),
      'GET /api/portfolios/7/allocation': () => ALLOCATION,
      'GET /api/portfolios/meta/allocation': () => META_ALLOCATION,
      'GET /api/portfolios/7/transactions': () => transactions,
      'DELETE /api/portfolios/7/transactions/41': () => {
        transactions = transactions.filter((t) => t.id !== 41);
        return undefined;
      },
      ...overrides,
    },
    fallback,
  );
}

function renderDetail(api: ReturnType<typeof detailApi>, route = '/portfolios/7') {
  return renderApp({
    route,
    api: api.handler,
    ui: (
      <>
        <ToastArea />
        <Routes>
          <Route path="/portfolios/:id" element={<PortfolioDetailRoute />} />
        </Routes>
      </>
    ),
  });
}

/** The sell of portfolio 7 that {@link ledgerIssue} names: 50 shares more than were held. */
const broken = transaction({ id: 43, kind: 'sell', trade_date: '2026-10-01', instrument_id: 'KRX:005930', quantity: '50', price: '70000', fee: '0', currency: 'KRW', fx_rate: null });

const order = () => screen.getAllByTestId('holding').map((r) => r.getAttribute('data-id'));
const sortStored = () => JSON.parse(window.localStorage.getItem('PORTFOLIO_SORT') ?? 'null') as unknown;

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));
});

describe('portfolio detail', () => {
  it('shows the summary, the holdings, the allocation, the returns with their explanation and the transactions', async () => {
    const api = detailApi();
    renderDetail(api);
    expect(await screen.findByRole('heading', { level: 1, name: '키움 메인' })).toBeTruthy();
    const summary = await screen.findByTestId('summary');
    expect(within(summary).getByTestId('summary-total').textContent).toBe('₩11,250,000');
    expect(within(summary).getByTestId('summary-return').textContent).toBe('+11.11%');
    expect(within(summary).getByTestId('summary-unrealised').textContent).toBe('+₩1,000,000');
    expect(within(summary).getByTestId('summary-realised').textContent).toBe('+₩150,000');
    expect(within(summary).getByTestId('summary-cash').textContent).toBe('₩1,250,000');
    await waitFor(() => expect(within(summary).getByTestId('orderable-cash-amount').textContent).toBe('₩1,250,000'));
    // Remembered for the next visit.
    expect(window.localStorage.getItem('KB_ORDERABLE_CASH_AMOUNT')).toBe('1250000');

    // Holdings in the default order (value, descending), each in its own currency.
    expect(order()).toEqual(['KRX:005930', 'KRX:000660', 'NASDAQ:AAPL']);
    const aapl = screen.getAllByTestId('holding')[2]!;
    expect(within(aapl).getByTestId('holding-value').textContent).toBe('$284.15');
    expect(within(aapl).getByTestId('holding-return').textContent).toBe('+25.50%');

    // Allocation: sectors translated, cash and unknown named.
    fireEvent.click(screen.getByTestId('allocation-by-sector'));
    await waitFor(() => expect(within(screen.getByTestId('allocation-legend')).getByText('IT')).toBeTruthy());
    expect(within(screen.getByTestId('allocation-legend')).getByText('현금')).toBeTruthy();
    expect(api.find('GET', '/api/portfolios/7/allocation').map((c) => c.search.get('by'))).toEqual(['holding', 'sector']);

    // Returns: since inception by default, with its explanation in words.
    expect(await screen.findByTestId('return-chart-canvas')).toBeTruthy();
    expect(within(screen.getByTestId('returns-ALL')).getByText('-6.10%')).toBeTruthy();
    expect(screen.getByTestId('explanation').textContent).toBe(
      '3월 3일, 하락 직전에 투자금의 대부분(70%)을 넣어서 금액가중수익률이 시간가중수익률보다 낮습니다. 그 뒤 포트폴리오는 8.6% 내렸습니다. 금액가중수익률 − 시간가중수익률: -7.60%p',
    );
    fireEvent.click(screen.getByTestId('period-1M'));
    expect(screen.getByTestId('explanation').textContent).toBe('이 기간에는 입금이나 출금이 없어서 세 수익률이 같습니다.');
    expect(api.find('GET', '/api/portfolios/7/performance')[0]!.search.get('benchmark')).toBe('INDEX:KOSPI');
    fireEvent.click(screen.getByTestId('benchmark-SPX'));
    await waitFor(() => expect(api.find('GET', '/api/portfolios/7/performance').at(-1)!.search.get('benchmark')).toBe('INDEX:SPX'));

    // Transactions, newest first.
    const txs = await screen.findAllByTestId('transaction');
    expect(txs.map((r) => r.getAttribute('data-id'))).toEqual(['42', '41', '40']);
  });

  it('compares the cumulative return with the benchmark’s over the chosen period, both from 0 %', async () => {
    renderDetail(detailApi());
    await screen.findByTestId('return-chart-canvas');
    // Since inception: the server's returns as they are (its base point is the chart's).
    expect(fed().portfolio).toEqual([
      ['2026-01-01', 0],
      ['2026-01-02', -0.5],
      ['2026-03-02', 9.45],
      ['2026-03-03', 9.8],
      ['2026-10-23', 12.3],
      ['2026-11-23', 1.5],
    ]);
    expect(fed().benchmark).toEqual([
      ['2026-01-01', 0],
      ['2026-01-02', 0.4],
      ['2026-03-02', 4.4],
      ['2026-03-03', 4.8],
      ['2026-10-23', 2.1],
      ['2026-11-23', 2],
    ]);
    // The benchmark moves on the same scale as the portfolio (not a flat line near 0).
    const benchmarkValues = fed().benchmark.map(([, v]) => v as number);
    expect(Math.max(...benchmarkValues) - Math.min(...benchmarkValues)).toBeGreaterThan(4);
    expect(screen.getByTestId('legend-portfolio').textContent).toBe('내 포트폴리오 +1.50%');
    expect(screen.getByTestId('legend-benchmark').textContent).toBe('코스피 +2.00%');
    expect(fed().label).toBe('전체 기간 누적 수익률: 내 포트폴리오와 코스피');
    // The periods the server answered choose the range, the chosen one pressed.
    const periods = within(screen.getByRole('group', { name: '기간' })).getAllByRole('button');
    expect(periods.map((b) => [b.textContent, b.getAttribute('aria-pressed')])).toEqual([
      ['1개월', 'false'],
      ['전체', 'true'],
    ]);

    // One month: both lines start again at 0 on 2026-10-23's close.
    fireEvent.click(screen.getByTestId('period-1M'));
    expect(fed().portfolio).toEqual([
      ['2026-10-23', 0],
      ['2026-11-23', -9.6171],
    ]);
    expect(fed().benchmark).toEqual([
      ['2026-10-23', 0],
      ['2026-11-23', -0.0979],
    ]);
    // The line ends at the period's time-weighted return in the table.
    expect(screen.getByTestId('legend-portfolio').textContent).toBe('내 포트폴리오 -9.62%');
    expect(within(screen.getByTestId('returns-1M')).getAllByText('-9.62%').length).toBeGreaterThan(0);
    expect(screen.getByTestId('legend-benchmark').textContent).toBe('코스피 -0.10%');
    expect(screen.getByTestId('period-1M').getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the last orderable cash seen before the network answers', async () => {
    window.localStorage.setItem('KB_ORDERABLE_CASH_AMOUNT', '990000');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const api = detailApi({ 'GET /api/portfolios/7': () => undefined });
    // The portfolio's own answer waits; the valuation comes at once.
    const handler = api.handler;
    renderApp({
      route: '/portfolios/7',
      api: async (url, init) => {
        if (url.pathname === '/api/portfolios/7') {
          await held;
          return jsonResponse(portfolio({ orderable_cash: { amount: '1300000', currency: 'KRW', updated_at: '2026-11-23T00:00:00Z' } }));
        }
        return handler(url, init);
      },
      ui: (
        <Routes>
          <Route path="/portfolios/:id" element={<PortfolioDetailRoute />} />
        </Routes>
      ),
    });
    const cash = await screen.findByTestId('orderable-cash');
    expect(within(cash).getByTestId('orderable-cash-amount').textContent).toBe('₩990,000');
    expect(within(cash).getByText('마지막으로 확인한 금액')).toBeTruthy();
    release();
    await waitFor(() => expect(within(screen.getByTestId('orderable-cash')).getByTestId('orderable-cash-amount').textContent).toBe('₩1,300,000'));
    expect(window.localStorage.getItem('KB_ORDERABLE_CASH_AMOUNT')).toBe('1300000');
  });

  it('sorts by each key and direction, kept in PORTFOLIO_SORT across visits', async () => {
    const app = renderDetail(detailApi());
    await waitFor(() => expect(order()).toHaveLength(3));
    const key = () => screen.getByTestId('sort-key');
    const flip = () => fireEvent.click(screen.getByTestId('sort-dir'));

    fireEvent.change(key(), { target: { value: 'return' } });
    expect(sortStored()).toEqual({ key: 'return', dir: 'desc' });
    expect(order()).toEqual(['KRX:000660', 'NASDAQ:AAPL', 'KRX:005930']);
    flip();
    expect(sortStored()).toEqual({ key: 'return', dir: 'asc' });
    expect(order()).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660']);

    fireEvent.change(key(), { target: { value: 'dailyChange' } });
    expect(sortStored()).toEqual({ key: 'dailyChange', dir: 'asc' });
    expect(order()).toEqual(['NASDAQ:AAPL', 'KRX:005930', 'KRX:000660']);
    flip();
    expect(order()).toEqual(['KRX:000660', 'KRX:005930', 'NASDAQ:AAPL']);

    fireEvent.change(key(), { target: { value: 'name' } });
    expect(sortStored()).toEqual({ key: 'name', dir: 'desc' });
    flip();
    expect(sortStored()).toEqual({ key: 'name', dir: 'asc' });
    // Korean collation: Hangul before Latin (삼성전자, 애플, SK하이닉스).
    expect(order()).toEqual(['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660']);

    fireEvent.change(key(), { target: { value: 'value' } });
    expect(sortStored()).toEqual({ key: 'value', dir: 'asc' });
    expect(order()).toEqual(['NASDAQ:AAPL', 'KRX:000660', 'KRX:005930']);

    // The table's column headers sort too, and say how.
    fireEvent.click(screen.getByTestId('sort-header-return'));
    expect(sortStored()).toEqual({ key: 'return', dir: 'desc' });
    expect(screen.getByTestId('sort-header-return').closest('th')!.getAttribute('aria-sort')).toBe('descending');

    // The next visit keeps the order.
    app.unmount();
    renderDetail(detailApi());
    await waitFor(() => expect(order()).toEqual(['KRX:000660', 'NASDAQ:AAPL', 'KRX:005930']));
    expect((screen.getByTestId('sort-key') as HTMLSelectElement).value).toBe('return');
  });

  it('renders the holdings as rows on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));
    renderDetail(detailApi());
    await screen.findByTestId('holding-rows');
    expect(screen.queryByTestId('holdings-table')).toBeNull();
    expect(order()).toEqual(['KRX:005930', 'KRX:000660', 'NASDAQ:AAPL']);
  });

  it('the lock hides every amount on the detail, percentages stay', async () => {
    window.localStorage.setItem('MOAT_META_PORTFOLIO_LOCK', 'true');
    renderDetail(detailApi());
    const summary = await screen.findByTestId('summary');
    expect(within(summary).getByTestId('summary-total').getAttribute('data-masked')).toBe('true');
    expect(within(summary).getByTestId('summary-return').textContent).toBe('+11.11%');
    await screen.findAllByTestId('transaction');
    // The chart is in per cent: shown as it is.
    await screen.findByTestId('return-chart-canvas');
    expect(screen.getByTestId('legend-portfolio').textContent).toBe('내 포트폴리오 +1.50%');
    expect(screen.getByTestId('portfolio-detail-page').textContent).not.toMatch(/[₩$]\s?\d/);
    expect(within(screen.getByTestId('returns-ALL')).getByText('-6.10%')).toBeTruthy();
  });

  it('the meta portfolio: its valuation in KRW for "original", its allocation by sector too, no transactions', async () => {
    const api = detailApi();
    renderDetail(api, '/portfolios/meta');
    expect(await screen.findByRole('heading', { level: 1, name: '전체 포트폴리오' })).toBeTruthy();
    await screen.findByTestId('summary');
    expect(api.find('GET', '/api/portfolios/meta/valuation')[0]!.search.get('currency')).toBe('KRW');
    const legend = await screen.findByTestId('allocation-legend');
    expect([...legend.querySelectorAll('li')].map((li) => li.getAttribute('data-key'))).toEqual(META_ALLOCATION.map((s) => s.key));
    fireEvent.click(screen.getByTestId('allocation-by-sector'));
    await waitFor(() => expect(api.find('GET', '/api/portfolios/meta/allocation').some((c) => c.search.get('by') === 'sector')).toBe(true));
    expect(screen.queryByTestId('transactions')).toBeNull();
    expect(api.calls.some((c: Call) => c.path === '/api/portfolios/meta')).toBe(false);
  });

  it('deletes a transaction only after confirming', async () => {
    const api = detailApi();
    renderDetail(api);
    const rows = await screen.findAllByTestId('transaction');
    const aapl = rows.find((r) => r.getAttribute('data-id') === '41')!;
    fireEvent.click(within(aapl).getByTestId('transaction-delete'));
    const dialog = await screen.findByRole('dialog', { name: '거래를 삭제할까요?' });
    // Cancelling deletes nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: '취소' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.find('DELETE', '/api/portfolios/7/transactions/41')).toHaveLength(0);

    fireEvent.click(within(aapl).getByTestId('transaction-delete'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('delete-confirm'));
    await waitFor(() => expect(api.find('DELETE', '/api/portfolios/7/transactions/41')).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByTestId('transaction').map((r) => r.getAttribute('data-id'))).toEqual(['42', '40']));
    expect(await screen.findByText('거래를 삭제했습니다.')).toBeTruthy();
    // Everything of the portfolio is asked again (the server recomputed it).
    expect(api.find('GET', '/api/portfolios/7/valuation').length).toBeGreaterThan(1);
  });

  it('names the transaction a broken ledger stops at, with a way to fix it', async () => {
    const api = detailApi({
      'GET /api/portfolios/7/valuation': () => valuation({ ledger_issues: [ledgerIssue()] }),
      'GET /api/portfolios/7/transactions': () => [...TRANSACTIONS, broken],
    });
    const app = renderDetail(api);
    const banner = await screen.findByTestId('ledger-issues');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(within(banner).getByText('이 포트폴리오는 고쳐야 할 거래 전까지만 계산했습니다.')).toBeTruthy();
    // Its share count comes with the portfolio's transactions.
    await waitFor(() =>
      expect(within(banner).getByTestId('ledger-issue').textContent).toContain(
        '2026. 10. 1. 삼성전자 매도 50주: 그날 보유 수량보다 많아 이 거래부터 계산에서 빠졌습니다.',
      ),
    );
    // The transaction is marked in the list too.
    const row = (await screen.findAllByTestId('transaction')).find((r) => r.getAttribute('data-id') === '43')!;
    expect(within(row).getByTestId('transaction-issue').textContent).toBe('고쳐야 할 거래');
    // The link opens it for editing, as the list's edit does.
    const fix = within(banner).getByRole('link', { name: /^거래 고치기/ });
    expect(fix.getAttribute('href')).toBe(within(row).getByTestId('transaction-edit').getAttribute('href'));
    fireEvent.click(fix);
    expect(app.location().pathname).toBe('/portfolios/7/transactions/43');
  });

  it('words the reason from its code in English, and looks up an instrument no longer held', async () => {
    await setLocale('en');
    const api = detailApi({
      'GET /api/portfolios/7/valuation': () =>
        valuation({
          ledger_issues: [ledgerIssue({ kind: 'split', instrument_id: 'KRX:000660', code: 'split_not_held', transaction_id: 44 }), ],
          holdings: [],
        }),
      'GET /api/instruments/KRX%3A000660': () => detail(HYNIX),
    });
    renderDetail(api);
    const banner = await screen.findByTestId('ledger-issues');
    expect(within(banner).getByText('This portfolio is counted only up to a transaction that needs fixing.')).toBeTruthy();
    await waitFor(() =>
      expect(within(banner).getByTestId('ledger-issue').textContent).toContain(
        'Split of SK hynix on Oct 1, 2026: not held that day, so the figures stop before it.',
      ),
    );
    expect(within(banner).getByRole('link', { name: /^Fix the transaction/ }).getAttribute('href')).toBe('/portfolios/7/transactions/44');
  });

  it('the meta portfolio names each portfolio counted only up to a transaction to fix', async () => {
    const api = detailApi({
      'GET /api/portfolios/meta/valuation': () =>
        valuation({ ledger_issues: [ledgerIssue(), ledgerIssue({ portfolio_id: 9, transaction_id: 77, instrument_id: null, kind: 'withdrawal', code: 'price_not_positive', trade_date: '2026-05-02' })] }),
      'GET /api/portfolios': (call) => portfolioList(call.search.get('currency') ?? ''),
      'GET /api/portfolios/7/transactions': () => [...TRANSACTIONS, broken],
      'GET /api/portfolios/9/transactions': () => [],
    });
    renderDetail(api, '/portfolios/meta');
    const banner = await screen.findByTestId('ledger-issues');
    expect(within(banner).getByText('일부 포트폴리오는 고쳐야 할 거래 전까지만 계산했습니다.')).toBeTruthy();
    await waitFor(() =>
      expect(within(banner).getAllByTestId('ledger-issue').map((li) => li.textContent)).toEqual([
        '키움 메인: 2026. 10. 1. 삼성전자 매도 50주: 그날 보유 수량보다 많아 이 거래부터 계산에서 빠졌습니다.거래 고치기',
        'US growth: 2026. 5. 2. 출금: 단가(금액)는 0보다 커야 합니다. 이 거래부터 계산에서 빠졌습니다.거래 고치기',
      ]),
    );
    expect(within(banner).getAllByTestId('ledger-fix').map((a) => a.getAttribute('href'))).toEqual(['/portfolios/7/transactions/43', '/portfolios/9/transactions/77']);
  });

  it('shows no banner for a sound ledger', async () => {
    renderDetail(detailApi());
    await screen.findAllByTestId('transaction');
    expect(screen.queryByTestId('ledger-issues')).toBeNull();
    expect(screen.queryByTestId('transaction-issue')).toBeNull();
  });

  it('an unknown portfolio says so', async () => {
    renderDetail(detailApi(), '/portfolios/404');
    expect(await screen.findByText('포트폴리오를 찾을 수 없습니다.')).toBeTruthy();
  });
});
