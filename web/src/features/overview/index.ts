/** The market overview: home's indices and FX, and the day's top movers (`/api/market/overview`). */
import type { Area } from '@/shared/area/types';
import { lazyComponent } from '@/shared/area/lazy';

export type { overviewKo as OverviewMessages } from './locales/ko';

export const overviewArea = {
  id: 'overview',
  slots: {
    home: [
      { id: 'indices', order: 20, ...lazyComponent(() => import('./components/IndicesSection'), 'IndicesSection') },
      { id: 'movers', order: 40, span: 'half', ...lazyComponent(() => import('./components/MoversSection'), 'MoversSection') },
    ],
  },
} as const satisfies Area;
