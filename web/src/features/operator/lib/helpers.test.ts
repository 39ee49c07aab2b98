import { describe, expect, it } from 'vitest';
import { NO_FILTERS, filtersFromSearch, filtersToSearch, localDayStart, sessionsQuery } from '../api/sessions';
import { normaliseTraceId, traceIdOfHeaders } from '../api/traces';
import { ratingOf, scaleMax } from '../components/VitalsChart';
import { traceLength, waterfallRows } from '../components/Waterfall';
import { formatClock, formatVital, millisBetween, nicknameOf } from './format';
import { offsetParam, sessionPath } from './paths';
import { firstEventTime, frameSize, recordedViewport } from '../components/player/ReplayPlayer';
import { splitOperatorPath } from '../pages/OperatorRoutes';
import { TRACE } from './test-fixtures';
import type { Span } from '../api/types';

describe('session filters', () => {
  it('round-trip through the URL, ignoring malformed values', () => {
    const filters = { member: '42', from: '2026-11-01', to: '2026-11-20', environment: 'production', hasErrors: true, hasFeedback: false };
    expect(filtersFromSearch(filtersToSearch(filters))).toEqual(filters);
    expect(filtersToSearch(NO_FILTERS).toString()).toBe('');
    expect(filtersFromSearch(new URLSearchParams('from=yesterday&errors=yes'))).toEqual(NO_FILTERS);
  });

  it('send whole local days as instants, the last day inclusive', () => {
    expect(localDayStart('2026-11-20')).toBe(new Date(2026, 10, 20).toISOString());
    expect(localDayStart('2026-12-31', 1)).toBe(new Date(2027, 0, 1).toISOString());
    expect(localDayStart('nope')).toBeUndefined();
    expect(sessionsQuery({ ...NO_FILTERS, to: '2026-11-20' }, 17)).toEqual({
      member: undefined,
      environment: undefined,
      from: undefined,
      to: new Date(2026, 10, 21).toISOString(),
      has_errors: undefined,
      has_feedback: undefined,
      before: 17,
      limit: 50,
    });
  });
});

describe('trace ids', () => {
  it('are 32 hex digits, not all zero', () => {
    expect(normaliseTraceId(' 4BF92F3577B34DA6A3CE929D0E0E4736 ')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(normaliseTraceId('0'.repeat(32))).toBeUndefined();
    expect(normaliseTraceId('4bf92f35')).toBeUndefined();
  });

  it('come from a recorded request’s traceparent header, whatever its case', () => {
    expect(traceIdOfHeaders({ TraceParent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' })).toBe(
      '4bf92f3577b34da6a3ce929d0e0e4736',
    );
    expect(traceIdOfHeaders({ traceparent: 'garbage' })).toBeUndefined();
    expect(traceIdOfHeaders({ authorization: '[REDACTED]' })).toBeUndefined();
    expect(traceIdOfHeaders(null)).toBeUndefined();
  });
});

describe('the waterfall', () => {
  const span = (id: string, parent: string | null, start: number, duration: number): Span => ({
    ...TRACE.spans[0]!,
    span_id: id,
    parent_span_id: parent,
    start_offset_ms: start,
    duration_ms: duration,
  });

  it('orders spans as a tree by start; orphans and cycles do not get lost', () => {
    const rows = waterfallRows([
      span('c', 'a', 30, 5),
      span('a', null, 0, 100),
      span('b', 'a', 10, 5),
      span('orphan', 'missing', 50, 1),
      span('x', 'y', 60, 1),
      span('y', 'x', 61, 1),
    ]);
    expect(rows.map((r) => `${r.span.span_id}:${r.depth}`)).toEqual(['a:0', 'b:1', 'c:1', 'orphan:0', 'x:0', 'y:1']);
  });

  it('lasts until the latest end', () => {
    expect(traceLength([span('a', null, 0, 100), span('b', 'a', 90, 30)])).toBe(120);
    expect(traceLength([])).toBe(1);
  });
});

describe('web vital charts', () => {
  const lcp = { name: 'LCP', good: 2500, poor: 4000, unit: 'ms' };
  it('rate by the server, or by the thresholds if it said something else', () => {
    expect(ratingOf({ name: 'LCP', p75: 100, samples: 1, rating: 'poor' }, lcp)).toBe('poor');
    expect(ratingOf({ name: 'LCP', p75: 2500, samples: 1, rating: '?' }, lcp)).toBe('good');
    expect(ratingOf({ name: 'LCP', p75: 4000, samples: 1, rating: '?' }, lcp)).toBe('needs_improvement');
    expect(ratingOf({ name: 'LCP', p75: 4001, samples: 1, rating: '?' }, lcp)).toBe('poor');
  });

  it('scale past the poor threshold and the value', () => {
    expect(scaleMax(1000, lcp)).toBe(6000);
    expect(scaleMax(10_000, lcp)).toBe(11_000);
  });
});

describe('formatting', () => {
  it('writes replay positions as clocks', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(4_500)).toBe('0:04');
    expect(formatClock(125_000)).toBe('2:05');
    expect(formatClock(3_723_000)).toBe('1:02:03');
    expect(millisBetween('2026-11-20T01:00:00Z', '2026-11-20T01:02:05Z')).toBe(125_000);
    expect(millisBetween('x', '2026-11-20T01:02:05Z')).toBe(0);
  });

  it('writes vitals in ms, CLS without a unit', () => {
    expect(formatVital(2300, 'ms', 'ko')).toBe('2,300 ms');
    expect(formatVital(2.25, 'ms', 'en')).toBe('2.3 ms');
    expect(formatVital(0.1234, '', 'en')).toBe('0.123');
  });

  it('finds the nickname the app identified a member with', () => {
    expect(nicknameOf({ nickname: '황소' })).toBe('황소');
    expect(nicknameOf({ nickname: '' })).toBeUndefined();
    expect(nicknameOf(null)).toBeUndefined();
  });
});

describe('replay positions', () => {
  it('count from the earliest event', () => {
    expect(firstEventTime([{ type: 3, timestamp: 20 }, { type: 4, timestamp: 10 }])).toBe(10);
    expect(firstEventTime([])).toBeUndefined();
  });

  it('travel in links as ?t=<ms>', () => {
    expect(sessionPath('a b', 12_345.4)).toBe('/operator/sessions/a%20b?t=12345');
    expect(sessionPath('s', null)).toBe('/operator/sessions/s');
    expect(offsetParam('12345')).toBe(12_345);
    expect(offsetParam('-1')).toBeUndefined();
    expect(offsetParam('1e3')).toBeUndefined();
    expect(offsetParam(null)).toBeUndefined();
  });

  it('fit the recorded viewport into the box', () => {
    expect(recordedViewport([{ type: 4, timestamp: 0, data: { width: 390, height: 844 } }])).toEqual({ width: 390, height: 844 });
    expect(recordedViewport([])).toEqual({ width: 1280, height: 720 });
    expect(frameSize(800, { width: 1280, height: 720 }, 600)).toEqual({ width: 800, height: 450 });
    expect(frameSize(328, { width: 390, height: 844 }, 400)).toEqual({ width: 328, height: 400 });
  });
});

describe('operator paths', () => {
  it('split into a section and an id; deeper paths are unknown', () => {
    expect(splitOperatorPath('')).toEqual({ section: '', id: undefined, known: true });
    expect(splitOperatorPath('sessions/')).toEqual({ section: 'sessions', id: undefined, known: true });
    expect(splitOperatorPath('sessions/abc')).toEqual({ section: 'sessions', id: 'abc', known: true });
    expect(splitOperatorPath('sessions/abc/def')).toEqual({ section: 'sessions', id: 'abc', known: false });
  });
});
