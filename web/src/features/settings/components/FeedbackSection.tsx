import { useTranslation } from '@/shared/i18n/useTranslation';
import { useModalRoute } from '@/shared/hooks/useModalRoute';

/** The feedback row; "send feedback" opens the feedback route modal. */
export function FeedbackSection() {
  const { t } = useTranslation('settings');
  const form = useModalRoute('feedback');
  return (
    <section className="settings-section card" aria-labelledby="settings-feedback-title">
      <h2 id="settings-feedback-title" className="settings-section__title">
        {t('feedback.title')}
      </h2>
      <div className="settings-row">
        <div className="settings-row__text">
          <span className="settings-row__hint">{t('feedback.description')}</span>
        </div>
        <button type="button" className="button button--secondary" onClick={form.open} data-testid="settings-feedback">
          {t('feedback.open')}
        </button>
      </div>
    </section>
  );
}
