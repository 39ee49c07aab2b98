import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { initI18n } from '@/shared/i18n/i18n';
import { installAutoReload } from '@/shared/lib/auto-reload';
import { installDelayedScripts } from '@/shared/lib/delayed-scripts';
import { isKakaoInAppBrowser, openInExternalBrowser } from '@/shared/lib/kakao';
import { App } from './App';
import { preloadScreen } from './screens';
import './styles/global.css';

/**
 * The longest the first render waits for the route's code (a slow network): then the
 * shell shows with a placeholder for the page, as it does for any lazy route.
 */
export const SCREEN_CODE_WAIT_MS = 1000;

/**
 * Starts the page: delayed third-party scripts, the stale-tab reload, then either the
 * KakaoTalk hand-off (with its fallback view) or the app, once the language is loaded.
 * Returns the React root.
 */
export async function boot(container: HTMLElement, userAgent: string = navigator.userAgent): Promise<Root> {
  installDelayedScripts();
  installAutoReload();

  const root = createRoot(container, {
    // React logs errors its boundaries caught with `console.error`, which the recorder
    // turns into error records; the app's boundaries report them already (with their
    // component stack), so the log is for developers only.
    onCaughtError: (error) => {
      if (import.meta.env.DEV) console.error(error);
    },
  });
  if (isKakaoInAppBrowser(userAgent)) {
    openInExternalBrowser();
    // Only KakaoTalk visitors download the fallback view.
    const { KakaoFallback } = await import('./KakaoFallback');
    root.render(<KakaoFallback />);
    return root;
  }
  const screen = preloadScreen(location.pathname);
  await initI18n();
  // Home's code arrives about when the shell could first paint; rendering once it is there
  // draws the page in one go (its largest paint then), instead of the shell with a
  // placeholder, then the page (a Suspense reveal, which React also holds back up to 300 ms).
  await Promise.race([screen, new Promise((resolve) => setTimeout(resolve, SCREEN_CODE_WAIT_MS))]);
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  return root;
}
