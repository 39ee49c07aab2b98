import { errorMessagesReady } from '@/shared/api/locales/messages';
import { registerMessages } from '@/shared/i18n/i18n';
import { newsKo } from './ko';

/** The news area's texts travel with its code; English loads only when chosen. */
export const messagesReady = Promise.all([
  registerMessages('news', {
    ko: newsKo,
    en: () => import('./en').then((m) => m.newsEn),
  }),
  errorMessagesReady,
]).then(() => undefined);
