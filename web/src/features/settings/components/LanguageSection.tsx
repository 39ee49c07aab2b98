import { useTranslation } from '@/shared/i18n/useTranslation';
import { LOCALE_NAMES } from '@/shared/i18n/i18n';
import { useLocale } from '@/shared/i18n/useLocale';
import { useModalRoute } from '@/shared/hooks/useModalRoute';

/** The language row; "change" opens the language picker route modal. */
export function LanguageSection() {
  const { t } = useTranslation('settings');
  const locale = useLocale();
  const picker = useModalRoute('language');
  return (
    <section className="settings-section card" aria-labelledby="settings-language-title">
      <h2 id="settings-language-title" className="settings-section__title">
        {t('language.title')}
      </h2>
      <div className="settings-row">
        <div className="settings-row__text">
          <span className="settings-row__value" lang={locale} data-testid="current-language">
            {LOCALE_NAMES[locale]}
          </span>
          <span className="settings-row__hint">{t('language.description')}</span>
        </div>
        <button type="button" className="button button--secondary" onClick={picker.open} data-testid="settings-language">
          {t('language.change')}
        </button>
      </div>
    </section>
  );
}
