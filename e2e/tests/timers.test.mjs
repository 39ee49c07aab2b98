/**
 * Spec §2 timings, with Playwright's clock:
 *  - the page reloads itself when it becomes visible or focused again more than 1 h after
 *    it loaded (and not before);
 *  - `<script delay>` tags load after 5 s or on the first interaction, exactly once.
 * The server renders `<script delay="/e2e-delayed.js">` (MOAT_DELAYED_SCRIPTS); the
 * browser answers that URL itself (page.route), so each execution can be counted.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { AppPage } from '../support/pages.mjs';

const DELAYED = '/e2e-delayed.js';

let env;
before(async () => {
  env = await launch({ serverEnv: { MOAT_DELAYED_SCRIPTS: JSON.stringify([DELAYED]) } });
});
afterEach(() => env.closeContexts());
after(() => env?.close());

/**
 * A tab with the clock installed (running), the delayed script answered and counted, and
 * in-page records: `__bootedAt` (fake time at document start), `__renderedAt` (first
 * render of the app) and `__reloadCalls` (reloads the page asked for, counted synchronously
 * by the Navigation API).
 */
async function timedPage() {
  const { page, errors } = await env.newPage();
  const requests = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === DELAYED) requests.push(request.url());
  });
  await page.route(`**${DELAYED}`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: 'window.__delayedRuns = (window.__delayedRuns || 0) + 1;' }),
  );
  await page.clock.install();
  // After the clock, so Date.now() here is the fake time.
  await page.addInitScript(() => {
    window.__bootedAt = Date.now();
    // When the app first rendered: it boots (and starts its timers) before that.
    new MutationObserver((_, observer) => {
      if (document.getElementById('root')?.firstChild) {
        window.__renderedAt = Date.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
    window.__reloadCalls = 0;
    window.navigation?.addEventListener('navigate', (event) => {
      if (event.navigationType === 'reload') window.__reloadCalls += 1;
    });
  });
  const app = new AppPage(page);
  await app.goto('/');
  return { page, app, errors, requests };
}

/** Marks the current document; a reload drops the mark. */
const mark = (page) => page.evaluate(() => (window.__sameDocument = true));
const stillSameDocument = (page) => page.evaluate(() => window.__sameDocument === true);

const becomeVisible = () => document.dispatchEvent(new Event('visibilitychange'));
const gainFocus = () => window.dispatchEvent(new Event('focus'));

describe('self-reload after an hour', () => {
  for (const [name, trigger] of [
    ['visibilitychange (visible)', becomeVisible],
    ['window focus', gainFocus],
  ]) {
    test(`${name} more than 1 h after load reloads the page`, async () => {
      const { page, app, errors } = await timedPage();
      await mark(page);
      assert.equal(await page.evaluate(() => document.visibilityState), 'visible');

      await page.clock.fastForward('01:00:01');
      const loaded = page.waitForEvent('load');
      const reloadCalls = await page.evaluate(`(${trigger})(), window.__reloadCalls`);

      assert.equal(reloadCalls, 1, 'the page asked for a reload');
      await loaded;
      await app.ready();
      assert.equal(await stillSameDocument(page), false, 'the page was reloaded');
      assert.equal(app.url().pathname, '/', 'the reload keeps the address');
      assertNoErrors(errors);
    });
  }

  test('visibility and focus before 1 h do not reload', async () => {
    const { page, app, errors } = await timedPage();
    await mark(page);

    await page.clock.fastForward('59:00');
    // The reload call would be synchronous inside the event handler.
    assert.equal(await page.evaluate(`(${becomeVisible})(), (${gainFocus})(), window.__reloadCalls`), 0);
    assert.equal(await stillSameDocument(page), true);

    // A hidden tab's visibilitychange never reloads, whatever the time.
    await page.clock.fastForward('02:00');
    const hiddenCalls = await page.evaluate(() => {
      // Shadow the prototype's getter for this one event, then drop the shadow.
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
      delete document.visibilityState;
      return window.__reloadCalls;
    });
    assert.equal(hiddenCalls, 0, 'a tab becoming hidden is not a reason to reload');

    // Past the hour (59 + 2 min), the same event does reload: the check above was live.
    const loaded = page.waitForEvent('load');
    assert.equal(await page.evaluate(`(${becomeVisible})(), window.__reloadCalls`), 1);
    await loaded;
    await app.ready();
    assertNoErrors(errors);
  });
});

describe('delayed scripts', () => {
  /** The delayed script tag as the page has it: still waiting, or loading with a src. */
  const delayedTag = (page) =>
    page.evaluate((src) => {
      const waiting = document.querySelectorAll('script[delay]').length;
      const loading = [...document.scripts].filter((s) => new URL(s.src || 'about:blank').pathname === src).length;
      return { waiting, loading };
    }, DELAYED);

  test('without interaction the script loads at 5 s, not before', async () => {
    const { page, errors, requests } = await timedPage();
    const { bootedAt, renderedAt, now } = await page.evaluate(() => ({
      bootedAt: window.__bootedAt,
      renderedAt: window.__renderedAt,
      now: Date.now(),
    }));
    assert.ok(now - bootedAt < 4000, `the page took ${now - bootedAt} ms (fake) to load; cannot test the 5 s mark`);

    // The app starts its 5 s timer when it boots: after the document started, before it
    // first rendered. Step through the 5 s mark 10 ms at a time and see when the tag loads.
    await page.clock.pauseAt(bootedAt + 4990);
    assert.deepEqual(await delayedTag(page), { waiting: 1, loading: 0 }, 'loaded before 5 s');
    assert.equal(await page.evaluate(() => window.__delayedRuns), undefined);
    let loadedAt;
    while (loadedAt === undefined && (await page.evaluate(() => Date.now())) <= renderedAt + 5000) {
      await page.clock.runFor(10);
      if ((await delayedTag(page)).loading) loadedAt = await page.evaluate(() => Date.now());
    }
    assert.ok(loadedAt, 'not loaded 5 s after the app booted');
    assert.ok(loadedAt - bootedAt >= 5000, `loaded ${loadedAt - bootedAt} ms after the document started`);
    assert.deepEqual(await delayedTag(page), { waiting: 0, loading: 1 });
    await page.waitForFunction(() => window.__delayedRuns === 1);
    assert.equal(requests.length, 1);

    // Later interactions and time do not load it again.
    await page.mouse.move(20, 20);
    await page.keyboard.press('Shift');
    await page.clock.runFor(10_000);
    await page.evaluate(() => fetch('/healthz')); // one more round trip for any stray request
    assert.deepEqual(await delayedTag(page), { waiting: 0, loading: 1 });
    assert.equal(await page.evaluate(() => window.__delayedRuns), 1);
    assert.equal(requests.length, 1, 'the script was requested exactly once');
    assertNoErrors(errors);
  });

  for (const [name, interact] of [
    ['mousemove', (page) => page.mouse.move(40, 60)],
    ['keydown', (page) => page.keyboard.press('Tab')],
    ['wheel', (page) => page.mouse.wheel(0, 40)],
  ]) {
    test(`the first ${name} loads the script at once, and only once`, async () => {
      const { page, errors, requests } = await timedPage();
      const { bootedAt, now } = await page.evaluate(() => ({ bootedAt: window.__bootedAt, now: Date.now() }));
      assert.ok(now - bootedAt < 4000, 'the page took too long to load');
      // Hold time well before the 5 s mark, so only the interaction can load it.
      await page.clock.pauseAt(now + 100);
      assert.deepEqual(await delayedTag(page), { waiting: 1, loading: 0 });

      await interact(page);

      await page.waitForFunction(() => window.__delayedRuns === 1);
      assert.deepEqual(await delayedTag(page), { waiting: 0, loading: 1 });
      assert.ok((await page.evaluate(() => Date.now())) < bootedAt + 5000, 'loaded by the interaction, not the timer');

      await page.mouse.move(200, 200);
      await page.keyboard.press('Shift');
      await page.clock.runFor(10_000); // past the 5 s timer
      await page.evaluate(() => fetch('/healthz'));
      assert.equal(await page.evaluate(() => window.__delayedRuns), 1);
      assert.equal(requests.length, 1, 'the script was requested exactly once');
      assertNoErrors(errors);
    });
  }
});
