import { errorMessagesReady } from '@/shared/api/locales/messages';
import { registerMessages } from '@/shared/i18n/i18n';
import { authKo } from './ko';

/** The accounts area's texts travel with its code; English loads only when chosen. */
export const messagesReady = Promise.all([
  registerMessages('auth', {
    ko: authKo,
    en: () => import('./en').then((m) => m.authEn),
  }),
  errorMessagesReady,
]).then(() => undefined);
