/** `GET /api/instruments/{id}/candles?range=…`: chart bars. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/shared/api/client';
import { CANDLE_RANGES, type CandleRange, type CandlesResponse, type InstrumentId } from '@/entities/instrument/api/types';
import { instrumentPath } from '@/entities/instrument/model/ids';
import { stockKeys } from './keys';

export { CANDLE_RANGES, type CandleRange };

/** Intraday bars (1D, 1W) grow during the session; longer ranges change once a day. */
const CANDLES_STALE_MS: Record<CandleRange, number> = {
  '1D': 60_000,
  '1W': 5 * 60_000,
  '1M': 30 * 60_000,
  '3M': 30 * 60_000,
  '1Y': 60 * 60_000,
  '5Y': 60 * 60_000,
};

export const DEFAULT_CANDLE_RANGE: CandleRange = '3M';

export function isCandleRange(v: unknown): v is CandleRange {
  return (CANDLE_RANGES as readonly unknown[]).includes(v);
}

export const fetchCandles = (id: InstrumentId, range: CandleRange, signal?: AbortSignal) =>
  apiRequest<CandlesResponse>(`${instrumentPath(id)}/candles`, { query: { range }, signal });

export function candlesQueryOptions(id: InstrumentId, range: CandleRange) {
  return queryOptions({
    queryKey: stockKeys.candles(id, range),
    queryFn: ({ signal }) => fetchCandles(id, range, signal),
    staleTime: CANDLES_STALE_MS[range],
  });
}

export function useCandles(id: InstrumentId, range: CandleRange) {
  return useQuery(candlesQueryOptions(id, range));
}
