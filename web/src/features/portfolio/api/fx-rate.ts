/**
 * `GET /api/fx/{pair}?from=&to=`: the stored daily rate of a currency on a date (the
 * last one on or before it, within a fortnight: weekends and holidays have none), used
 * to prefill a trade's exchange rate. A pair the market does not store the other way
 * round (`KRWUSD`) is the inverse of the stored one.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import Big from 'big.js';
import { apiRequest, type ApiSchema } from '@/shared/api/client';

type Fx = ApiSchema<'FxDto'>;

/** How far before the date a rate may be (a long holiday, a missing day of history). */
const LOOKBACK_DAYS = 14;
/** The stored pairs: one unit of the first currency in the second. */
const STORED_PAIRS = ['USDKRW'] as const;

function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** The last rate of `fx` on or before `date`, if any. */
export function rateOn(fx: Fx, date: string): string | undefined {
  let best: Fx['rates'][number] | undefined;
  for (const r of fx.rates) if (r.date <= date && (!best || r.date > best.date)) best = r;
  return best?.rate;
}

/** One `from` in `to` on `date`: the stored pair, or its inverse (to 8 decimals). */
export async function fetchRateOn(from: string, to: string, date: string, signal?: AbortSignal): Promise<string | null> {
  const direct = `${from}${to}`;
  const inverse = `${to}${from}`;
  const pair = (STORED_PAIRS as readonly string[]).includes(direct) ? direct : (STORED_PAIRS as readonly string[]).includes(inverse) ? inverse : null;
  if (!pair) return null;
  const fx = await apiRequest<Fx>(`/api/fx/${pair}`, { query: { from: daysBefore(date, LOOKBACK_DAYS), to: date }, signal });
  const rate = rateOn(fx, date);
  if (!rate) return null;
  if (pair === direct) return rate;
  const r = new Big(rate);
  return r.eq(0) ? null : new Big(1).div(r).round(8).toFixed();
}

export function fxRateQueryOptions(from: string, to: string, date: string) {
  return queryOptions({
    queryKey: ['market', 'fx-on', from, to, date] as const,
    queryFn: ({ signal }) => fetchRateOn(from, to, date, signal),
    staleTime: 60 * 60 * 1000,
  });
}

/** The rate of `from` in `to` on `date`; `enabled` false (same currency, no date) asks nothing. */
export function useFxRateOn(from: string, to: string, date: string, enabled: boolean) {
  return useQuery({ ...fxRateQueryOptions(from, to, date), enabled: enabled && from !== to && /^\d{4}-\d{2}-\d{2}$/.test(date) });
}
