import { useTranslation } from './useTranslation';
import { DEFAULT_LOCALE, isLocale, type Locale } from './i18n';

/** The active locale; components re-render when it changes. */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}
