/** `GET /api/operator/observe/vitals`: p75 of each web vital, overall and per page. */
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '@/shared/api/client';
import { observeKeys } from './keys';

/** The periods the page offers, in days back from now (the API's default is 7). */
export const VITALS_RANGES = { day: 1, week: 7, month: 30 } as const;
export type VitalsRange = keyof typeof VITALS_RANGES;

export function isVitalsRange(value: unknown): value is VitalsRange {
  return typeof value === 'string' && Object.hasOwn(VITALS_RANGES, value);
}

export function vitalsQueryOptions(range: VitalsRange) {
  return queryOptions({
    queryKey: observeKeys.vitals(range),
    queryFn: ({ signal }) =>
      apiGet('/api/operator/observe/vitals', {
        // `to` is left to the server (now); `from` counts back from the browser's clock.
        query: { from: new Date(Date.now() - VITALS_RANGES[range] * 86_400_000).toISOString() },
        signal,
      }),
    staleTime: 60_000,
  });
}
