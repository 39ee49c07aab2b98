import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes, useParams } from 'react-router';
import { setLocale } from '@/shared/i18n/i18n';
import { ToastArea } from '@/shared/ui/toast';
import { jsonResponse } from '@/test/fetch';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { DividendsPage, messagesReady } from './DividendsPage';
import type { CalendarDividend } from '../api/calendar';
import type { DividendEntitlement, MyDividends } from '../api/my-dividends';

beforeAll(async () => {
  await messagesReady;
});

beforeEach(() => {
  // 22 November 2026 in Seoul: the page opens on November.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-22T10:00:00+09:00'));
});

const SAMSUNG: CalendarDividend = {
  instrument_id: 'KRX:005930',
  ex_date: '2026-12-29',
  record_date: '2026-12-31',
  pay_date: '2027-04-17',
  amount: '361',
  currency: 'KRW',
  name_ko: '삼성전자',
  name_en: 'Samsung Electronics',
  ticker: '005930',
};
const APPLE: CalendarDividend = {
  instrument_id: 'NASDAQ:AAPL',
  ex_date: '2026-12-07',
  record_date: '2026-12-07',
  pay_date: '2026-12-10',
  amount: '0.26',
  currency: 'USD',
  name_ko: '애플',
  name_en: 'Apple',
  ticker: 'AAPL',
};
/** Ex-date in November, paid in December. */
const COKE: CalendarDividend = {
  instrument_id: 'NYSE:KO',
  ex_date: '2026-11-28',
  record_date: '2026-11-28',
  pay_date: '2026-12-15',
  amount: '0.51',
  currency: 'USD',
  name_ko: '코카콜라',
  name_en: 'Coca-Cola',
  ticker: 'KO',
};
const CALENDAR = [COKE, APPLE, SAMSUNG];

const PROJECTION_GROSS = ['0', '130000', '0', '0', '52000', '0', '0', '0', '48500', '0', '0', '61200'];

function projection() {
  return PROJECTION_GROSS.map((gross, i) => {
    const month = new Date(Date.UTC(2026, 10 + i, 1)).toISOString().slice(0, 7);
    // 15.4 % withheld.
    const net = String(Math.round(Number(gross) * 0.846));
    return { month, gross, net };
  });
}

const ENTITLEMENT: DividendEntitlement = {
  portfolio_id: 7,
  portfolio_name: '키움 메인',
  instrument_id: 'NASDAQ:AAPL',
  name_ko: '애플',
  name_en: 'Apple',
  ticker: 'AAPL',
  ex_date: '2026-11-10',
  pay_date: '2026-11-13',
  quantity: '12',
  per_share: '0.26',
  currency: 'USD',
  gross: '3.12',
  tax: '0.47',
  net: '2.65',
  fx_rate: '1385.2',
};

const MINE: MyDividends = {
  received: [
    {
      portfolio_id: 7,
      transaction_id: 41,
      instrument_id: 'KRX:005930',
      name_ko: '삼성전자',
      name_en: 'Samsung Electronics',
      ticker: '005930',
      date: '2026-11-20',
      quantity: '100',
      per_share: '361',
      currency: 'KRW',
      gross: '36100',
      tax: '5559',
      net: '30541',
    },
  ],
  entitlements: [ENTITLEMENT],
  projection: projection(),
  trailing_yield: '2.3149',
  yield_on_cost: '3.105',
  ledger_issues: [],
};

function dividendsApi({ calendar = CALENDAR, mine = MINE } = {}) {
  return marketApi({
    'GET /api/dividends/calendar': (_call, url) => {
      const country = url.searchParams.get('country');
      const from = url.searchParams.get('from')!;
      const to = url.searchParams.get('to')!;
      const inRange = (d: string | null) => d !== null && d >= from && d <= to;
      return calendar.filter(
        (d) =>
          (inRange(d.ex_date) || inRange(d.pay_date ?? null)) &&
          (country === 'all' || (country === 'KR') === d.instrument_id.startsWith('KRX:')),
      );
    },
    'GET /api/me/dividends': () => mine,
    'POST /api/portfolios/7/transactions': (call) => jsonResponse({ id: 99, ...(call.body as object) }, { status: 201 }),
  });
}

function StockProbe() {
  const { id } = useParams();
  return <p data-testid="stock-probe">{id}</p>;
}

function renderPage(api = dividendsApi(), route = '/dividends?month=2026-12') {
  const app = renderApp({
    route,
    api: api.handler,
    ui: (
      <>
        <Routes>
          <Route path="/dividends" element={<DividendsPage />} />
          <Route path="/stocks/:id" element={<StockProbe />} />
        </Routes>
        <ToastArea />
      </>
    ),
  });
  return { ...app, api };
}

const calendarCalls = (api: ReturnType<typeof dividendsApi>) =>
  api.find('GET', '/api/dividends/calendar').map((c) => Object.fromEntries(new URL(c.path, 'http://x').searchParams));
const day = (date: string) => screen.getByTestId('month-grid').querySelector<HTMLElement>(`[data-date="${date}"]`)!;
const chips = (date: string) => within(day(date)).queryAllByTestId('calendar-chip').map((c) => c.textContent);
const pressed = (testId: string) => screen.getByTestId(testId).getAttribute('aria-pressed');

describe('dividend calendar', () => {
  it('asks for the month and shows each entry on its ex-date and pay date', async () => {
    const { api } = renderPage();
    await waitFor(() => expect(chips('2026-12-29')).toEqual(['삼성전자']));
    expect(calendarCalls(api)).toEqual([{ from: '2026-12-01', to: '2026-12-31', country: 'all' }]);
    expect(chips('2026-12-07')).toEqual(['애플']);
    expect(chips('2026-12-10')).toEqual(['애플']);
    // Coca-Cola's ex-date is in November: in December only its pay date shows.
    expect(chips('2026-12-15')).toEqual(['코카콜라']);
    expect(chips('2026-12-01')).toEqual([]);
    const exChip = within(day('2026-12-07')).getByTestId('calendar-chip');
    expect(exChip.className).toContain('dividends-chip--ex');
    expect(within(day('2026-12-10')).getByTestId('calendar-chip').className).toContain('dividends-chip--pay');
    expect(screen.getByRole('heading', { name: '2026년 12월' })).toBeTruthy();
    // The legend names both marks.
    expect(within(screen.getByRole('list', { name: '범례' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['배당락일', '지급일']);

    // The day's list (the first day with an entry, as today is in another month).
    const panel = screen.getByTestId('day-panel');
    expect(panel.getAttribute('data-date')).toBe('2026-12-07');
    const entry = within(panel).getByTestId('dividend-entry');
    expect(entry.textContent).toBe('배당락애플AAPL주당 $0.26');
    expect(entry.getAttribute('href')).toBe('/stocks/NASDAQ%3AAAPL');

    // Choosing another day lists it; its entry opens the stock page.
    fireEvent.click(within(day('2026-12-29')).getByRole('button'));
    expect(screen.getByTestId('day-panel').getAttribute('data-date')).toBe('2026-12-29');
    const samsung = within(screen.getByTestId('day-panel')).getByTestId('dividend-entry');
    expect(samsung.textContent).toBe('배당락삼성전자005930주당 ₩361');
    fireEvent.click(samsung);
    expect((await screen.findByTestId('stock-probe')).textContent).toBe('KRX:005930');
  });

  it('labels the days and moves through the month grid with the keyboard', async () => {
    const { api } = renderPage();
    await waitFor(() => expect(chips('2026-12-29')).toEqual(['삼성전자']));
    const first = within(day('2026-12-07')).getByRole('button');
    expect(first.getAttribute('aria-label')).toBe('2026년 12월 7일 월요일, 배당락 1건, 지급 0건');
    expect(first.tabIndex).toBe(0);
    expect(within(day('2026-12-08')).getByRole('button').tabIndex).toBe(-1);

    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(within(day('2026-12-14')).getByRole('button'));
    expect(day('2026-12-14').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(screen.getByTestId('day-panel').getAttribute('data-date')).toBe('2026-12-15');
    expect(within(screen.getByTestId('day-panel')).getByTestId('dividend-entry').getAttribute('data-type')).toBe('pay');

    // Page Down: the same day of the next month, which is then asked for.
    fireEvent.keyDown(document.activeElement!, { key: 'PageDown' });
    await waitFor(() => expect(calendarCalls(api).at(-1)).toEqual({ from: '2027-01-01', to: '2027-01-31', country: 'all' }));
    await waitFor(() => expect(document.activeElement).toBe(within(day('2027-01-15')).getByRole('button')));
  });

  it('groups the entries by date in the list view', async () => {
    const { location } = renderPage();
    await waitFor(() => expect(chips('2026-12-29')).toEqual(['삼성전자']));
    fireEvent.click(screen.getByTestId('view-list'));
    expect(location().search).toBe('?month=2026-12&view=list');
    expect(pressed('view-list')).toBe('true');
    expect(screen.queryByTestId('month-grid')).toBeNull();
    const groups = screen.getAllByTestId('dividend-day-group');
    expect(groups.map((g) => g.getAttribute('data-date'))).toEqual(['2026-12-07', '2026-12-10', '2026-12-15', '2026-12-29']);
    expect(within(groups[0]!).getByRole('heading').textContent).toBe('12월 7일 (월)');
    expect(groups.map((g) => within(g).getAllByTestId('dividend-entry').map((e) => `${e.getAttribute('data-type')} ${e.textContent}`))).toEqual([
      ['ex 배당락애플AAPL주당 $0.26'],
      ['pay 지급애플AAPL주당 $0.26'],
      ['pay 지급코카콜라KO주당 $0.51'],
      ['ex 배당락삼성전자005930주당 ₩361'],
    ]);
  });

  it('keeps the country filter in MOAT_DIVIDEND_COUNTRY, also after a reload', async () => {
    const first = renderPage();
    await waitFor(() => expect(chips('2026-12-29')).toEqual(['삼성전자']));
    expect(pressed('country-ALL')).toBe('true');
    fireEvent.click(screen.getByTestId('country-KR'));
    expect(window.localStorage.getItem('MOAT_DIVIDEND_COUNTRY')).toBe('KR');
    expect(pressed('country-KR')).toBe('true');
    await waitFor(() => expect(calendarCalls(first.api).at(-1)).toEqual({ from: '2026-12-01', to: '2026-12-31', country: 'KR' }));
    await waitFor(() => expect(chips('2026-12-07')).toEqual([]));
    expect(chips('2026-12-29')).toEqual(['삼성전자']);
    first.unmount();

    // The page again: Korea is still chosen and asked for first.
    const second = renderPage();
    expect(pressed('country-KR')).toBe('true');
    await waitFor(() => expect(chips('2026-12-29')).toEqual(['삼성전자']));
    expect(calendarCalls(second.api)).toEqual([{ from: '2026-12-01', to: '2026-12-31', country: 'KR' }]);

    fireEvent.click(screen.getByTestId('country-US'));
    expect(window.localStorage.getItem('MOAT_DIVIDEND_COUNTRY')).toBe('US');
    await waitFor(() => expect(calendarCalls(second.api).at(-1)?.country).toBe('US'));
  });

  it('changes the month with the arrows, and opens on the current month', async () => {
    const { api, location } = renderPage(dividendsApi(), '/dividends');
    await waitFor(() => expect(calendarCalls(api)).toEqual([{ from: '2026-11-01', to: '2026-11-30', country: 'all' }]));
    expect(screen.getByRole('heading', { name: '2026년 11월' })).toBeTruthy();
    // Today is marked and chosen.
    expect(within(day('2026-11-22')).getByRole('button').getAttribute('aria-current')).toBe('date');
    expect(screen.getByTestId('day-panel').getAttribute('data-date')).toBe('2026-11-22');
    await waitFor(() => expect(chips('2026-11-28')).toEqual(['코카콜라']));

    fireEvent.click(screen.getByRole('button', { name: '다음 달' }));
    expect(location().search).toBe('?month=2026-12');
    await waitFor(() => expect(calendarCalls(api).at(-1)).toEqual({ from: '2026-12-01', to: '2026-12-31', country: 'all' }));
    expect(screen.getByRole('heading', { name: '2026년 12월' })).toBeTruthy();
    await waitFor(() => expect(chips('2026-12-29')).toEqual(['삼성전자']));

    fireEvent.click(screen.getByRole('button', { name: '다음 달' }));
    await waitFor(() => expect(calendarCalls(api).at(-1)).toEqual({ from: '2027-01-01', to: '2027-01-31', country: 'all' }));
    fireEvent.click(screen.getByRole('button', { name: '이전 달' }));
    fireEvent.click(screen.getByRole('button', { name: '이전 달' }));
    fireEvent.click(screen.getByRole('button', { name: '이전 달' }));
    await waitFor(() => expect(calendarCalls(api).at(-1)).toEqual({ from: '2026-10-01', to: '2026-10-31', country: 'all' }));
    expect(location().search).toBe('?month=2026-10');

    fireEvent.click(screen.getByRole('button', { name: '이번 달' }));
    expect(location().search).toBe('');
    expect((screen.getByRole('button', { name: '이번 달' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('is in English when English is chosen', async () => {
    await act(() => setLocale('en'));
    renderPage();
    await waitFor(() => expect(chips('2026-12-29')).toEqual(['Samsung Electronics']));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Dividends');
    expect(screen.getByRole('heading', { name: 'December 2026' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next month' })).toBeTruthy();
    expect(screen.getByTestId('country-KR').textContent).toBe('Korea');
    fireEvent.click(screen.getByTestId('view-list'));
    const groups = screen.getAllByTestId('dividend-day-group');
    expect(within(groups[0]!).getByRole('heading').textContent).toBe('Mon, December 7');
    expect(within(groups[3]!).getByTestId('dividend-entry').textContent).toBe('ExSamsung Electronics005930₩361 a share');
    expect(screen.getByTestId('dividends-login').textContent).toContain('Log in');
  });
});

describe('my dividends', () => {
  const logIn = () => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 7 }));

  it('asks a visitor to log in and does not ask for their dividends', async () => {
    const { api } = renderPage();
    const prompt = await screen.findByTestId('dividends-login');
    expect(within(prompt).getByRole('link', { name: '로그인' }).getAttribute('href')).toBe('/login?next=%2Fdividends');
    await waitFor(() => expect(chips('2026-12-29')).toEqual(['삼성전자']));
    expect(api.find('GET', '/api/me/dividends')).toEqual([]);
  });

  it('shows 12 projected months with net below gross, the totals and the yields', async () => {
    logIn();
    const { api } = renderPage();
    await waitFor(() => expect(screen.getAllByTestId('projection-month')).toHaveLength(12));
    expect(api.find('GET', '/api/me/dividends').map((c) => c.path)).toEqual(['/api/me/dividends?currency=KRW']);
    const months = screen.getAllByTestId('projection-month');
    expect(months.map((m) => m.getAttribute('data-month'))).toEqual([
      '2026-11', '2026-12', '2027-01', '2027-02', '2027-03', '2027-04',
      '2027-05', '2027-06', '2027-07', '2027-08', '2027-09', '2027-10',
    ]);
    for (const m of months) {
      const gross = Number(m.getAttribute('data-gross-height'));
      const net = Number(m.getAttribute('data-net-height'));
      if (gross === 0) expect(net).toBe(0);
      else expect(net).toBeLessThan(gross);
    }
    // The largest month fills the plot.
    expect(Number(months[1]!.getAttribute('data-gross-height'))).toBe(154);
    const rows = within(screen.getByTestId('projection-table')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(12);
    expect(rows[1]!.textContent).toBe('2026년 12월₩130,000₩109,980');

    expect(screen.getByTestId('total-gross').textContent).toBe('12개월 예상 배당 (세전)₩291,700');
    expect(screen.getByTestId('total-net').textContent).toBe('12개월 예상 배당 (세후)₩246,778');
    expect(screen.getByTestId('trailing-yield').textContent).toBe('배당수익률 (최근 12개월)2.31%');
    expect(screen.getByTestId('yield-on-cost').textContent).toBe('매입가 대비 배당수익률3.11%');

    const received = screen.getAllByTestId('received-row');
    expect(received).toHaveLength(1);
    expect(received[0]!.textContent).toContain('₩30,541');
    expect(received[0]!.textContent).toContain('100주 × ₩361');

    // In dollars.
    fireEvent.click(screen.getByTestId('currency-USD'));
    await waitFor(() => expect(api.find('GET', '/api/me/dividends').at(-1)?.path).toBe('/api/me/dividends?currency=USD'));
    await waitFor(() => expect(screen.getByTestId('total-gross').textContent).toContain('$291,700.00'));
  });

  it('records an entitlement with one tap', async () => {
    logIn();
    const { api } = renderPage();
    const row = await screen.findByTestId('entitlement');
    expect(row.textContent).toContain('키움 메인');
    expect(row.textContent).toContain('12주 × $0.26');
    expect(row.textContent).toContain('$2.65');
    const button = within(row).getByRole('button', { name: '애플 2026. 11. 13. 배당을 키움 메인에 기록' });
    fireEvent.click(button);

    expect(await within(row).findByTestId('entitlement-recorded')).toBeTruthy();
    expect(within(row).getByTestId('entitlement-recorded').textContent).toBe('기록됨');
    expect(api.find('POST', '/api/portfolios/7/transactions').map((c) => c.body)).toEqual([
      {
        kind: 'dividend',
        trade_date: '2026-11-13',
        instrument_id: 'NASDAQ:AAPL',
        quantity: '12',
        price: '0.26',
        fee: '0',
        tax: '0.47',
        currency: 'USD',
        fx_rate: '1385.2',
        split: null,
        note: '',
      },
    ]);
    expect((await screen.findByTestId('toast')).textContent).toContain('애플 배당을 기록했습니다.');
    // The member's data is asked for again.
    await waitFor(() => expect(api.find('GET', '/api/me/dividends')).toHaveLength(2));
  });

  it('a retry after a network failure sends the same Idempotency-Key, so the dividend is recorded once', async () => {
    logIn();
    let reachable = false;
    const api = marketApi({
      'GET /api/dividends/calendar': () => [],
      'GET /api/me/dividends': () => MINE,
      'POST /api/portfolios/7/transactions': (call) => {
        if (!reachable) throw new TypeError('Failed to fetch');
        return jsonResponse({ id: 99, ...(call.body as object) }, { status: 201 });
      },
    });
    renderPage(api);
    const row = await screen.findByTestId('entitlement');
    fireEvent.click(within(row).getByTestId('record-entitlement'));
    expect((await screen.findByTestId('toast')).textContent).toContain('애플 배당을 기록하지 못했습니다.');
    reachable = true;
    fireEvent.click(await within(row).findByTestId('record-entitlement'));
    expect(await within(row).findByTestId('entitlement-recorded')).toBeTruthy();
    const keys = api.find('POST', '/api/portfolios/7/transactions').map((c) => c.headers['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[\x21-\x7e]{1,255}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('says when a portfolio is counted only up to a transaction to fix, and leads to it', async () => {
    logIn();
    const issue = {
      portfolio_id: 7,
      transaction_id: 43,
      trade_date: '2026-10-01',
      kind: 'sell' as const,
      instrument_id: 'KRX:005930',
      field: 'quantity',
      code: 'insufficient_quantity' as const,
      params: { instrument: 'KRX:005930', quantity: '50', held: '0', date: '2026-10-01' },
      message: 'sells more than held',
    };
    renderPage(dividendsApi({ mine: { ...MINE, ledger_issues: [issue] } }));
    const note = await screen.findByTestId('dividends-ledger-issues');
    expect(note.getAttribute('role')).toBe('status');
    expect(note.textContent).toContain('일부 포트폴리오는 고쳐야 할 거래 전까지만 계산했습니다.');
    expect(within(note).getByRole('link', { name: '고칠 거래 보기' }).getAttribute('href')).toBe('/portfolios/7');
  });

  it('says nothing of the kind when every ledger is sound', async () => {
    logIn();
    renderPage();
    await screen.findByTestId('dividend-totals');
    expect(screen.queryByTestId('dividends-ledger-issues')).toBeNull();
  });

  it('says so when recording fails, and the button stays', async () => {
    logIn();
    const failing = marketApi({
      'GET /api/dividends/calendar': () => [],
      'GET /api/me/dividends': () => MINE,
      'POST /api/portfolios/7/transactions': () =>
        jsonResponse({ code: 'invalid_transaction', message: 'bad', fields: {}, request_id: 'r' }, { status: 422 }),
    });
    renderPage(failing);
    const row = await screen.findByTestId('entitlement');
    fireEvent.click(within(row).getByTestId('record-entitlement'));
    expect((await screen.findByTestId('toast')).textContent).toContain('애플 배당을 기록하지 못했습니다.');
    expect(within(row).getByTestId('record-entitlement')).toBeTruthy();
  });

  it('hides every amount while MOAT_META_PORTFOLIO_LOCK is on, percentages still shown', async () => {
    logIn();
    window.localStorage.setItem('MOAT_META_PORTFOLIO_LOCK', 'true');
    renderPage();
    await waitFor(() => expect(screen.getAllByTestId('projection-month')).toHaveLength(12));
    const section = screen.getByTestId('my-dividends');
    const amounts = within(section).getAllByTestId('amount');
    expect(amounts.length).toBeGreaterThan(10);
    for (const a of amounts) expect(a.getAttribute('data-masked')).toBe('true');
    expect(section.textContent).not.toMatch(/[₩$]\d/);
    expect(screen.getByTestId('total-gross').textContent).toBe('12개월 예상 배당 (세전)•••••금액 숨김');
    expect(screen.getByTestId('trailing-yield').textContent).toBe('배당수익률 (최근 12개월)2.31%');
    // Bars keep their shape; their labels are hidden too.
    expect(screen.getAllByTestId('projection-month')[1]!.querySelector('title')!.textContent).toBe('2026년 12월: 세전 •••••, 세후 •••••');

    // The eye button shows them again and remembers it.
    const lock = screen.getByTestId('amounts-lock');
    expect(lock.getAttribute('aria-label')).toBe('금액 보기');
    fireEvent.click(lock);
    expect(window.localStorage.getItem('MOAT_META_PORTFOLIO_LOCK')).toBe('false');
    expect(screen.getByTestId('total-gross').textContent).toBe('12개월 예상 배당 (세전)₩291,700');
    fireEvent.click(screen.getByRole('button', { name: '금액 숨기기' }));
    expect(window.localStorage.getItem('MOAT_META_PORTFOLIO_LOCK')).toBe('true');
    expect(screen.getByTestId('total-gross').textContent).toContain('•••••');
  });
});
