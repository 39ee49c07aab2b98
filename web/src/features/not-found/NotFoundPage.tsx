import { useTranslation } from 'react-i18next';
import { AppLink } from '@/shared/ui/AppLink';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import './not-found.css';

/** Any path that is not a route. */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageMeta({ title: t('meta.notFound.title'), description: t('meta.notFound.description') });
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
