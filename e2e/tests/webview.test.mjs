/**
 * The mobile bridge (spec §2, §7; docs/mobile-bridge.md) through the web-view host page,
 * which plays the app: it frames the web app with a recording `window.ReactNativeWebView`
 * and `window.MoatApp = { chrome: 'native' }`, draws the app's header and tab bar, stacks a
 * screen per NAVIGATE, and holds the debug buttons that run each action in the framed app:
 *  - web-view detection (the bridge object exists, the user agent does not matter);
 *  - the app's chrome: one header (the app's), links to other pages as NAVIGATE, GO_BACK;
 *  - web → app actions: `{type, payload}` JSON in the app, browser fallbacks in a tab;
 *  - app → web messages: IS_FOCUSED_FROM_APP focus, LOCAL_STORAGE_SET; anything else and
 *    anything from another origin ignored, silently.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { AppPage, HostPage } from '../support/pages.mjs';

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

const FOCUS_TRUE = JSON.stringify('IS_FOCUSED_FROM_APP=TRUE');
const FOCUS_FALSE = JSON.stringify('IS_FOCUSED_FROM_APP=FALSE');
const storageSet = (key, value) => JSON.stringify({ type: 'LOCAL_STORAGE_SET', payload: { key, value } });

/** Counts the app's `GET /api/meta` calls in each frame (`window.__metaFetches`). */
function countMetaFetches() {
  window.__metaFetches = 0;
  const original = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url, location.href).pathname === '/api/meta') window.__metaFetches += 1;
    return original.call(this, input, init);
  };
}

async function openHost(path = '/settings', { clock = false, mode = 'app' } = {}) {
  const { page, context, errors } = await env.newPage({ viewport: { width: 1280, height: 900 } });
  if (clock) await page.clock.install();
  await context.addInitScript(countMetaFetches);
  const host = new HostPage(page);
  const app = await host.goto(path, { mode });
  return { page, context, errors, host, app };
}

/** The host in browser mode: the frame has no bridge, so the app runs the browser fallbacks. */
async function openBrowser(path = '/settings', { initScript } = {}) {
  const { page, context, errors } = await env.newPage({ viewport: { width: 1280, height: 900 } });
  await page.clock.install();
  if (initScript) await context.addInitScript(initScript);
  const host = new HostPage(page);
  const app = await host.goto(path, { mode: 'browser' });
  return { page, context, errors, host, app };
}

async function openTab(path = '/settings', { initScript } = {}) {
  const { page, context, errors } = await env.newPage({ viewport: { width: 1280, height: 900 } });
  await page.clock.install();
  if (initScript) await context.addInitScript(initScript);
  const app = new AppPage(page);
  await app.goto(path);
  return { page, context, errors, app };
}

/** How many header elements a document draws, and whether its main navigation is there. */
const chromeOf = async (frame) => ({
  headers: await frame.locator('header').count(),
  mainNav: await frame.getByRole('navigation', { name: /주요 메뉴|Main menu/ }).count(),
});

const focusedFlag = (app) => app.shell.getAttribute('data-app-focused');

/**
 * Messages are delivered in order: once a later LOCAL_STORAGE_SET has been applied, every
 * message sent before it has been handled. Toggles IS_PREMIUM_USER_FROM_WEBVIEW.
 */
async function flush(host, app) {
  const next = (await app.storage('IS_PREMIUM_USER_FROM_WEBVIEW')) === 'true' ? 'false' : 'true';
  await host.send(storageSet('IS_PREMIUM_USER_FROM_WEBVIEW', next));
  await eventually(async () => assert.equal(await app.storage('IS_PREMIUM_USER_FROM_WEBVIEW'), next));
}

describe('mobile web-view detection', () => {
  test('inside the host (bridge object and the app flag) the page leaves the header and tab bar to the app', async () => {
    const { page, app, errors } = await openHost('/settings');
    assert.deepEqual(await chromeOf(app.frame), { headers: 0, mainNav: 0 });
    assert.equal(await page.getByTestId('host-app-header').count(), 1, 'the app draws its header');
    assertNoErrors(errors);
  });

  test('an older app without the flag gets the page’s own header; a plain tab too, whatever the user agent', async () => {
    const old = await openHost('/settings', { mode: 'old-app' });
    assert.deepEqual(await chromeOf(old.app.frame), { headers: 1, mainNav: 1 });
    assert.equal(await old.page.getByTestId('host-app-header').count(), 0);

    const { page, errors } = await env.newPage({
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MoatApp/1.0',
    });
    const app = new AppPage(page);
    await app.goto('/settings');
    assert.deepEqual(await chromeOf(app.frame), { headers: 1, mainNav: 1 });

    // The flag alone, without the bridge object, is not the app.
    const flagOnly = await openTab('/settings', {
      initScript: () => {
        window.MoatApp = { chrome: 'native' };
      },
    });
    assert.deepEqual(await chromeOf(flagOnly.app.frame), { headers: 1, mainNav: 1 });

    // The same tab with the bridge and the flag injected before the page's scripts, as react-native-webview does.
    const bridged = await openTab('/settings', {
      initScript: () => {
        window.ReactNativeWebView = { postMessage() {} };
        window.MoatApp = { chrome: 'native' };
      },
    });
    assert.deepEqual(await chromeOf(bridged.app.frame), { headers: 0, mainNav: 0 });
    assertNoErrors(old.errors);
    assertNoErrors(errors);
    assertNoErrors(flagOnly.errors);
    assertNoErrors(bridged.errors);
  });
});

describe('screens inside the app', () => {
  test('exactly one header (the app’s); a link to another page is a NAVIGATE, which the app stacks as a new screen', async () => {
    const { page, errors, host, app } = await openHost('/settings');
    assert.equal(await page.locator('header').count() + (await app.frame.locator('header').count()), 1, 'one header in all');
    await host.clear();

    await app.frame.getByRole('region', { name: '계정' }).getByRole('link', { name: '로그인' }).click();
    const [navigate] = await host.waitForMessages(1);
    assert.deepEqual({ type: navigate.type, payload: navigate.payload }, { type: 'NAVIGATE', payload: { path: '/login?next=%2Fsettings' } });
    await eventually(async () => assert.deepEqual(await host.screens(), ['/settings', '/login?next=%2Fsettings']));
    const login = await host.topApp();
    assert.equal(login.url().pathname, '/login');
    assert.equal(app.url().pathname, '/settings', 'the first screen did not route in its page');
    assert.deepEqual(await chromeOf(login.frame), { headers: 0, mainNav: 0 });
    assert.equal(await page.getByTestId('host-screen-count').textContent(), '2');

    // The app's back button closes the screen; the one below is as it was.
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await eventually(async () => assert.deepEqual(await host.screens(), ['/settings']));
    assert.ok(await (await host.topApp()).heading.isVisible());
    // A route modal stays in the page: no NAVIGATE.
    await app.frame.getByRole('button', { name: '이용약관' }).click();
    await app.frame.getByRole('dialog', { name: '이용약관' }).waitFor();
    assert.deepEqual((await host.messages()).map((m) => m.type).filter((t) => t === 'NAVIGATE'), ['NAVIGATE']);
    assertNoErrors(errors);
  });

  test('back at the root: closing a screen the app opened on a modal sends GO_BACK', async () => {
    const { errors, host, app } = await openHost('/settings?terms=routeModalTrue');
    const dialog = app.frame.getByRole('dialog', { name: '이용약관' });
    await dialog.waitFor();
    await host.clear();
    await dialog.getByRole('button', { name: '닫기' }).click();
    const [back] = await host.waitForMessages(1);
    assert.deepEqual({ type: back.type, payload: back.payload }, { type: 'GO_BACK', payload: null });
    assert.equal(app.url().search, '?terms=routeModalTrue', 'the page leaves closing the screen to the app');
    assertNoErrors(errors);
  });

  test('GO_BACK from a stacked screen at its first entry closes that screen', async () => {
    const { errors, host, app } = await openHost('/settings');
    await host.clear();
    await host.action('NAVIGATE');
    await eventually(async () => assert.deepEqual(await host.screens(), ['/settings', '/']));
    await host.topApp();
    await host.action('GO_BACK');
    await eventually(async () => assert.deepEqual(await host.screens(), ['/settings']));
    assert.deepEqual((await host.messages()).map((m) => m.type), ['NAVIGATE', 'GO_BACK']);
    assert.equal(app.url().pathname, '/settings');
    assertNoErrors(errors);
  });
});

describe('web → app actions inside the web view', () => {
  const EXPECTED = {
    HAPTIC_FEEDBACK: (p) => assert.ok(['light', 'medium', 'heavy', 'success', 'warning', 'error'].includes(p.style)),
    SHARE_IMAGE: (p) => {
      assert.match(p.dataUrl, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      assert.ok(p.dataUrl.length > 1000, 'the shared image has content');
      assert.match(p.fileName, /^[\w.-]+\.png$/);
      for (const field of ['title', 'text']) if (field in p) assert.equal(typeof p[field], 'string');
    },
    LOADING: (p) => assert.deepEqual(p, { visible: true }),
    DIMMER_ON: (p) => {
      if ('opacity' in p) assert.ok(p.opacity >= 0 && p.opacity <= 1);
      assert.deepEqual(Object.keys(p).filter((k) => k !== 'opacity'), []);
    },
    DIMMER_OFF: (p) => assert.equal(p, null),
    NAVIGATE: (p) => {
      assert.equal(typeof p.path, 'string');
      assert.ok(p.path.startsWith('/') && !p.path.startsWith('//'), `a web path: ${p.path}`);
      if ('replace' in p) assert.equal(typeof p.replace, 'boolean');
    },
    GO_BACK: (p) => assert.equal(p, null),
    DEEP_LINK: (p) => assert.doesNotThrow(() => new URL(p.url), `an absolute URL: ${p.url}`),
    LOCAL_STORAGE_SET: (p) => {
      assert.deepEqual(Object.keys(p).sort(), ['key', 'value']);
      assert.equal(p.key, 'MOAT_LOCALE');
      assert.ok(['ko', 'en'].includes(p.value));
    },
  };
  /** What a second, delayed message of the demo button must be (the "end" of the operation). */
  const FOLLOW_UP = {
    LOADING: { type: 'LOADING', payload: { visible: false } },
    DIMMER_ON: { type: 'DIMMER_OFF', payload: null },
  };

  test('every action button posts exactly {type, payload} JSON, and nothing else happens in the page', async () => {
    const { page, context, errors, host, app } = await openHost('/settings', { clock: true });
    const popups = [];
    context.on('page', (p) => popups.push(p));
    const downloads = [];
    page.on('download', (d) => downloads.push(d));

    for (const [type, check] of Object.entries(EXPECTED)) {
      await host.clear();
      await host.action(type);
      const [message] = await host.waitForMessages(1);
      assert.equal(message.type, type);
      assert.deepEqual(Object.keys(JSON.parse(message.raw)), ['type', 'payload'], `${type}: exactly type and payload`);
      check(message.payload);

      if (FOLLOW_UP[type]) {
        await page.clock.runFor(1000);
        const [, second] = await host.waitForMessages(2);
        assert.deepEqual({ type: second.type, payload: second.payload }, FOLLOW_UP[type], `${type} ends`);
      }
      // The app stacks a screen for NAVIGATE; GO_BACK from that screen's first entry closes it.
      if (type === 'NAVIGATE') {
        await eventually(async () => assert.deepEqual(await host.screens(), ['/settings', '/']));
        await host.topApp();
      }
      if (type === 'GO_BACK') await eventually(async () => assert.deepEqual(await host.screens(), ['/settings']));
      // Inside the app only the message is sent: no in-page spinner, dimmer or navigation.
      assert.equal(await app.frame.getByTestId('bridge-loading').count(), 0, `${type}: no web spinner`);
      assert.equal(await app.frame.getByTestId('bridge-dimmer').count(), 0, `${type}: no web dimmer`);
      assert.equal(app.url().pathname, '/settings', `${type}: the web view did not navigate in its page`);
    }
    assert.equal(popups.length, 0, 'no tab was opened');
    assert.equal(downloads.length, 0, 'nothing was downloaded');
    assert.equal(await host.logCount.textContent(), '1', 'the host page lists what it received');
    assertNoErrors(errors);
  });

  test('a route modal dims the app chrome while open', async () => {
    const { errors, host, app } = await openHost('/settings');
    await host.clear();
    // The header's language button is the app's business here; settings has its own.
    await app.frame.getByTestId('settings-language').click();
    await app.languageDialog.waitFor();
    const [on] = await host.waitForMessages(1);
    assert.equal(on.type, 'DIMMER_ON');
    EXPECTED.DIMMER_ON(on.payload);

    await app.page.keyboard.press('Escape');
    await app.languageDialog.waitFor({ state: 'detached' });
    const [, off] = await host.waitForMessages(2);
    assert.deepEqual({ type: off.type, payload: off.payload }, { type: 'DIMMER_OFF', payload: null });
    assertNoErrors(errors);
  });
});

describe('web → app actions in a browser (fallbacks; the host in browser mode)', () => {
  test('LOADING shows an in-page spinner until the operation ends', async () => {
    const { page, app, errors, host } = await openBrowser();
    await host.action('LOADING');
    const spinner = app.frame.getByTestId('bridge-loading');
    await spinner.waitFor();
    assert.equal(await spinner.getAttribute('role'), 'progressbar');
    await page.clock.runFor(1000);
    await spinner.waitFor({ state: 'detached' });
    assertNoErrors(errors);
  });

  test('DIMMER_ON shows a half-dark overlay that does not block input; DIMMER_OFF removes it', async () => {
    const { app, errors, host } = await openBrowser();
    await host.action('DIMMER_ON');
    const dimmer = app.frame.getByTestId('bridge-dimmer');
    await dimmer.waitFor();
    assert.equal(await dimmer.evaluate((el) => getComputedStyle(el).opacity), '0.5');
    assert.equal(await dimmer.evaluate((el) => getComputedStyle(el).position), 'fixed');
    await host.action('DIMMER_OFF');
    await dimmer.waitFor({ state: 'detached' });
    assertNoErrors(errors);
  });

  test('NAVIGATE navigates in the page', async () => {
    const { app, errors, host } = await openBrowser();
    await host.action('NAVIGATE');
    await app.waitForPath('/');
    await app.frame.locator('#home-title').waitFor();
    assertNoErrors(errors);
  });

  test('GO_BACK goes back one step, or home when there is no earlier page of the app', async () => {
    const { app, errors, host } = await openBrowser('/');
    await app.nav('settings');
    await host.action('GO_BACK');
    await app.waitForPath('/');

    const fresh = await openBrowser('/settings');
    const length = await fresh.app.historyLength();
    await fresh.host.action('GO_BACK');
    await fresh.app.waitForPath('/');
    assert.equal(await fresh.app.historyLength(), length, 'home replaces the page');
    await fresh.page.goBack();
    assert.equal(fresh.page.url(), 'about:blank', 'the settings page is gone from history');
    assertNoErrors(errors);
    assertNoErrors(fresh.errors);
  });

  test('DEEP_LINK with an http(s) URL opens a new tab without an opener', async () => {
    const { context, app, errors, host } = await openBrowser();
    const popupPromise = context.waitForEvent('page');
    await host.action('DEEP_LINK');
    const popup = await popupPromise;
    await popup.waitForLoadState('domcontentloaded');
    assert.equal(new URL(popup.url()).origin, env.server.url);
    assert.equal(await popup.evaluate(() => window.opener), null);
    assert.equal(app.url().pathname, '/settings', 'the page itself stays');
    assertNoErrors(errors);
  });

  test('HAPTIC_FEEDBACK vibrates where the browser can', async () => {
    const { app, errors, host } = await openBrowser('/settings', {
      initScript: () => {
        window.__vibrations = [];
        Object.defineProperty(Navigator.prototype, 'vibrate', {
          configurable: true,
          value: (pattern) => (window.__vibrations.push(pattern), true),
        });
      },
    });
    await host.action('HAPTIC_FEEDBACK');
    await eventually(async () => assert.deepEqual(await app.frame.evaluate(() => window.__vibrations), [20]));
    assertNoErrors(errors);
  });

  test('SHARE_IMAGE downloads the PNG when the browser cannot share files', async () => {
    const { page, app, errors, host } = await openBrowser();
    assert.equal(await page.evaluate(() => typeof navigator.canShare === 'function' && navigator.canShare({ files: [new File(['x'], 'x.png', { type: 'image/png' })] })), false);
    const downloadPromise = page.waitForEvent('download');
    await host.action('SHARE_IMAGE');
    const download = await downloadPromise;
    assert.match(download.suggestedFilename(), /\.png$/);
    const stream = await download.createReadStream();
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const png = Buffer.concat(chunks);
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');
    assertNoErrors(errors);
  });

  test('SHARE_IMAGE uses the Web Share API with the image as a file where available', async () => {
    const { app, errors, host } = await openBrowser('/settings', {
      initScript: () => {
        window.__shared = [];
        Object.defineProperty(Navigator.prototype, 'canShare', { configurable: true, value: (data) => Boolean(data?.files?.length) });
        Object.defineProperty(Navigator.prototype, 'share', {
          configurable: true,
          value: async (data) => {
            window.__shared.push({ names: data.files.map((f) => f.name), types: data.files.map((f) => f.type), sizes: data.files.map((f) => f.size), title: data.title });
          },
        });
      },
    });
    await host.action('SHARE_IMAGE');
    const [shared] = await eventually(async () => {
      const list = await app.frame.evaluate(() => window.__shared);
      assert.equal(list.length, 1);
      return list;
    });
    assert.match(shared.names[0], /\.png$/);
    assert.deepEqual(shared.types, ['image/png']);
    assert.ok(shared.sizes[0] > 500);
    assertNoErrors(errors);
  });

  test('LOCAL_STORAGE_SET writes the value into localStorage', async () => {
    const { app, errors, host } = await openBrowser();
    assert.equal(await app.storage('MOAT_LOCALE'), null);
    await host.action('LOCAL_STORAGE_SET');
    await eventually(async () => assert.equal(await app.storage('MOAT_LOCALE'), 'ko'));
    assertNoErrors(errors);
  });
});

describe('app → web messages', () => {
  test('IS_FOCUSED_FROM_APP flips the focus state; the first change does not run the focus callbacks', async () => {
    const { page, errors, host, app } = await openHost('/settings', { clock: true });
    await eventually(async () => assert.equal(await app.frame.evaluate(() => window.__metaFetches), 1));
    assert.equal(await focusedFlag(app), 'true', 'starts focused');
    assert.equal(await app.frame.evaluate(() => window.__metaFetches), 1);
    // Make the server data stale, so a focus callback would refetch it.
    await page.clock.fastForward('02:00');

    await host.send(FOCUS_FALSE);
    await eventually(async () => assert.equal(await focusedFlag(app), 'false'));
    await host.send(FOCUS_TRUE);
    await eventually(async () => assert.equal(await focusedFlag(app), 'true'));
    await flush(host, app);
    assert.equal(await app.frame.evaluate(() => window.__metaFetches), 1, 'the first change after mount ran the callbacks');

    await host.send(FOCUS_FALSE);
    await host.send(FOCUS_FALSE); // a repeated value is not a change
    await eventually(async () => assert.equal(await focusedFlag(app), 'false'));
    await host.send(FOCUS_TRUE);
    await eventually(async () => assert.equal(await focusedFlag(app), 'true'));
    await eventually(async () => assert.equal(await app.frame.evaluate(() => window.__metaFetches), 2), {
      message: 'focus from the app refreshes stale data',
    });

    // The raw string (without JSON quotes) is accepted too.
    await host.send('IS_FOCUSED_FROM_APP=FALSE');
    await eventually(async () => assert.equal(await focusedFlag(app), 'false'));
    assertNoErrors(errors);
  });

  test('unknown messages and messages from another origin change nothing and report no error', async () => {
    const { errors, host, app } = await openHost('/settings');
    const storageBefore = await app.frame.evaluate(() => JSON.stringify({ ...localStorage }));

    for (const junk of [
      'HELLO',
      '',
      'not json {',
      JSON.stringify('IS_FOCUSED_FROM_APP=MAYBE'),
      'is_focused_from_app=false',
      JSON.stringify({ type: 'NOPE', payload: {} }),
      { type: 'LOCAL_STORAGE_SET' },
      { type: 'LOCAL_STORAGE_SET', payload: { key: 'IS_PREMIUM_USER_FROM_WEBVIEW', value: true } },
      storageSet('SOMETHING_ELSE', 'x'),
      storageSet('IS_PREMIUM_USER_FROM_WEBVIEW', 'yes'),
      null,
      42,
      ['IS_FOCUSED_FROM_APP=FALSE'],
    ]) {
      await host.send(junk);
    }
    // Another origin: the same messages as events whose origin is not the page's. (A real
    // cross-origin sender cannot be set up: the CSP's frame-ancestors/frame-src 'self' and
    // COOP same-origin keep every other origin from framing, or holding a reference to, the
    // app; so the events are dispatched with the foreign origin the browser would stamp.)
    await app.frame.evaluate(
      ({ focus, store }) => {
        for (const target of [window, document]) {
          for (const data of [focus, store]) {
            target.dispatchEvent(new MessageEvent('message', { data, origin: 'https://evil.example' }));
          }
        }
      },
      { focus: FOCUS_FALSE, store: storageSet('IS_PREMIUM_USER_FROM_WEBVIEW', 'true') },
    );
    // An origin that differs from the page's only by host name is another origin.
    await app.frame.evaluate((focus) => {
      window.dispatchEvent(new MessageEvent('message', { data: focus, origin: location.origin.replace('127.0.0.1', 'localhost') }));
    }, FOCUS_FALSE);

    await host.send(storageSet('IS_AD_REMOVAL_REWARD_ON', 'true')); // in-order marker
    await eventually(async () => assert.equal(await app.storage('IS_AD_REMOVAL_REWARD_ON'), 'true'));
    assert.equal(await focusedFlag(app), 'true');
    const storageAfter = JSON.parse(await app.frame.evaluate(() => JSON.stringify({ ...localStorage })));
    delete storageAfter.IS_AD_REMOVAL_REWARD_ON;
    assert.deepEqual(storageAfter, JSON.parse(storageBefore));
    assert.ok(await app.heading.isVisible());

    // The same focus message as a native injection (origin '') is applied: the check is live.
    await app.frame.evaluate((focus) => document.dispatchEvent(new MessageEvent('message', { data: focus, origin: '' })), FOCUS_FALSE);
    await eventually(async () => assert.equal(await focusedFlag(app), 'false'));
    assertNoErrors(errors);
  });

  test('LOCAL_STORAGE_SET from the app writes known keys with valid values; null removes; others are ignored', async () => {
    const { errors, host, app } = await openHost('/settings');

    await host.send(storageSet('IS_PREMIUM_USER_FROM_WEBVIEW', 'true'));
    await eventually(async () => assert.equal(await app.storage('IS_PREMIUM_USER_FROM_WEBVIEW'), 'true'));
    // As an object, too.
    await host.send({ type: 'LOCAL_STORAGE_SET', payload: { key: 'IS_AD_REMOVAL_REWARD_ON', value: 'true' } });
    await eventually(async () => assert.equal(await app.storage('IS_AD_REMOVAL_REWARD_ON'), 'true'));

    await host.send(storageSet('SOMETHING_ELSE', 'true'));
    await host.send(storageSet('IS_PREMIUM_USER_FROM_WEBVIEW', 'yes'));
    await host.send({ type: 'LOCAL_STORAGE_SET', payload: { key: 'IS_PREMIUM_USER_FROM_WEBVIEW', value: false } });
    await host.send(storageSet('IS_AD_REMOVAL_REWARD_ON', null)); // removes
    await eventually(async () => assert.equal(await app.storage('IS_AD_REMOVAL_REWARD_ON'), null));
    assert.equal(await app.storage('SOMETHING_ELSE'), null, 'an unknown key is not written');
    assert.equal(await app.storage('IS_PREMIUM_USER_FROM_WEBVIEW'), 'true', 'invalid values are refused');

    // A value the page uses takes effect at once: the language.
    assert.equal(await app.heading.textContent(), '설정');
    await host.send(storageSet('MOAT_LOCALE', 'en'));
    await eventually(async () => assert.equal(await app.heading.textContent(), 'Settings'));
    assert.equal(await app.frame.evaluate(() => document.documentElement.lang), 'en');
    assertNoErrors(errors);
  });
});
