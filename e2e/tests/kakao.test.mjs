/**
 * Spec §2 in-app browser: inside KakaoTalk's in-app browser the page hands itself to the
 * system browser through `kakaotalk://web/openExternal?url=<encoded current URL>` and shows
 * a fallback view instead of a blank page.
 *
 * How the hand-off is observed: Chromium cannot open the `kakaotalk:` scheme here, but it
 * still reports the attempted navigation as a request (which then fails), and the Navigation
 * API's `navigate` event sees it in the page.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { AppPage } from '../support/pages.mjs';

const KAKAOTALK_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-S921N Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Version/4.0 Chrome/131.0.6778.135 Mobile Safari/537.36;KAKAOTALK 2410200';
const ANDROID_CHROME_UA =
  'Mozilla/5.0 (Linux; Android 14; SM-S921N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.135 Mobile Safari/537.36';

/** Chromium's report of the second, script-started attempt (no user gesture reaches the page, see below). */
const GESTURE_REQUIRED = /Not allowed to launch 'kakaotalk:.*user gesture is required/;

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

/**
 * A page whose attempted `kakaotalk:` navigations are recorded in `attempts` (as requests)
 * and in `window.__navigations` (non-http navigations seen by the page).
 */
async function kakaoPage(userAgent) {
  const { page, errors } = await env.newPage({ userAgent, viewport: { width: 360, height: 740 }, isMobile: true });
  const attempts = [];
  page.on('request', (request) => {
    if (request.url().startsWith('kakaotalk:')) attempts.push(request.url());
  });
  await page.addInitScript(() => {
    window.__navigations = [];
    window.navigation?.addEventListener('navigate', (event) => {
      if (!event.destination.url.startsWith('http')) window.__navigations.push(event.destination.url);
    });
  });
  return { page, errors, attempts };
}

const expectedLink = (url) => `kakaotalk://web/openExternal?url=${encodeURIComponent(url)}`;

describe('KakaoTalk in-app browser', () => {
  test('hands the current URL to the external browser and shows the fallback view', async () => {
    const { page, errors, attempts } = await kakaoPage(KAKAOTALK_UA);
    const url = `${env.server.url}/settings?tab=language&q=${encodeURIComponent('삼성 전자&co')}#top`;

    // The hand-off starts while the page loads, so wait for the commit only.
    await page.goto(url, { waitUntil: 'commit' });
    const fallback = page.getByTestId('kakao-fallback');
    await fallback.waitFor();

    await eventually(() => assert.deepEqual(attempts, [expectedLink(url)]));
    assert.deepEqual(await page.evaluate(() => window.__navigations), [expectedLink(url)]);
    // The page itself stays: the view explains, in Korean and English, and offers a retry.
    assert.equal(page.url(), url);
    assert.equal(await page.getByTestId('kakao-fallback-url').textContent(), url);
    assert.match(await fallback.locator('h1').innerText(), /외부 브라우저/);
    assert.match(await fallback.innerText(), /Please open Moat in your browser/);
    const retry = fallback.getByRole('button', { name: /외부 브라우저로 열기|Open in browser/ });
    assert.ok(await retry.isVisible());
    assert.ok(await retry.isEnabled());
    // Not the app: no shell, no navigation.
    assert.equal(await page.locator('.shell').count(), 0);
    assertNoErrors(errors);
  });

  test('the retry button attempts the hand-off again', async () => {
    const { page, errors, attempts } = await kakaoPage(KAKAOTALK_UA);
    const url = `${env.server.url}/`;
    await page.goto(url, { waitUntil: 'commit' });
    await page.getByTestId('kakao-fallback').waitFor();
    await eventually(() => assert.equal(attempts.length, 1));

    // Headless Chromium parks the first external-protocol launch in a (headless, invisible)
    // browser dialog that swallows trusted input to the tab, so the click is dispatched to the
    // button as a DOM event; Chromium then refuses the launch for lack of a user gesture, but
    // the attempt itself is what the app controls.
    await page.getByTestId('kakao-fallback').getByRole('button').dispatchEvent('click');

    await eventually(() => assert.deepEqual(attempts, [expectedLink(url), expectedLink(url)]));
    assertNoErrors(errors, { ignore: [GESTURE_REQUIRED] });
  });

  test('any other browser gets the app and no hand-off', async () => {
    const { page, errors, attempts } = await kakaoPage(ANDROID_CHROME_UA);
    const app = new AppPage(page);
    await app.goto('/settings');
    assert.equal(await app.heading.textContent(), '설정');
    assert.equal(await page.getByTestId('kakao-fallback').count(), 0);
    assert.deepEqual(await page.evaluate(() => window.__navigations), []);
    assert.deepEqual(attempts, []);
    assertNoErrors(errors);
  });
});
