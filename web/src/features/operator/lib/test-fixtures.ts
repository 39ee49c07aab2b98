/** Sample answers of the operator read API for the console's tests (plain data). */
import type {
  ErrorGroup,
  ErrorGroupDetail,
  Feedback,
  ObsReplay,
  ObsSession,
  ObsSessionDetail,
  Trace,
  VitalsReport,
} from '../api/types';

export { MEMBER, OPERATOR } from '@/test/members';

export function session(overrides: Partial<ObsSession> = {}): ObsSession {
  return {
    secure_id: 'sess-1',
    member: '42',
    user_object: { nickname: '황소' } as never,
    properties: null,
    environment: 'production',
    app_version: '0.1.0',
    client_version: '9.20.0',
    user_agent: 'Mozilla/5.0 (iPhone)',
    started_at: '2026-11-20T01:00:00.000Z',
    last_push_at: '2026-11-20T01:02:05.000Z',
    first_event_at: 1_000_000,
    first_url: 'http://localhost:3000/stocks/KRX:005930',
    has_errors: true,
    has_feedback: false,
    event_count: 120,
    error_count: 2,
    bytes_received: 20480,
    ...overrides,
  };
}

/** The replay starts at 1,000,000 (client clock). */
export const REPLAY: ObsReplay = {
  secure_id: 'sess-1',
  events: [
    { type: 4, timestamp: 1_000_000, data: { href: 'http://localhost/', width: 390, height: 844 } },
    { type: 2, timestamp: 1_000_010, data: {} },
    { type: 3, timestamp: 1_030_000, data: {} },
  ],
  chunks: 1,
  total_chunks: 1,
  next_after: null,
};

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

export const SESSION_DETAIL: ObsSessionDetail = {
  session: session(),
  timeline: [
    { ts: 1_000_000, offset_ms: 0, kind: 'load', detail: { url: 'http://localhost/' } as never },
    {
      ts: 1_004_500,
      offset_ms: 4_500,
      kind: 'click',
      detail: { target: 'button', text: '매수', selector: 'button.buy' } as never,
    },
    {
      ts: 1_006_000,
      offset_ms: 6_000,
      kind: 'network',
      detail: {
        url: 'http://localhost/api/portfolios',
        method: 'POST',
        status: 500,
        duration_ms: 120.4,
        request_headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
        response_headers: { 'content-type': 'application/json' },
        request_body: '{"name":"연금"}',
        response_body: '{"code":"internal"}',
      } as never,
    },
    { ts: 1_007_000, offset_ms: 7_000, kind: 'console', detail: { level: 'warn', message: 'slow quote' } as never },
    {
      ts: 1_012_345,
      offset_ms: 12_345,
      kind: 'error',
      detail: {
        group_id: 7,
        message: 'Uncaught Error: boom',
        stack: [{ functionName: 'render', fileName: '/assets/index.js', lineNumber: 1, columnNumber: 20 }],
      } as never,
    },
  ],
};

export const TRACE: Trace = {
  trace_id: TRACE_ID,
  spans: [
    {
      span_id: 'a1',
      parent_span_id: null,
      name: 'HTTP POST',
      service: 'moat-web',
      kind: 3,
      start_unix_nano: '1000000000000000',
      start_offset_ms: 0,
      duration_ms: 120,
      status_code: 0,
      attributes: { 'http.url': '/api/portfolios' } as never,
      session_secure_id: 'sess-1',
    },
    {
      span_id: 'b2',
      parent_span_id: 'a1',
      name: 'POST /api/portfolios',
      service: 'moat-server',
      kind: 2,
      start_unix_nano: '1000000010000000',
      start_offset_ms: 10,
      duration_ms: 90,
      status_code: 2,
      status_message: 'internal',
      attributes: { 'http.response.status_code': 500 } as never,
      session_secure_id: 'sess-1',
    },
  ],
};

export function errorGroup(overrides: Partial<ErrorGroup> = {}): ErrorGroup {
  return {
    id: 7,
    fingerprint: '0123456789abcdef0123456789abcdef',
    error_type: 'window.onerror',
    message: 'Uncaught Error: boom',
    first_seen: '2026-11-18T00:00:00.000Z',
    last_seen: '2026-11-20T01:00:12.000Z',
    occurrences: 12,
    affected_sessions: 5,
    affected_members: 3,
    sample_stack: [
      { functionName: 'render', fileName: '/assets/index.js', lineNumber: 1, columnNumber: 20 },
      { functionName: 'commit', fileName: '/assets/react.js', lineNumber: 9 },
    ] as never,
    ...overrides,
  };
}

export const ERROR_DETAIL: ErrorGroupDetail = {
  group: errorGroup(),
  occurrences: [
    {
      session_secure_id: 'sess-1',
      member: '42',
      ts: 1_012_345,
      replay_offset_ms: 12_345,
      url: 'http://localhost/portfolios',
      message: 'Uncaught Error: boom',
      stack: null,
    },
  ],
  members: ['42'],
};

export function feedback(overrides: Partial<Feedback> = {}): Feedback {
  return {
    id: 3,
    session_secure_id: 'sess-1',
    member: '42',
    user_name: '황소',
    user_email: null,
    verbatim: '차트가 안 보여요',
    created_at: '2026-11-20T01:01:00.000Z',
    ...overrides,
  };
}

export const VITALS: VitalsReport = {
  from: '2026-11-13T00:00:00.000Z',
  to: '2026-11-20T00:00:00.000Z',
  thresholds: [
    { name: 'FCP', good: 1800, poor: 3000, unit: 'ms' },
    { name: 'CLS', good: 0.1, poor: 0.25, unit: '' },
    { name: 'FID', good: 100, poor: 300, unit: 'ms' },
    { name: 'INP', good: 200, poor: 500, unit: 'ms' },
    { name: 'LCP', good: 2500, poor: 4000, unit: 'ms' },
    { name: 'TTFB', good: 800, poor: 1800, unit: 'ms' },
  ],
  overall: [
    { name: 'CLS', p75: 0.3, samples: 40, rating: 'poor' },
    { name: 'LCP', p75: 2300, samples: 50, rating: 'good' },
    { name: 'INP', p75: 350, samples: 20, rating: 'needs_improvement' },
  ],
  pages: [
    {
      page: '/stocks/:id',
      vitals: [
        { name: 'LCP', p75: 3100, samples: 30, rating: 'needs_improvement' },
        { name: 'CLS', p75: 0.05, samples: 30, rating: 'good' },
      ],
    },
  ],
  truncated: false,
};
