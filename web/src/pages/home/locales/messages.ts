import { registerMessages } from '@/shared/i18n/i18n';
import { marketMessagesReady } from '@/entities/instrument/locales/messages';
import { homeKo } from './ko';

/**
 * The home page's texts travel with its code (and the shared market texts with them);
 * English loads only when chosen. The router renders the page once this settles.
 */
export const messagesReady = Promise.all([
  registerMessages('home', {
    ko: homeKo,
    en: () => import('./en').then((m) => m.homeEn),
  }),
  marketMessagesReady,
]).then(() => undefined);
