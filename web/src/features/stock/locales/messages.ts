import { registerMessages } from '@/shared/i18n/i18n';
import { marketMessagesReady } from '@/entities/instrument/locales/messages';
import { stockKo } from './ko';

/** The stock page's texts (and the shared market texts); English loads only when chosen. */
export const messagesReady = Promise.all([
  registerMessages('stock', {
    ko: stockKo,
    en: () => import('./en').then((m) => m.stockEn),
  }),
  marketMessagesReady,
]).then(() => undefined);
