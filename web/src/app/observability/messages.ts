import { registerMessages } from '@/shared/i18n/i18n';
import { feedbackKo } from './locales/ko';

/** The feedback form's texts travel with its chunk; English loads only when chosen. */
export const messagesReady = registerMessages('feedback', {
  ko: feedbackKo,
  en: () => import('./locales/en').then((m) => m.feedbackEn),
});
