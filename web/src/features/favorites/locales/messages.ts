import { errorMessagesReady } from '@/shared/api/locales/messages';
import { registerMessages } from '@/shared/i18n/i18n';
import { marketMessagesReady } from '@/entities/instrument/locales/messages';
import { favoritesKo } from './ko';

/** The favourites page's texts (and the shared market texts); English loads only when chosen. */
export const messagesReady = Promise.all([
  registerMessages('favorites', {
    ko: favoritesKo,
    en: () => import('./en').then((m) => m.favoritesEn),
  }),
  marketMessagesReady,
  errorMessagesReady,
]).then(() => undefined);
