/** The market overview: home's indices and FX, and the day's top movers (`/api/market/overview`). */
import type { Area } from '@/shared/area/types';
import { lazyComponent } from '@/shared/area/lazy';

export type { overviewKo as OverviewMessages } from './locales/ko';

// The sections share one chunk: one request for both.
const sections = () => import('./components/home-sections');

export const overviewArea = {
  id: 'overview',
  slots: {
    home: [
      { id: 'indices', order: 20, ...lazyComponent(sections, 'IndicesSection') },
      { id: 'movers', order: 40, span: 'half', ...lazyComponent(sections, 'MoversSection') },
    ],
  },
} as const satisfies Area;
