/** A stock's market data on its page: the price chart and the key figures. */
import type { Area } from '@/shared/area/types';
import { lazyComponent } from '@/shared/area/lazy';

export type { stockKo as StockMessages } from './locales/ko';

// The sections share one chunk: one request for both.
const sections = () => import('./components/stock-sections');

export const stockArea = {
  id: 'stock',
  slots: {
    stockSections: [
      { id: 'chart', order: 20, ...lazyComponent(sections, 'StockChart') },
      { id: 'figures', order: 30, ...lazyComponent(sections, 'KeyFigures') },
    ],
  },
} as const satisfies Area;
