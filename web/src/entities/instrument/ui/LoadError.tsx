import { useTranslation } from 'react-i18next';

/** A section whose data did not load: a short line and a retry. */
export function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('market');
  return (
    <div className="section-card__error" role="alert">
      <span>{t('loadFailed')}</span>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}
