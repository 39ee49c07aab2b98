/**
 * What the server gives before and around the app: link-preview tags in the first HTML
 * (no JavaScript), JSON API errors, the body limit, the 404 page, the offline banner, and
 * page loads free of console errors and CSP violations.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { AppPage } from '../support/pages.mjs';

const BODY_LIMIT = 4096;

let env;
before(async () => {
  env = await launch({ serverEnv: { MOAT_BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
});
afterEach(() => env.closeContexts());
after(() => env?.close());

/** The head tags a link preview reads. */
const previewOf = (page) =>
  page.evaluate(() => ({
    lang: document.documentElement.lang,
    title: document.title,
    ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
    description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
    ogDescription: document.querySelector('meta[property="og:description"]')?.getAttribute('content'),
    ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content'),
  }));

async function assertApiError(response, status, code) {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = await response.json();
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
  assert.equal(typeof body.request_id, 'string');
  assert.ok(body.request_id.length > 0);
  assert.equal(response.headers.get('x-request-id'), body.request_id);
  return body;
}

describe('server', () => {
  test('the first HTML of /settings carries its title and og:title without JavaScript, in the reader\'s language', async () => {
    for (const [locale, title] of [
      ['ko-KR', '설정 — Moat'],
      ['en-US', 'Settings — Moat'],
    ]) {
      const { page } = await env.newPage({ javaScriptEnabled: false, locale });
      const response = await page.goto('/settings');
      assert.equal(response.status(), 200);
      const preview = await previewOf(page);
      assert.equal(preview.lang, locale.slice(0, 2));
      assert.equal(preview.title, title);
      assert.equal(preview.ogTitle, title);
      assert.ok(preview.description && preview.description === preview.ogDescription);
      // No public_url configured: no absolute URL taken from the request's Host.
      assert.equal(preview.ogUrl, undefined);
    }
  });

  test('with public_url configured, og:url and the canonical link are on it, before and after the app runs', async () => {
    const other = await launch({ serverEnv: { MOAT_PUBLIC_URL: 'https://moat.example' } });
    try {
      const { page } = await other.newPage({ javaScriptEnabled: false });
      await page.goto('/settings');
      assert.equal((await previewOf(page)).ogUrl, 'https://moat.example/settings');
      const app = await other.newPage();
      await new AppPage(app.page).goto('/settings');
      await eventually(async () => assert.equal(await app.page.title(), '설정 — Moat'));
      const tags = await app.page.evaluate(() => ({
        ogUrl: document.querySelector('meta[property="og:url"]')?.getAttribute('content'),
        canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href'),
      }));
      assert.deepEqual(tags, { ogUrl: 'https://moat.example/settings', canonical: 'https://moat.example/settings' });
    } finally {
      await other.close();
    }
  });

  /** The server's head tags for `path`, and the app's once it has run, in `locale`. */
  async function serverAndAppTags(path, locale) {
    const noJs = await env.newPage({ javaScriptEnabled: false });
    await noJs.page.goto(`${path}?lang=${locale}`);
    const server = await previewOf(noJs.page);
    await noJs.context.close();

    const { page, context, errors } = await env.newPage();
    await context.addInitScript((l) => localStorage.setItem('MOAT_LOCALE', l), locale);
    const app = new AppPage(page);
    await app.goto(`${path}?lang=${locale}`);
    // The app writes all its tags in one go; once its title is there, the rest is too.
    await eventually(async () => assert.equal(await page.title(), server.title));
    const client = await previewOf(page);
    await context.close();
    return { server, client, errors };
  }

  test('the server\'s tags match what the app itself sets once it runs', async () => {
    for (const locale of ['ko', 'en']) {
      for (const path of ['/', '/settings']) {
        const { server, client, errors } = await serverAndAppTags(path, locale);
        assert.deepEqual(client, server, `${locale} ${path}`);
        assertNoErrors(errors, { ignore: [/status of 404/] });
      }
    }
  });

  test('the 404 page\'s tags match too', async () => {
    for (const locale of ['ko', 'en']) {
      const { server, client } = await serverAndAppTags('/no-such-page', locale);
      assert.equal(client.title, server.title);
      assert.deepEqual(client, server, `${locale} /no-such-page`);
    }
  });

  test('icons that browsers and home screens ask for by fixed name are served', async () => {
    for (const [path, type] of [
      ['/favicon.ico', /^image\/(x-icon|vnd\.microsoft\.icon)/],
      ['/favicon.svg', /^image\/svg\+xml/],
      ['/apple-touch-icon.png', /^image\/png/],
    ]) {
      const response = await fetch(`${env.server.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
      assert.ok((await response.arrayBuffer()).byteLength > 100, path);
    }
  });

  test('an unknown API path answers 404 JSON', async () => {
    await assertApiError(await fetch(`${env.server.url}/api/nope`), 404, 'not_found');
    await assertApiError(await fetch(`${env.server.url}/api/nope`, { method: 'DELETE' }), 404, 'not_found');
  });

  test('a body over the limit answers 413 JSON', async () => {
    const response = await fetch(`${env.server.url}/api/anything`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT * 2) }),
    });
    await assertApiError(response, 413, 'payload_too_large');
  });

  test('an unknown page gets the app\'s 404 page with HTTP 404 and a link home', async () => {
    const { page, errors } = await env.newPage();
    const app = new AppPage(page);
    const response = await app.goto('/no-such-page');
    assert.equal(response.status(), 404);
    const notFound = page.getByTestId('not-found');
    assert.ok(await notFound.isVisible());
    assert.equal(await page.title(), '페이지를 찾을 수 없습니다 — Moat');
    const home = notFound.getByRole('link');
    assert.equal(await home.getAttribute('href'), '/');
    await home.click();
    await app.waitForPath('/');
    await app.ready();
    // The document itself was a 404; Chromium reports that as a failed resource.
    assertNoErrors(errors, { ignore: [/status of 404/] });
  });

  test('an offline banner shows while the browser is offline', async () => {
    const { page, context, errors } = await env.newPage();
    const app = new AppPage(page);
    await app.goto('/settings');
    assert.equal(await app.offlineBanner.count(), 0);

    await context.setOffline(true);
    await app.offlineBanner.waitFor();
    assert.equal(await app.offlineBanner.getAttribute('role'), 'status');
    assert.ok((await app.offlineBanner.innerText()).trim().length > 0);

    await context.setOffline(false);
    await app.offlineBanner.waitFor({ state: 'detached' });
    assertNoErrors(errors);
  });

  test('page loads report no console errors and no CSP violations', async () => {
    const pagesByLocale = {
      ko: ['/', '/settings?language=routeModalTrue', '/webview-host.html?path=%2Fsettings'],
      en: ['/', '/settings'],
    };
    for (const [locale, paths] of Object.entries(pagesByLocale)) {
      const { page, context, errors } = await env.newPage({ viewport: { width: 390, height: 844 } });
      await context.addInitScript((l) => localStorage.setItem('MOAT_LOCALE', l), locale);
      for (const path of paths) {
        const response = await page.goto(path);
        assert.ok(response.headers()['content-security-policy'], `${path} is served with a CSP`);
        const isHost = path.startsWith('/webview-host');
        const frame = isHost ? await (await page.getByTestId('host-frame').elementHandle()).contentFrame() : page.mainFrame();
        const app = new AppPage(page, frame);
        await app.ready();
        // Let the rest of the page arrive: lazy chunks, the language file, API data, the modal.
        await page.waitForFunction(() => document.readyState === 'complete');
        if (path.includes('settings')) await frame.getByRole('button', { name: locale === 'ko' ? '이용약관' : 'Terms of service' }).waitFor();
        if (path.includes('language=')) await app.languageDialog.waitFor();
        assert.equal(await app.htmlLang(), locale, `${path} in ${locale}`);
        assertNoErrors(errors);
      }
      await context.close();
    }
  });
});
