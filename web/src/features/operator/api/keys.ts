import type { SessionFilters } from './sessions';
import type { VitalsRange } from './vitals';

/**
 * How long a list page counts as fresh: each page's rows read the same query as the
 * paging does, and a page must not be fetched again just because its rows mounted.
 */
export const LIST_STALE_MS = 30_000;

/** Query keys of the market-data providers' page. */
export const operatorKeys = {
  all: ['operator'] as const,
  providers: () => [...operatorKeys.all, 'providers'] as const,
};

/** Query keys of the observability console. */
export const observeKeys = {
  all: ['observe'] as const,
  sessions: (filters: SessionFilters, before?: number) => [...observeKeys.all, 'sessions', filters, before ?? null] as const,
  session: (secureId: string) => [...observeKeys.all, 'session', secureId] as const,
  replay: (secureId: string) => [...observeKeys.all, 'replay', secureId] as const,
  errorGroups: (offset?: number) => [...observeKeys.all, 'errors', offset ?? 0] as const,
  errorGroup: (id: number) => [...observeKeys.all, 'error', id] as const,
  feedback: (before?: number) => [...observeKeys.all, 'feedback', before ?? null] as const,
  vitals: (range: VitalsRange) => [...observeKeys.all, 'vitals', range] as const,
  trace: (traceId: string) => [...observeKeys.all, 'trace', traceId] as const,
};
