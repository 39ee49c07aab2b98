/** The favourites area: the member's list (`/favorites`), home's favourites section and a stock page's star. */
import type { Area } from '@/shared/area/types';
import { lazyComponent, lazyPage } from '@/shared/area/lazy';
import { StarIcon } from '@/shared/ui/icons';

export type { favoritesKo as FavoritesMessages } from './locales/ko';

export const favoritesArea = {
  id: 'favorites',
  nav: { to: '/favorites', labelKey: 'nav.favorites', icon: StarIcon, order: 70 },
  routes: [{ path: '/favorites', Page: lazyPage(() => import('./pages/FavoritesPage'), 'FavoritesRoute') }],
  slots: {
    home: [{ id: 'favorites', order: 30, span: 'half', ...lazyComponent(() => import('./components/HomeFavorites'), 'HomeFavorites') }],
    stockActions: [{ id: 'favorite', order: 10, ...lazyComponent(() => import('./components/FavoriteButton'), 'FavoriteButton') }],
  },
} as const satisfies Area;
