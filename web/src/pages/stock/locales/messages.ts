import { marketMessagesReady } from '@/entities/instrument/locales/messages';
import { registerMessages } from '@/shared/i18n/i18n';
import { stockPageKo } from './ko';

/** The stock page frame's texts (and the shared market texts); English loads only when chosen. */
export const messagesReady = Promise.all([
  registerMessages('stockPage', {
    ko: stockPageKo,
    en: () => import('./en').then((m) => m.stockPageEn),
  }),
  marketMessagesReady,
]).then(() => undefined);
