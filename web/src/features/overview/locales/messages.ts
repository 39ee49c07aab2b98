import { marketMessagesReady } from '@/entities/instrument/locales/messages';
import { registerMessages } from '@/shared/i18n/i18n';
import { overviewKo } from './ko';

/** The overview sections' texts (and the shared market texts); English loads only when chosen. */
export const messagesReady = Promise.all([
  registerMessages('overview', {
    ko: overviewKo,
    en: () => import('./en').then((m) => m.overviewEn),
  }),
  marketMessagesReady,
]).then(() => undefined);
