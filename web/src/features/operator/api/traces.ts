/** `GET /api/operator/observe/traces/{trace_id}`: a trace's spans for the waterfall. */
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { observeKeys } from './keys';
import type { Trace } from './types';

const TRACE_ID = /^[0-9a-f]{32}$/;
const ZERO_TRACE = '0'.repeat(32);

/** A trace id as the API takes it (32 hex digits, lower case), or `undefined`. */
export function normaliseTraceId(value: string): string | undefined {
  const id = value.trim().toLowerCase();
  return TRACE_ID.test(id) && id !== ZERO_TRACE ? id : undefined;
}

/**
 * The trace id a recorded request carried, from its W3C `traceparent` request header
 * (`00-<trace id>-<span id>-<flags>`), if the recorder kept it.
 */
export function traceIdOfHeaders(headers: unknown): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'traceparent' || typeof value !== 'string') continue;
    const parts = value.trim().split('-');
    return parts.length >= 4 ? normaliseTraceId(parts[1] ?? '') : undefined;
  }
  return undefined;
}

export function traceQueryOptions(traceId: string) {
  return queryOptions({
    queryKey: observeKeys.trace(traceId),
    queryFn: ({ signal }) => apiRequest<Trace>(`/api/operator/observe/traces/${traceId}`, { signal }),
  });
}
