/**
 * Spec §2 scroll: the position is saved on every route change and restored 100 ms after a
 * back/forward navigation; any other navigation starts at the top. Time is driven by
 * Playwright's clock, so "100 ms" is checked exactly.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { AppPage } from '../support/pages.mjs';

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

/**
 * How far the pages are scrolled. The market home on a 360×640 phone (a common Android
 * size) is about 600 px taller than the screen once its board has loaded (indices,
 * favourites, movers), a visitor's settings page about 200 px.
 */
const HOME_Y = 500;
const HOME_MODAL_Y = 450;
const SETTINGS_Y = 120;

/**
 * A phone-sized tab on `/` pushed from `/settings`, so both pages' code is loaded (a page
 * that must still load would wait on React's timers, which the paused clock holds), the
 * home's market board loaded (its height is the page's), then the clock paused.
 */
async function phoneOnHome() {
  const { page, errors } = await env.newPage({ viewport: { width: 360, height: 640 } });
  await page.clock.install();
  const app = new AppPage(page);
  await app.goto('/settings');
  await app.nav('home');
  await page.getByTestId('index-card').first().waitFor();
  await page.getByTestId('movers').getByTestId('instrument-row').first().waitFor();
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000);
  return { page, app, errors };
}

async function pageSaysHome(app) {
  await app.waitForPath('/');
  await eventually(async () => assert.equal(await app.frame.locator('#home-title').count(), 1));
}

async function pageSaysSettings(app) {
  await app.waitForPath('/settings');
  await eventually(async () => assert.equal(await app.heading.textContent(), '설정'));
}

describe('scroll restoration', () => {
  test('a push navigation starts at the top and is never restored later', async () => {
    const { page, app, errors } = await phoneOnHome();
    await app.scrollTo(HOME_Y);

    await app.openNav('settings');
    await pageSaysSettings(app);
    assert.equal(await app.scrollY(), 0, 'the pushed page starts at the top');
    await page.clock.runFor(1000);
    assert.equal(await app.scrollY(), 0, 'nothing scrolls it later');

    // Back to "/" by a link: a new entry, so the position of the old "/" entry is not applied.
    await app.navLink('home').click();
    await pageSaysHome(app);
    assert.equal(await app.scrollY(), 0);
    await page.clock.runFor(1000);
    assert.equal(await app.scrollY(), 0, 'a push to a page visited before is not restored');
    assertNoErrors(errors);
  });

  test('back restores the saved position 100 ms later, forward restores the other page', async () => {
    const { page, app, errors } = await phoneOnHome();
    await app.scrollTo(HOME_Y);
    await app.openNav('settings');
    await pageSaysSettings(app);
    await app.scrollTo(SETTINGS_Y);

    await page.goBack();
    await pageSaysHome(app);
    assert.notEqual(await app.scrollY(), HOME_Y, 'restored at once, not after 100 ms');
    await page.clock.runFor(99);
    assert.notEqual(await app.scrollY(), HOME_Y, 'restored before 100 ms');
    await page.clock.runFor(1);
    assert.equal(await app.scrollY(), HOME_Y, 'restored at 100 ms');

    await page.goForward();
    await pageSaysSettings(app);
    await page.clock.runFor(100);
    assert.equal(await app.scrollY(), SETTINGS_Y, 'forward restores the settings position');

    await page.goBack();
    await pageSaysHome(app);
    await page.clock.runFor(100);
    assert.equal(await app.scrollY(), HOME_Y, 'the position survives several round trips');
    assertNoErrors(errors);
  });

  test('opening and closing a route modal keeps the page where it was', async () => {
    const { page, app, errors } = await phoneOnHome();
    await app.scrollTo(HOME_MODAL_Y);

    // The modal's code must be loaded before the clock stops; open it once while time runs.
    await page.clock.resume();
    await app.openLanguage();
    await page.keyboard.press('Escape');
    await app.languageDialog.waitFor({ state: 'detached' });
    await page.clock.runFor(200);
    assert.equal(await app.scrollY(), HOME_MODAL_Y);
    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1000);

    await app.openLanguage(); // a push to the same page
    assert.equal(await app.scrollY(), HOME_MODAL_Y, 'the page behind the modal did not jump');
    await page.clock.runFor(1000);
    assert.equal(await app.scrollY(), HOME_MODAL_Y);

    await page.keyboard.press('Escape'); // back
    await app.languageDialog.waitFor({ state: 'detached' });
    await page.clock.runFor(100);
    assert.equal(await app.scrollY(), HOME_MODAL_Y, 'closing did not move the page');
    assertNoErrors(errors);
  });
});
