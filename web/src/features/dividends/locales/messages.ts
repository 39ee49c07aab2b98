import { errorMessagesReady } from '@/shared/api/locales/messages';
import { registerMessages } from '@/shared/i18n/i18n';
import { dividendsKo } from './ko';

/**
 * The dividend page's texts travel with its code; English loads only when chosen. The
 * router renders the page once this settles.
 */
export const messagesReady = Promise.all([
  registerMessages('dividends', {
    ko: dividendsKo,
    en: () => import('./en').then((m) => m.dividendsEn),
  }),
  errorMessagesReady,
]).then(() => undefined);
