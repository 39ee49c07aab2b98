import { registerMessages } from '@/shared/i18n/i18n';
import { homeKo } from './locales/ko';

/**
 * The home page's texts travel with its code; English loads only when chosen. The
 * router renders the page once this settles.
 */
export const messagesReady = registerMessages('home', {
  ko: homeKo,
  en: () => import('./locales/en').then((m) => m.homeEn),
});
