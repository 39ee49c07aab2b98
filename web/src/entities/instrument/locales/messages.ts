import { registerMessages } from '@/shared/i18n/i18n';
import { marketKo } from './ko';

/**
 * Texts of the shared market pieces (badges, exchange names); every market page waits
 * for this with its own messages. English loads only when chosen.
 */
export const marketMessagesReady = registerMessages('market', {
  ko: marketKo,
  en: () => import('./en').then((m) => m.marketEn),
});
