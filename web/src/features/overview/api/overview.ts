/** `GET /api/market/overview`: indices, FX and top movers for the home screen. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import type { MarketOverview, MarketOverviewResponse, PricedInstrument, QuotedInstrument } from '@/entities/instrument/api/types';
import { overviewKeys } from './keys';
import { writeQuote } from '@/entities/instrument/api/quote';

/** Movers are re-ranked this often; prices in between come from the stream. */
const OVERVIEW_STALE_MS = 60_000;

/** Flattens `{instrument, quote}` items into instruments with their quote. */
function quoted(items: PricedInstrument[]): QuotedInstrument[] {
  return items.flatMap(({ instrument, quote }) => (quote ? [{ ...instrument, ...quote }] : []));
}

export async function fetchOverview(signal?: AbortSignal): Promise<MarketOverview> {
  const raw = await apiRequest<MarketOverviewResponse>('/api/market/overview', { signal });
  return {
    indices: quoted(raw.indices),
    fx: quoted(raw.fx),
    movers: { gainers: quoted(raw.movers.gainers), losers: quoted(raw.movers.losers) },
  };
}

export function overviewQueryOptions() {
  return queryOptions({
    queryKey: overviewKeys.overview(),
    queryFn: async ({ signal, client }) => {
      const overview = await fetchOverview(signal);
      // Each item carries its quote: rows read it through `useQuote` without asking again.
      const { indices, fx, movers } = overview;
      for (const item of [...indices, ...fx, ...movers.gainers, ...movers.losers]) writeQuote(client, item);
      return overview;
    },
    staleTime: OVERVIEW_STALE_MS,
  });
}

export function useMarketOverview() {
  return useQuery(overviewQueryOptions());
}
