import { registerMessages } from '@/shared/i18n/i18n';
import { marketMessagesReady } from '@/entities/instrument/locales/messages';
import { searchKo } from './ko';

/** The search page's texts (and the shared market texts); English loads only when chosen. */
export const messagesReady = Promise.all([
  registerMessages('search', {
    ko: searchKo,
    en: () => import('./en').then((m) => m.searchEn),
  }),
  marketMessagesReady,
]).then(() => undefined);
