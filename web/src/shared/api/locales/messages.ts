import { registerMessages } from '@/shared/i18n/i18n';
import { errorsKo } from './ko';

/**
 * The API's refusals in the page's language (`errors` namespace). Every area with a form
 * waits for this with its own messages; English loads only when chosen.
 */
export const errorMessagesReady = registerMessages('errors', {
  ko: errorsKo,
  en: () => import('./en').then((m) => m.errorsEn),
});
