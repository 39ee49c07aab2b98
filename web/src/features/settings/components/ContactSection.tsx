import { useTranslation } from '@/shared/i18n/useTranslation';
import { useMeta } from '../api/meta';

/** 문의: the operator's address (`contact_email` of the server), when configured. */
export function ContactSection() {
  const { t } = useTranslation('settings');
  const meta = useMeta();
  const email = meta.data?.contact_email;
  if (!email) return null;
  return (
    <section className="settings-section card" aria-labelledby="settings-contact-title">
      <h2 id="settings-contact-title" className="settings-section__title">
        {t('contact.title')}
      </h2>
      <div className="settings-row">
        <div className="settings-row__text">
          <span className="settings-row__hint">{t('contact.description')}</span>
          <a className="settings-row__value settings-contact" href={`mailto:${email}`}>
            {email}
          </a>
        </div>
      </div>
    </section>
  );
}
