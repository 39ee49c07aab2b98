import { errorMessagesReady } from '@/shared/api/locales/messages';
import { registerMessages } from '@/shared/i18n/i18n';
import { settingsKo } from './ko';

/**
 * The settings page's texts travel with its code; English loads only when chosen. The
 * router renders the page once this settles.
 */
export const messagesReady = Promise.all([
  registerMessages('settings', {
    ko: settingsKo,
    en: () => import('./en').then((m) => m.settingsEn),
  }),
  errorMessagesReady,
]).then(() => undefined);
