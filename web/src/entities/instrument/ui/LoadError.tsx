import { useTranslation } from '@/shared/i18n/useTranslation';
import { SectionError } from '@/shared/ui/card/SectionError';

/** A market section whose data did not load: a short line and a retry. */
export function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('market');
  return <SectionError message={t('loadFailed')} retryLabel={t('retry')} onRetry={onRetry} />;
}
