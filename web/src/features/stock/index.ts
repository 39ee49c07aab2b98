/** A stock's market data on its page: the price chart and the key figures. */
import type { Area } from '@/shared/area/types';
import { lazyComponent } from '@/shared/area/lazy';

export type { stockKo as StockMessages } from './locales/ko';

export const stockArea = {
  id: 'stock',
  slots: {
    stockSections: [
      { id: 'chart', order: 20, ...lazyComponent(() => import('./components/StockChart'), 'StockChart') },
      { id: 'figures', order: 30, ...lazyComponent(() => import('./components/KeyFigures'), 'KeyFigures') },
    ],
  },
} as const satisfies Area;
