/** Query keys of the stock sections' own data, under the market's (`entities/instrument`). */
import { marketKeys } from '@/entities/instrument/api/keys';
import type { CandleRange, InstrumentId } from '@/entities/instrument/api/types';

export const stockKeys = {
  candles: (id: InstrumentId, range: CandleRange) => [...marketKeys.all, 'candles', id, range] as const,
};
