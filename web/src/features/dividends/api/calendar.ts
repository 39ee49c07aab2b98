/** `GET /api/dividends/calendar?from=&to=&country=`: dividends with an ex-date or a pay date in a range. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, type ApiSchema } from '@/shared/api/client';
import type { CountryFilter } from '@/shared/lib/storage';
import type { IsoDate } from '../lib/dates';
import { dividendKeys } from './keys';

/**
 * A dividend with its instrument's names: `amount` per share in `currency`; `pay_date`
 * absent while the company has not announced it. Decimal strings; dates `YYYY-MM-DD`.
 */
export type CalendarDividend = ApiSchema<'CalendarDividend'>;

/** The API's `country` parameter for a stored filter (`ALL` → `all`). */
export function countryParam(filter: CountryFilter): 'KR' | 'US' | 'all' {
  return filter === 'ALL' ? 'all' : filter;
}

export const fetchCalendar = (from: IsoDate, to: IsoDate, country: CountryFilter, signal?: AbortSignal) =>
  apiRequest<CalendarDividend[]>('/api/dividends/calendar', { query: { from, to, country: countryParam(country) }, signal });

export function calendarQueryOptions(from: IsoDate, to: IsoDate, country: CountryFilter) {
  return queryOptions({
    queryKey: dividendKeys.calendar(from, to, country),
    queryFn: ({ signal }) => fetchCalendar(from, to, country, signal),
    staleTime: 5 * 60_000,
    // The previous month stays on screen (dimmed) while the next one loads: no jump.
    placeholderData: keepPreviousData,
  });
}

/** The dividends with an ex-date or a pay date between `from` and `to` (inclusive). */
export function useDividendCalendar(from: IsoDate, to: IsoDate, country: CountryFilter) {
  return useQuery(calendarQueryOptions(from, to, country));
}
