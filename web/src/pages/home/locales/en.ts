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
  disclaimer: 'Moat does not give investment advice. Every investment decision, and its risk, is your own.',
} as const satisfies MessageShape<typeof homeKo>;
