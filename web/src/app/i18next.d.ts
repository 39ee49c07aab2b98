import 'i18next';
import type { feedbackKo } from '@/app/observability/locales/ko';
import type { marketKo } from '@/entities/instrument/locales/ko';
import type { AuthMessages } from '@/features/auth';
import type { DividendsMessages } from '@/features/dividends';
import type { FavoritesMessages } from '@/features/favorites';
import type { NewsMessages } from '@/features/news';
import type { ObserveMessages, OperatorMessages } from '@/features/operator';
import type { OverviewMessages } from '@/features/overview';
import type { PortfolioMessages } from '@/features/portfolio';
import type { SearchMessages } from '@/features/search';
import type { SettingsMessages } from '@/features/settings';
import type { StockMessages } from '@/features/stock';
import type { homeKo } from '@/pages/home/locales/ko';
import type { stockPageKo } from '@/pages/stock/locales/ko';
import type { errorsKo } from '@/shared/api/locales/ko';
import type { ko } from '@/shared/i18n/locales/ko';

// `t('…')` keys and interpolation values are checked against the Korean source messages,
// namespace by namespace. An area with its own messages exports their type from its
// `index.ts` and adds its namespace here.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof ko;
      auth: typeof AuthMessages;
      dividends: typeof DividendsMessages;
      errors: typeof errorsKo;
      favorites: typeof FavoritesMessages;
      feedback: typeof feedbackKo;
      home: typeof homeKo;
      market: typeof marketKo;
      news: typeof NewsMessages;
      observe: typeof ObserveMessages;
      operator: typeof OperatorMessages;
      overview: typeof OverviewMessages;
      portfolio: typeof PortfolioMessages;
      search: typeof SearchMessages;
      settings: typeof SettingsMessages;
      stock: typeof StockMessages;
      stockPage: typeof stockPageKo;
    };
  }
}
