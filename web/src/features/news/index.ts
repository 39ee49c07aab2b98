/** News (docs/news.md): the list, search and articles (`/news…`), the operator's feeds, home's top stories and a stock's news. */
import type { Area, StockSlotProps } from '@/shared/area/types';
import { lazyComponent, lazyPage } from '@/shared/area/lazy';
import { NewsIcon } from '@/shared/ui/icons';

export type { newsKo as NewsMessages } from './locales/ko';

// One chunk for the public pages and one for the slots: fewer entries in the first page.
const pages = () => import('./pages');
const slots = () => import('./components/slots');

export const newsArea = {
  id: 'news',
  nav: { to: '/news', labelKey: 'nav.news', icon: NewsIcon, order: 50 },
  routes: [
    { path: '/news', Page: lazyPage(pages, 'NewsPage') },
    { path: '/news/search', Page: lazyPage(pages, 'SearchPage') },
    { path: '/news/:id', Page: lazyPage(pages, 'ArticlePage') },
    { path: '/operator/news', Page: lazyPage(() => import('./pages/FeedsPage'), 'FeedsPage') },
  ],
  slots: {
    // After the market (movers, 40), before the visitor's invitation (45).
    home: [{ id: 'news', order: 42, ...lazyComponent<'HomeNews', object>(slots, 'HomeNews') }],
    stockSections: [{ id: 'news', order: 50, ...lazyComponent<'StockNews', StockSlotProps>(slots, 'StockNews') }],
  },
} as const satisfies Area;
