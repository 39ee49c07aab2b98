import { useTranslation } from '@/shared/i18n/useTranslation';
import './ErrorFallback.css';

export interface ErrorFallbackProps {
  onRetry: () => void;
}

/** What a failed part of the screen shows instead: a short explanation and a retry. */
export function ErrorFallback({ onRetry }: ErrorFallbackProps) {
  const { t } = useTranslation();
  return (
    <div className="error-fallback" role="alert" data-testid="error-boundary">
      <svg className="error-fallback__icon" viewBox="0 0 24 24" width="40" height="40" aria-hidden="true">
        <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="1.6" />
        <path d="M12 7v6" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        <circle cx="12" cy="16.5" r="1.1" fill="currentColor" />
      </svg>
      <h2 className="error-fallback__title">{t('errorBoundary.title')}</h2>
      <p className="error-fallback__body">{t('errorBoundary.body')}</p>
      <button type="button" className="button button--primary" onClick={onRetry}>
        {t('errorBoundary.retry')}
      </button>
    </div>
  );
}
