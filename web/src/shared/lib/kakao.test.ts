import { isKakaoInAppBrowser, kakaoExternalOpenUrl, openInExternalBrowser } from './kakao';

const KAKAO_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 KAKAOTALK 10.4.5';

describe('kakao', () => {
  it('detects the KakaoTalk in-app browser case-insensitively', () => {
    expect(isKakaoInAppBrowser(KAKAO_UA)).toBe(true);
    expect(isKakaoInAppBrowser('Mozilla/5.0 ... KakaoTalk/9.0')).toBe(true);
    expect(isKakaoInAppBrowser('Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0')).toBe(false);
    expect(isKakaoInAppBrowser('Mozilla/5.0 KAKAOSTORY')).toBe(false);
  });

  it('builds the external-open link with the encoded URL', () => {
    expect(kakaoExternalOpenUrl('https://moat.example/stocks/005930?tab=news&x=1#top')).toBe(
      'kakaotalk://web/openExternal?url=https%3A%2F%2Fmoat.example%2Fstocks%2F005930%3Ftab%3Dnews%26x%3D1%23top',
    );
  });

  it('navigates the window to the external-open link of its current URL', () => {
    const win = { location: { href: 'https://moat.example/news?q=a b' } } as unknown as Window;
    openInExternalBrowser(win);
    expect(win.location.href).toBe(
      'kakaotalk://web/openExternal?url=' + encodeURIComponent('https://moat.example/news?q=a b'),
    );
  });
});
