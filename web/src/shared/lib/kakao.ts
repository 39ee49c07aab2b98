import { KAKAO_EXTERNAL_OPEN_PREFIX } from '@/shared/config/constants';

/** True when the user agent is the KakaoTalk in-app browser (contains `KAKAOTALK`, any case). */
export function isKakaoInAppBrowser(ua: string): boolean {
  return /kakaotalk/i.test(ua);
}

/** KakaoTalk link that opens `currentUrl` in the system's external browser (spec §2). */
export function kakaoExternalOpenUrl(currentUrl: string): string {
  return KAKAO_EXTERNAL_OPEN_PREFIX + encodeURIComponent(currentUrl);
}

/** Sends the current page to the external browser through the KakaoTalk link. */
export function openInExternalBrowser(win: Window = window): void {
  win.location.href = kakaoExternalOpenUrl(win.location.href);
}
