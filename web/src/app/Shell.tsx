import { useTranslation } from '@/shared/i18n/useTranslation';
import { useScrollRestoration } from '@/shared/hooks/useScrollRestoration';
import { RecorderIdentity } from './observability/RecorderIdentity';
import { useAccountEvents } from '@/entities/member/model/account-events';
import { OfflineBanner } from '@/shared/ui/OfflineBanner';
import { ToastArea } from '@/shared/ui/toast';
import { AppHeader } from './AppHeader';
import { AppNav } from './nav/AppNav';
import { AreaTabs } from './nav/AreaTabs';
import { ModalRouteHandler } from './ModalRouteHandler';
import { AppRoutes } from './routes';
import { useQueryFocusFromApp } from './useQueryFocusFromApp';
import './Shell.css';

/**
 * The layout around every page: header, navigation, the page itself, the offline banner,
 * toasts and route modals; plus scroll restoration, the app's focus signal, the
 * session recorder's identity and the member's account events (live stream).
 */
export function Shell() {
  const { t } = useTranslation();
  useScrollRestoration();
  const appFocused = useQueryFocusFromApp();
  useAccountEvents();

  return (
    <div className="shell" data-app-focused={appFocused}>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t('app.skipToContent')}
      </a>
      <AppHeader />
      <OfflineBanner />
      <div className="shell__body">
        <AppNav />
        <main id="main" className="shell__main" tabIndex={-1}>
          <AreaTabs />
          <AppRoutes />
        </main>
      </div>
      <ToastArea />
      <ModalRouteHandler />
      <RecorderIdentity />
    </div>
  );
}
