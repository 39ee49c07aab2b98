import { useTranslation } from '@/shared/i18n/useTranslation';
import { useOnlineStatus } from '@/shared/network/useOnlineStatus';
import './OfflineBanner.css';

/** A banner while the browser is offline. It overlays the top of the page, so nothing moves. */
export function OfflineBanner() {
  const online = useOnlineStatus();
  const { t } = useTranslation();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <path
          d="M2 8.5a15 15 0 0 1 20 0M5.5 12a10 10 0 0 1 13 0M9 15.5a5 5 0 0 1 6 0M3 3l18 18"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
        />
      </svg>
      <span>{t('offline.message')}</span>
    </div>
  );
}
