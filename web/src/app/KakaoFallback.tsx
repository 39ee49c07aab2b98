import { openInExternalBrowser } from '@/shared/lib/kakao';
import { LogoMark } from '@/shared/ui/Logo';
import './KakaoFallback.css';

export interface KakaoFallbackProps {
  /** The address to show (defaults to the current page). */
  url?: string;
  /** Retries the hand-off to the external browser. */
  onRetry?: () => void;
}

/**
 * Shown instead of the app inside the KakaoTalk in-app browser while the page is handed to
 * the system browser (spec §2). It renders before i18n loads, so it speaks both languages.
 */
export function KakaoFallback({ url = window.location.href, onRetry = () => openInExternalBrowser() }: KakaoFallbackProps) {
  return (
    <main className="kakao-fallback" data-testid="kakao-fallback">
      <div className="kakao-fallback__card">
        <LogoMark size={48} />
        <h1 className="kakao-fallback__title">
          외부 브라우저에서 열어 주세요{' '}
          <span lang="en" className="kakao-fallback__title-en">
            Please open Moat in your browser
          </span>
        </h1>
        <p>카카오톡 안의 브라우저에서는 Moat의 일부 기능이 동작하지 않아 기본 브라우저로 이동합니다.</p>
        <p lang="en" className="kakao-fallback__en">
          Some features do not work in KakaoTalk’s in-app browser, so Moat opens in your default browser.
        </p>
        <p className="kakao-fallback__url" data-testid="kakao-fallback-url">
          {url}
        </p>
        <button type="button" className="button button--primary kakao-fallback__button" onClick={onRetry}>
          외부 브라우저로 열기{' '}
          <span lang="en" className="kakao-fallback__button-en">
            / Open in browser
          </span>
        </button>
      </div>
    </main>
  );
}
