/** Query keys of the market overview, under the market's (`entities/instrument`). */
import { marketKeys } from '@/entities/instrument/api/keys';

export const overviewKeys = {
  overview: () => [...marketKeys.all, 'overview'] as const,
};
