/** Test doubles for the market screens: a fake WebSocket, sample instruments and quotes, an API double. */
import type {
  Instrument,
  InstrumentDetail,
  MarketOverviewResponse,
  PricedInstrument,
  Quote,
  QuotedInstrument,
} from '@/entities/instrument/api/types';
import type { StreamRequest } from '@/shared/stream/frames';
import type { SocketLike } from '@/shared/stream/stream';
import { jsonResponse, TEST_META, type FetchHandler } from './fetch';

/** A WebSocket the test opens, feeds and drops by hand; records what the app sent. */
export class FakeWebSocket implements SocketLike {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readyState = FakeWebSocket.CONNECTING;
  readonly sent: StreamRequest[] = [];
  closedByClient = false;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as StreamRequest);
  }

  close(): void {
    this.closedByClient = true;
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** The server accepted the connection. */
  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  /** The server sent `message` (serialised as JSON). */
  push(message: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  /** The connection broke. */
  drop(): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onerror?.(new Event('error'));
    this.onclose?.(new Event('close') as CloseEvent);
  }

  /** The server closed the connection with `code`. */
  closeWith(code: number, reason = ''): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code, reason }));
  }

  /** Tokens the app sent in `auth`, in order. */
  authTokens(): string[] {
    return this.sent.flatMap((f) => (f.op === 'auth' ? [f.token] : []));
  }

  /** Topics the app asked to subscribe to / unsubscribe from, in order. */
  frames(op: 'subscribe' | 'unsubscribe'): string[][] {
    return this.sent.flatMap((f) => (f.op === op ? [f.topics] : []));
  }

  static get latest(): FakeWebSocket | undefined {
    return FakeWebSocket.instances.at(-1);
  }

  static reset(): void {
    FakeWebSocket.instances = [];
  }
}

export function instrument(overrides: Partial<Instrument> = {}): Instrument {
  return {
    id: 'KRX:005930',
    ticker: '005930',
    exchange: 'KRX',
    board: 'KOSPI',
    kind: 'stock',
    currency: 'KRW',
    country: 'KR',
    name_ko: '삼성전자',
    name_en: 'Samsung Electronics',
    sector: 'Information Technology',
    shares_outstanding: 5919637922,
    simulated: true,
    ...overrides,
  };
}

export const AAPL = instrument({
  id: 'NASDAQ:AAPL',
  ticker: 'AAPL',
  exchange: 'NASDAQ',
  board: null,
  currency: 'USD',
  country: 'US',
  name_ko: '애플',
  name_en: 'Apple',
  shares_outstanding: 15_000_000_000,
});

export const HYNIX = instrument({ id: 'KRX:000660', ticker: '000660', name_ko: 'SK하이닉스', name_en: 'SK hynix' });

export function quote(overrides: Partial<Quote> = {}): Quote {
  return {
    instrument_id: 'KRX:005930',
    price: '71200',
    previous_close: '70000',
    change: '1200',
    change_percent: '1.7142857142857142857142857143',
    open: '70100',
    high: '71500',
    low: '69900',
    volume: 12345678,
    as_of: '2025-01-02T06:30:00Z',
    state: 'live',
    source: 'simulator',
    simulated: true,
    ...overrides,
  };
}

export function detail(base: Instrument = instrument(), q: Partial<Quote> = {}): InstrumentDetail {
  return {
    ...base,
    quote: quote({ instrument_id: base.id, ...q }),
    stats: {
      previous_close: '70000',
      open: '70100',
      day_high: '71500',
      day_low: '69900',
      week52_high: '88800',
      week52_low: '49900',
      volume: 12345678,
      market_cap: '421477400000000',
      dividend_yield: '2.03',
    },
  };
}

export function quoted(base: Instrument, q: Partial<Quote> = {}): QuotedInstrument {
  return { ...base, ...quote({ instrument_id: base.id, simulated: base.simulated, ...q }) };
}

export const KOSPI = instrument({ id: 'INDEX:KOSPI', ticker: 'KOSPI', exchange: 'INDEX', board: null, kind: 'index', name_ko: '코스피', name_en: 'KOSPI', sector: '', shares_outstanding: null });
export const USDKRW = instrument({ id: 'FX:USDKRW', ticker: 'USDKRW', exchange: 'FX', board: null, kind: 'currency', country: '', name_ko: '달러/원', name_en: 'USD/KRW', sector: '', shares_outstanding: null });

/** An overview item as the server sends it: `{instrument, quote}`. */
export function priced(base: Instrument, q: Partial<Quote> = {}): PricedInstrument {
  const { id, ticker, exchange, board, kind, currency, country, name_ko, name_en, sector, shares_outstanding, simulated } = quoted(base, q);
  const { instrument_id, price, previous_close, change, change_percent, open, high, low, volume, as_of, state, source } = quoted(base, q);
  return {
    instrument: { id, ticker, exchange, board, kind, currency, country, name_ko, name_en, sector, shares_outstanding, simulated },
    quote: { instrument_id, price, previous_close, change, change_percent, open, high, low, volume, as_of, state, source, simulated },
  };
}

/** `GET /api/market/overview` as the server answers it. */
export function overview(): MarketOverviewResponse {
  return {
    indices: [priced(KOSPI, { price: '2650.12', previous_close: '2640.00', change: '10.12', change_percent: '0.38' })],
    fx: [priced(USDKRW, { price: '1380.5', previous_close: '1385.0', change: '-4.5', change_percent: '-0.32' })],
    movers: {
      gainers: [priced(HYNIX, { price: '190000', change: '15000', change_percent: '8.57' })],
      losers: [priced(AAPL, { price: '189.43', previous_close: '195.00', change: '-5.57', change_percent: '-2.86' })],
    },
  };
}

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
  /** The request's headers as the app set them. */
  headers: Record<string, string>;
}

/**
 * An API double: `routes['GET /api/market/overview']` answers that request (the path
 * without the query); records every call. Unknown paths 404 in the API's error shape.
 */
export function marketApi(routes: Record<string, (call: ApiCall, url: URL) => Response | unknown> = {}) {
  const calls: ApiCall[] = [];
  const handler: FetchHandler = (url, init) => {
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const call = { method, path: url.pathname + url.search, body, headers };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (route) {
      const answer = route(call, url);
      // An answer may come later (a promise), to test what is shown meanwhile.
      if (answer instanceof Promise) return answer.then((a: unknown) => (a instanceof Response ? a : jsonResponse(a)));
      return answer instanceof Response ? answer : jsonResponse(answer);
    }
    if (url.pathname === '/api/meta') return jsonResponse(TEST_META);
    return jsonResponse({ code: 'not_found', message: 'not found', request_id: 'test' }, { status: 404 });
  };
  return {
    handler,
    calls,
    find: (method: string, path: string) => calls.filter((c) => c.method === method && c.path.startsWith(path)),
  };
}
