import type { LedgerIssue, Transaction } from '@/entities/transaction/api/types';
import type { Holding, Valuation } from '../api/valuation';
import type { ImportPreview } from '../api/import';
import type { Performance, PeriodReturn } from '../api/performance';
import type { Portfolio } from '../api/portfolio';
import type { PortfolioList, Totals } from '../api/list';
import type { Slice } from '../api/allocation';
/**
 * Test data and an API double for the portfolio tests (used by `*.test.tsx` only; the
 * app never imports this module). Shapes follow docs/portfolio.md.
 */

export function totals(overrides: Partial<Totals> = {}): Totals {
  return {
    currency: 'KRW',
    market_value: '10000000',
    cash: '1250000',
    total_value: '11250000',
    cost_basis: '9000000',
    unrealised_gain: '1000000',
    realised_gain: '150000',
    dividends_net: '30450',
    day_change: '120000',
    return_percent: '11.1111111111',
    day_change_percent: '1.0781671159',
    ...overrides,
  };
}

export function portfolio(overrides: Partial<Portfolio> = {}): Portfolio {
  return {
    id: 7,
    name: '키움 메인',
    base_currency: 'KRW',
    cost_method: 'moving_average',
    broker: 'Kiwoom',
    position: 0,
    orderable_cash: { amount: '1250000', currency: 'KRW', updated_at: '2026-11-22T09:00:00Z' },
    created_at: '2026-11-22T09:00:00Z',
    ...overrides,
  };
}

export const US_PORTFOLIO = portfolio({ id: 9, name: 'US growth', base_currency: 'USD', broker: null, position: 1, orderable_cash: null });

export function portfolioList(currency = 'KRW'): PortfolioList {
  const usd = currency === 'USD';
  return {
    portfolios: [
      {
        portfolio: portfolio(),
        totals: usd ? totals({ currency: 'USD', total_value: '8123.45', day_change: '86.60', cash: '902.50' }) : totals(),
        ledger_issue: null,
      },
      {
        portfolio: US_PORTFOLIO,
        ledger_issue: null,
        totals: totals({
          currency: currency === 'original' ? 'USD' : currency,
          total_value: usd || currency === 'original' ? '5000.50' : '6925000',
          day_change: usd || currency === 'original' ? '-25.10' : '-34760',
          day_change_percent: '-0.5',
          return_percent: '-2.345',
        }),
      },
    ],
    meta: totals({
      currency: usd ? 'USD' : 'KRW',
      total_value: usd ? '13123.95' : '18175000',
      day_change: usd ? '61.50' : '85240',
      return_percent: '6.25',
      day_change_percent: '0.47',
    }),
  };
}

export function holding(overrides: Partial<Holding> = {}): Holding {
  return {
    instrument: 'KRX:005930',
    name_ko: '삼성전자',
    name_en: 'Samsung Electronics',
    ticker: '005930',
    kind: 'stock',
    currency: 'KRW',
    trade_currency: 'KRW',
    quantity: '100',
    average_cost: '65000',
    cost_basis: '6500000',
    price: '71200',
    previous_close: '70000',
    price_missing: false,
    market_value: '7120000',
    unrealised_gain: '620000',
    return_percent: '9.5384615385',
    day_change: '120000',
    day_change_percent: '1.7142857143',
    realised_gain: '0',
    dividends_net: '30450',
    market_value_total: '7120000',
    weight_percent: '63.2888888889',
    ...overrides,
  };
}

export const HOLDINGS: Holding[] = [
  holding(),
  holding({
    instrument: 'NASDAQ:AAPL',
    name_ko: '애플',
    name_en: 'Apple',
    ticker: 'AAPL',
    currency: 'USD',
    trade_currency: 'USD',
    quantity: '1.5',
    average_cost: '180.1234',
    cost_basis: '270.19',
    price: '189.43',
    previous_close: '190.63',
    market_value: '284.15',
    unrealised_gain: '13.96',
    return_percent: '25.5',
    day_change: '-1.80',
    day_change_percent: '-0.63',
    market_value_total: '393604',
    weight_percent: '3.4987',
  }),
  holding({
    instrument: 'KRX:000660',
    name_ko: 'SK하이닉스',
    name_en: 'SK hynix',
    ticker: '000660',
    quantity: '14',
    average_cost: '150000',
    price: '190000',
    market_value: '2660000',
    unrealised_gain: '560000',
    return_percent: '26.6666666667',
    day_change: '0',
    day_change_percent: '3.2',
    market_value_total: '2660000',
    weight_percent: '23.6444444444',
  }),
];

export function valuation(overrides: Partial<Valuation> = {}): Valuation {
  return {
    mode: 'original',
    holdings: HOLDINGS,
    cash: [{ currency: 'KRW', amount: '1250000', amount_total: '1250000', weight_percent: '11.1111' }],
    totals: totals(),
    as_of: '2026-11-23T06:30:00Z',
    ledger_issues: [],
    ...overrides,
  };
}

/**
 * A portfolio started on 2026-01-02 (the chart's base point is the day before), with a
 * large deposit on 2026-03-03. Its cumulative return and KOSPI's, in per cent, each
 * since the base point; the 1M period starts at the close of 2026-10-23.
 */
export function performance(): Performance {
  return {
    currency: 'KRW',
    benchmark: 'INDEX:KOSPI',
    points: [
      { date: '2026-01-01', value: '0', flow: '0', cumulative_return: '0', benchmark_return: '0' },
      { date: '2026-01-02', value: '1000000', flow: '1000000', cumulative_return: '-0.5', benchmark_return: '0.4' },
      { date: '2026-03-02', value: '1100000', flow: '0', cumulative_return: '9.45', benchmark_return: '4.4' },
      { date: '2026-03-03', value: '3500000', flow: '2300000', cumulative_return: '9.8', benchmark_return: '4.8' },
      { date: '2026-10-23', value: '3600000', flow: '0', cumulative_return: '12.3', benchmark_return: '2.1' },
      { date: '2026-11-23', value: '3200000', flow: '0', cumulative_return: '1.5', benchmark_return: '2' },
    ],
    periods: [
      period({
        period: '1M',
        start: '2026-10-23',
        twr: '-9.6170970614',
        mwr: '-9.6170970614',
        simple: '-11.1111111111',
        gain: '-400000',
        start_value: '3600000',
        explanation: { code: 'no_flows', difference: '0' },
      }),
      period({
        period: 'ALL',
        twr: '1.5',
        mwr: '-6.1',
        simple: '-3.03',
        gain: '-100000',
        explanation: {
          code: 'added_before_fall',
          difference: '-7.6',
          flow_date: '2026-03-03',
          flow_amount: '2300000',
          flow_share: '70',
          return_after_flow: '-8.57',
        },
      }),
    ],
    ledger_issues: [],
  };
}

export function period(overrides: Partial<PeriodReturn> & Pick<PeriodReturn, 'period' | 'explanation'>): PeriodReturn {
  return {
    start: '2026-01-01',
    end: '2026-11-23',
    twr: '0',
    mwr: '0',
    mwr_annual: '0',
    simple: '0',
    gain: '0',
    start_value: '0',
    end_value: '3200000',
    net_flows: '3300000',
    ...overrides,
  };
}

/** The sell that stopped portfolio 7's ledger: 50 shares of 삼성전자 more than were held. */
export function ledgerIssue(overrides: Partial<LedgerIssue> = {}): LedgerIssue {
  return {
    portfolio_id: 7,
    transaction_id: 43,
    trade_date: '2026-10-01',
    kind: 'sell',
    instrument_id: 'KRX:005930',
    field: 'quantity',
    code: 'insufficient_quantity',
    params: { instrument: 'KRX:005930', quantity: '50', held: '0', date: '2026-10-01' },
    message: 'sells 50 of KRX:005930 but 0 are held on 2026-10-01',
    ...overrides,
  };
}

export const ALLOCATION: Slice[] = [
  { key: 'Information Technology', value: '9780000', weight_percent: '86.93' },
  { key: 'cash', value: '1250000', weight_percent: '11.11' },
  { key: 'unknown', value: '220000', weight_percent: '1.96' },
];

/** The meta portfolio's split by holding, largest first. */
export const META_ALLOCATION: Slice[] = [
  { key: 'KRX:005930', value: '7000000', weight_percent: '62.22' },
  { key: 'KRX:000660', value: '2500000', weight_percent: '22.22' },
  { key: 'cash', value: '1250000', weight_percent: '11.11' },
  { key: 'NASDAQ:AAPL', value: '500000', weight_percent: '4.45' },
];

export function transaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: 41,
    kind: 'buy',
    trade_date: '2026-03-04',
    instrument_id: 'NASDAQ:AAPL',
    quantity: '1.5',
    price: '189.43',
    fee: '0.50',
    tax: '0',
    currency: 'USD',
    fx_rate: '1385.2',
    split: null,
    note: '',
    ...overrides,
  };
}

export const TRANSACTIONS: Transaction[] = [
  transaction({ id: 40, kind: 'deposit', trade_date: '2026-03-01', instrument_id: null, quantity: '1', price: '10000000', fee: '0', currency: 'KRW', fx_rate: null }),
  transaction(),
  transaction({ id: 42, kind: 'buy', trade_date: '2026-03-05', instrument_id: 'KRX:005930', quantity: '100', price: '65000', fee: '0', currency: 'KRW', fx_rate: null }),
];

export function importPreview(overrides: Partial<ImportPreview> = {}): ImportPreview {
  return {
    format: 'moat',
    encoding: 'utf-8',
    skipped: [],
    total_rows: 2,
    new_rows: 1,
    duplicate_rows: 1,
    first_date: '2026-03-01',
    last_date: '2026-03-05',
    rows: [
      { line: 2, transaction: { ...TRANSACTIONS[0]!, id: undefined } as never, duplicate: true },
      { line: 3, transaction: { ...TRANSACTIONS[2]!, id: undefined } as never, duplicate: false },
    ],
    errors: [],
    warnings: [],
    ignored_columns: [],
    ...overrides,
  };
}

/** One recorded request. */
export interface Call {
  method: string;
  path: string;
  search: URLSearchParams;
  /** Parsed JSON, or the raw text of a non-JSON body (CSV). */
  body: unknown;
  contentType: string | undefined;
  /** The request's headers as the app set them. */
  headers: Record<string, string>;
}

type Answer = Response | Promise<Response> | unknown;

/**
 * An API double: `routes['GET /api/portfolios']` answers that method and path (without
 * the query). Records every call; unknown paths answer `fallback`. A route may answer
 * later (a `Promise<Response>`), or throw for a network failure.
 */
export function portfolioApi(
  routes: Record<string, (call: Call, url: URL) => Answer>,
  fallback: (url: URL) => Response,
) {
  const calls: Call[] = [];
  const handler = (url: URL, init: RequestInit | undefined): Response | Promise<Response> => {
    const method = init?.method ?? 'GET';
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const contentType = headers['Content-Type'];
    const raw = typeof init?.body === 'string' ? init.body : undefined;
    const body = raw !== undefined && contentType?.startsWith('application/json') ? JSON.parse(raw) : raw;
    const call: Call = { method, path: url.pathname, search: url.searchParams, body, contentType, headers };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (!route) return fallback(url);
    const answer = route(call, url);
    if (answer instanceof Response || answer instanceof Promise) return answer as Response | Promise<Response>;
    if (answer === undefined) return new Response(null, { status: 204 });
    return new Response(JSON.stringify(answer), { status: method === 'POST' ? 201 : 200, headers: { 'Content-Type': 'application/json' } });
  };
  return {
    handler,
    calls,
    find: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A JSON error answer in the API's shape. */
export function apiError(status: number, code: string, extra: Record<string, unknown> = {}): Response {
  return new Response(JSON.stringify({ code, message: code, request_id: 'test', ...extra }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}
