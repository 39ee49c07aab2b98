import 'i18next';
import type { authKo } from '@/features/auth/locales/ko';
import type { dividendsKo } from '@/features/dividends/locales/ko';
import type { favoritesKo } from '@/features/favorites/locales/ko';
import type { homeKo } from '@/pages/home/locales/ko';
import type { operatorKo } from '@/features/operator/locales/ko';
import type { observeKo } from '@/features/operator/locales/observe/ko';
import type { portfolioKo } from '@/features/portfolio/locales/ko';
import type { searchKo } from '@/features/search/locales/ko';
import type { settingsKo } from '@/features/settings/locales/ko';
import type { stockKo } from '@/features/stock/locales/ko';
import type { ko } from '@/shared/i18n/locales/ko';
import type { marketKo } from '@/entities/instrument/locales/ko';
import type { feedbackKo } from '@/app/observability/locales/ko';

// `t('…')` keys and interpolation values are checked against the Korean source messages,
// namespace by namespace. An area with its own messages adds its namespace here.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof ko;
      auth: typeof authKo;
      dividends: typeof dividendsKo;
      favorites: typeof favoritesKo;
      feedback: typeof feedbackKo;
      home: typeof homeKo;
      market: typeof marketKo;
      observe: typeof observeKo;
      operator: typeof operatorKo;
      portfolio: typeof portfolioKo;
      search: typeof searchKo;
      settings: typeof settingsKo;
      stock: typeof stockKo;
    };
  }
}
