import 'i18next';
import type { authKo } from '@/features/auth/locales/ko';
import type { homeKo } from '@/features/home/locales/ko';
import type { settingsKo } from '@/features/settings/locales/ko';
import type { ko } from '@/shared/i18n/locales/ko';

// `t('…')` keys and interpolation values are checked against the Korean source messages,
// namespace by namespace. An area with its own messages adds its namespace here.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof ko;
      auth: typeof authKo;
      home: typeof homeKo;
      settings: typeof settingsKo;
    };
  }
}
