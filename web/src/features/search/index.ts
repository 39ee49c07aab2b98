/** Instrument search (`/search`), the header's search button and home's recently viewed stocks. */
import type { Area } from '@/shared/area/types';
import { lazyComponent, lazyPage } from '@/shared/area/lazy';
import { HeaderSearch } from './components/HeaderSearch';

export type { searchKo as SearchMessages } from './locales/ko';

export const searchArea = {
  id: 'search',
  routes: [{ path: '/search', Page: lazyPage(() => import('./pages/SearchPage'), 'SearchPage') }],
  slots: {
    header: [{ id: 'search', order: 10, Component: HeaderSearch }],
    home: [{ id: 'recent', order: 50, ...lazyComponent(() => import('./components/HomeRecent'), 'HomeRecent') }],
  },
} as const satisfies Area;
