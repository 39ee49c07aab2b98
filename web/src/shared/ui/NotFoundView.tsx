import { useTranslation } from '@/shared/i18n/useTranslation';
import { AppLink } from './AppLink';
import './NotFoundView.css';

/** "Page not found", with a link home: the 404 page, and any page whose subject does not exist. */
export function NotFoundView() {
  const { t } = useTranslation();
  return (
    <section className="not-found" data-testid="not-found" aria-labelledby="not-found-title">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title" className="not-found__title">
        {t('notFound.title')}
      </h1>
      <p className="not-found__body">{t('notFound.body')}</p>
      <AppLink to="/" className="button button--primary">
        {t('notFound.home')}
      </AppLink>
    </section>
  );
}
