import type { MessageShape } from '@/shared/i18n/types';
import type { homeKo } from './ko';

/** English messages of the home area, loaded only when English is chosen. */
export const homeEn = {
  meta: {
    title: 'Moat — all your investing in one place',
    description:
      'Every Korean and US portfolio, upcoming dividends, market news, and investor community and stock chat in one place.',
  },
  title: 'Markets today',
  searchPlaceholder: 'Search by name or ticker',
  indices: {
    title: 'Indices & FX',
  },
  favorites: {
    title: 'Favourites',
    manage: 'Manage',
    more: 'See all {{count}} favourites',
    empty: 'No favourites yet. Tap the star on a stock’s page to add one.',
    findStocks: 'Find stocks',
    loginTitle: 'Log in to keep your favourites',
    loginBody: 'See live prices of the stocks you follow right on the home screen.',
    login: 'Log in',
  },
  movers: {
    title: 'Top movers',
    gainers: 'Gainers',
    losers: 'Losers',
    empty: 'Nothing to show.',
  },
  recent: {
    title: 'Recently viewed',
    all: 'See all',
  },
  disclaimer: 'Moat does not give investment advice. Every investment decision, and its risk, is your own.',
} as const satisfies MessageShape<typeof homeKo>;
