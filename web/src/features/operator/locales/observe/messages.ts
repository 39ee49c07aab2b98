import { useTranslation } from '@/shared/i18n/useTranslation';
import { registerMessages } from '@/shared/i18n/i18n';
import { observeKo } from './ko';

/** The observability console's texts; English loads only when chosen. */
export const messagesReady = registerMessages('observe', {
  ko: observeKo,
  en: () => import('./en').then((m) => m.observeEn),
});

/** `t` of the console's namespace. */
export function useObserveT() {
  return useTranslation('observe').t;
}
