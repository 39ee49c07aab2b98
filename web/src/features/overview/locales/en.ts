import type { MessageShape } from '@/shared/i18n/types';
import type { overviewKo } from './ko';

/** English messages of the market overview's home sections, loaded only when English is chosen. */
export const overviewEn = {
  indices: {
    title: 'Indices & FX',
  },
  movers: {
    title: 'Top movers',
    gainers: 'Gainers',
    losers: 'Losers',
    empty: 'Nothing to show.',
  },
} satisfies MessageShape<typeof overviewKo>;
