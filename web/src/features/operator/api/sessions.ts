/** `GET /api/operator/observe/sessions`: recorded sessions, newest first, by cursor. */
import { queryOptions } from '@tanstack/react-query';
import { apiGet, type QueryValue } from '@/shared/api/client';
import { LIST_STALE_MS, observeKeys } from './keys';

/** Rows per page (the API allows 1–200). */
export const SESSIONS_PAGE_SIZE = 50;

/** Environments the app tags its sessions with (PRODUCT.md: development when the host says so). */
export const ENVIRONMENTS = ['production', 'development'] as const;

/** The list's filters, as the page keeps them in its URL. Empty strings mean "any". */
export interface SessionFilters {
  /** Exact member identifier (the user id the app identifies sessions with). */
  member: string;
  /** First day, `YYYY-MM-DD` in the operator's time zone. */
  from: string;
  /** Last day (inclusive), `YYYY-MM-DD` in the operator's time zone. */
  to: string;
  environment: string;
  hasErrors: boolean;
  hasFeedback: boolean;
}

export const NO_FILTERS: SessionFilters = {
  member: '',
  from: '',
  to: '',
  environment: '',
  hasErrors: false,
  hasFeedback: false,
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const day = (value: string | null) => (value && DAY.test(value) ? value : '');

/** The filters in a URL's search parameters (unknown or malformed values are ignored). */
export function filtersFromSearch(params: URLSearchParams): SessionFilters {
  return {
    member: params.get('member')?.trim() ?? '',
    from: day(params.get('from')),
    to: day(params.get('to')),
    environment: params.get('env') ?? '',
    hasErrors: params.get('errors') === '1',
    hasFeedback: params.get('feedback') === '1',
  };
}

/** The search parameters of `filters` (only those that are set). */
export function filtersToSearch(filters: SessionFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.member.trim()) params.set('member', filters.member.trim());
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.environment) params.set('env', filters.environment);
  if (filters.hasErrors) params.set('errors', '1');
  if (filters.hasFeedback) params.set('feedback', '1');
  return params;
}

/**
 * Midnight starting `yyyyMmDd` plus `days`, in the browser's time zone, as RFC 3339: the
 * operator picks days on their own calendar, the API compares instants.
 */
export function localDayStart(yyyyMmDd: string, days = 0): string | undefined {
  const m = DAY.exec(yyyyMmDd);
  if (!m) return undefined;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The API's query for one page of `filters`; `before` is the previous page's `next_before`. */
export function sessionsQuery(filters: SessionFilters, before?: number): Record<string, QueryValue> {
  return {
    member: filters.member.trim() || undefined,
    environment: filters.environment || undefined,
    from: localDayStart(filters.from),
    // The last day is inclusive: sessions started before the next midnight.
    to: localDayStart(filters.to, 1),
    has_errors: filters.hasErrors ? 'true' : undefined,
    has_feedback: filters.hasFeedback ? 'true' : undefined,
    before,
    limit: SESSIONS_PAGE_SIZE,
  };
}

/** One page of `filters`: the first, or the one after `before` (`next_before` of the previous). */
export function sessionsPageOptions(filters: SessionFilters, before?: number) {
  return queryOptions({
    queryKey: observeKeys.sessions(filters, before),
    queryFn: ({ signal }) => apiGet('/api/operator/observe/sessions', { query: sessionsQuery(filters, before), signal }),
    staleTime: LIST_STALE_MS,
  });
}
