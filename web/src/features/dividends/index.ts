/** The dividend area: the calendar and the member's dividends (`/dividends`), a tab of 포트폴리오; a stock's dividends on its page. */
import type { Area } from '@/shared/area/types';
import { lazyComponent, lazyPage } from '@/shared/area/lazy';
import { CalendarIcon } from '@/shared/ui/icons';

export type { dividendsKo as DividendsMessages } from './locales/ko';

export const dividendsArea = {
  id: 'dividends',
  nav: { to: '/dividends', labelKey: 'nav.dividends', icon: CalendarIcon, order: 60, group: 'portfolio' },
  routes: [{ path: '/dividends', Page: lazyPage(() => import('./pages/DividendsPage'), 'DividendsPage') }],
  slots: {
    stockSections: [{ id: 'dividends', order: 40, ...lazyComponent(() => import('./components/StockDividends'), 'StockDividends') }],
  },
} as const satisfies Area;
