import { registerMessages } from '@/shared/i18n/i18n';
import { operatorKo } from './ko';

/** The operator pages' texts; English loads only when chosen. */
export const messagesReady = registerMessages('operator', {
  ko: operatorKo,
  en: () => import('./en').then((m) => m.operatorEn),
});
