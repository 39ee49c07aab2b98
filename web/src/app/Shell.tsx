import { Suspense } from 'react';
import { lazyPage } from '@/shared/area/lazy';
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
import { appDrawsChrome, isMobileWebView } from '@/shared/lib/webview';
import './Shell.css';

/** Only in the app's web view or a frame (the web-view host page): a browser's page never loads it. */
const InWebView = lazyPage(() => import('./InWebView'), 'InWebView');

/**
 * The layout around every page: header, navigation, the page itself, the offline banner,
 * toasts and route modals (inside the app's web view with the app's chrome, no header and
 * no navigation, and links to other pages open app screens: docs/mobile-bridge.md); plus scroll restoration, the app's focus signal, the
 * session recorder's identity and the member's account events (live stream).
 */
export function Shell() {
  const { t } = useTranslation();
  useScrollRestoration();
  const appFocused = useQueryFocusFromApp();
  useAccountEvents();
  // Fixed for the page's life: the app injects its flag before content loads.
  const nativeChrome = appDrawsChrome();
  const inWebViewOrFrame = isMobileWebView() || window.parent !== window;

  return (
    <div className={nativeChrome ? 'shell shell--native-chrome' : 'shell'} data-app-focused={appFocused}>
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
      {!nativeChrome && <AppHeader />}
      <OfflineBanner />
      <div className="shell__body">
        {!nativeChrome && <AppNav />}
        <main id="main" className="shell__main" tabIndex={-1}>
          <AreaTabs />
          <AppRoutes />
        </main>
      </div>
      <ToastArea />
      <ModalRouteHandler />
      <RecorderIdentity />
      {inWebViewOrFrame && (
        <Suspense fallback={null}>
          <InWebView />
        </Suspense>
      )}
    </div>
  );
}
