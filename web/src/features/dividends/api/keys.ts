/**
 * Query keys of the dividend API: the public calendar under `['dividends', …]`, the
 * member's own dividends under `['me', userId, 'dividends', …]` (`entities/member`).
 */
import { MEMBER_QUERY_ROOT } from '@/entities/member/api/keys';
import type { CountryFilter } from '@/shared/lib/storage';
import type { IsoDate } from '../lib/dates';

/** The currencies the member's figures can be shown in. */
export type DividendCurrency = 'KRW' | 'USD';

export const dividendKeys = {
  instrument: (id: string) => ['dividends', 'instrument', id] as const,
  calendar: (from: IsoDate, to: IsoDate, country: CountryFilter) => ['dividends', 'calendar', from, to, country] as const,
  mine: (userId: number | null, currency: DividendCurrency) => [MEMBER_QUERY_ROOT, userId, 'dividends', currency] as const,
};
