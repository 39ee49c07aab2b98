import { useTranslation } from '@/shared/i18n/useTranslation';
import { usePageMeta } from '@/shared/page-meta/usePageMeta';
import { NotFoundView } from '@/shared/ui/NotFoundView';

/** Any path that is not a route. */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageMeta({ title: t('meta.notFound.title'), description: t('meta.notFound.description') });
  return <NotFoundView />;
}
