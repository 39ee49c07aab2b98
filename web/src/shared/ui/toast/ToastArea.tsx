import { useContext } from 'react';
import { useTranslation } from '@/shared/i18n/useTranslation';
import { ToastListContext } from './toast-context';
import { useToast } from './useToast';
import './toast.css';

/**
 * The live region where toasts appear. It is always in the document, so screen readers
 * announce each toast as it is added.
 */
export function ToastArea() {
  const toasts = useContext(ToastListContext);
  const { dismiss } = useToast();
  const { t } = useTranslation();
  return (
    <section className="toast-area" aria-live="polite" aria-label={t('toast.region')} data-testid="toast-area">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast--${toast.tone}`} data-testid="toast" role={toast.tone === 'error' ? 'alert' : undefined}>
          <span className="toast__message">{toast.message}</span>
          <button type="button" className="toast__close" aria-label={t('toast.dismiss')} onClick={() => dismiss(toast.id)}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      ))}
    </section>
  );
}
