import { useTranslation } from '@/shared/i18n/useTranslation';
import { useModalRoute } from '@/shared/hooks/useModalRoute';

/** 이용약관 and 개인정보 처리방침: each opens its text (route modals `terms`, `privacy`). */
export function LegalSection() {
  const { t } = useTranslation('settings');
  const terms = useModalRoute('terms');
  const privacy = useModalRoute('privacy');
  return (
    <section className="settings-section card" aria-labelledby="settings-legal-title">
      <h2 id="settings-legal-title" className="settings-section__title">
        {t('legal.title')}
      </h2>
      <ul className="settings-links">
        <li>
          <button type="button" className="settings-link" onClick={terms.open}>
            {t('legal.terms')}
          </button>
        </li>
        <li>
          <button type="button" className="settings-link" onClick={privacy.open}>
            {t('legal.privacy')}
          </button>
        </li>
      </ul>
    </section>
  );
}
