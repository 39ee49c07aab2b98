/**
 * Spec §2 modal routes: `?<name>=routeModalTrue` pushed onto history; closing goes back one
 * step. And the language picker it opens: the choice applies at once and is remembered.
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

async function openApp(path) {
  const { page, errors } = await env.newPage();
  const app = new AppPage(page);
  await app.goto(path);
  return { app, page, errors };
}

const search = (app) => Object.fromEntries(app.url().searchParams);

describe('modal routes', () => {
  test('the language button pushes ?language=routeModalTrue, keeping other parameters, and shows the dialog', async () => {
    const { app, errors } = await openApp('/settings?x=1');
    const lengthBefore = await app.historyLength();
    assert.equal(await app.languageDialog.count(), 0);

    await app.openLanguage();

    assert.equal(app.url().pathname, '/settings');
    assert.deepEqual(search(app), { x: '1', language: 'routeModalTrue' });
    assert.equal(await app.historyLength(), lengthBefore + 1, 'opening pushes one history entry');
    assert.equal(await app.languageDialog.getAttribute('role'), 'dialog');
    assert.ok(await app.languageDialog.isVisible());
    assertNoErrors(errors);
  });

  test('browser back closes the modal and removes the parameter', async () => {
    const { app, page, errors } = await openApp('/settings?x=1');
    await app.openLanguage();

    await page.goBack();

    await app.languageDialog.waitFor({ state: 'detached' });
    assert.equal(app.url().pathname, '/settings');
    assert.deepEqual(search(app), { x: '1' });
    assert.ok(await app.heading.isVisible(), 'still on the settings page');
    assertNoErrors(errors);
  });

  test('Escape and the close button go back one step: history does not grow over repeated open/close', async () => {
    const { app, page, errors } = await openApp('/settings?x=1');
    const start = await app.historyLength();

    for (const close of ['escape', 'button', 'escape', 'button']) {
      await app.openLanguage();
      assert.equal(await app.historyLength(), start + 1);
      if (close === 'escape') await page.keyboard.press('Escape');
      else await app.dialogCloseButton.click();
      await app.languageDialog.waitFor({ state: 'detached' });
      await eventually(() => assert.deepEqual(search(app), { x: '1' }));
      assert.equal(await app.historyLength(), start + 1, `after closing with ${close}`);
    }

    // Closing went back each time, so the tab's history is just the page it opened: one
    // more back leaves the app (to the tab's blank start page).
    await page.goBack();
    assert.equal(page.url(), 'about:blank', 'closed modals left history entries behind');
    assertNoErrors(errors);
  });

  test('reloading with the parameter shows the modal; closing it then stays on the page', async () => {
    const { app, page, errors } = await openApp('/settings?x=1');
    await app.openLanguage();

    await page.reload();
    await app.ready();
    await app.languageDialog.waitFor();

    // A tab opened directly on the modal URL has no earlier entry: close must not leave the app.
    const direct = await openApp('/settings?x=1&language=routeModalTrue');
    await direct.app.languageDialog.waitFor();
    await direct.page.keyboard.press('Escape');
    await direct.app.languageDialog.waitFor({ state: 'detached' });
    assert.equal(direct.app.url().pathname, '/settings');
    assert.deepEqual(search(direct.app), { x: '1' });
    assert.ok(await direct.app.heading.isVisible());
    assertNoErrors(errors);
    assertNoErrors(direct.errors);
  });

  test('choosing English switches the text and <html lang>, and persists across reload', async () => {
    const { app, page, errors } = await openApp('/settings');
    assert.equal(await app.heading.textContent(), '설정');
    assert.equal(await app.htmlLang(), 'ko');
    assert.equal(await app.navLink('home').textContent(), '홈');

    await app.openLanguage();
    await app.chooseLanguage('en');

    await eventually(async () => assert.equal(await app.heading.textContent(), 'Settings'));
    assert.equal(await app.htmlLang(), 'en');
    assert.equal(await app.navLink('home').textContent(), 'Home');
    assert.equal(await page.title(), 'Settings — Moat');
    assert.equal(await app.storage('MOAT_LOCALE'), 'en');
    // A tap on a language also closes the picker (one step back).
    await app.languageDialog.waitFor({ state: 'detached' });
    assert.equal(app.url().search, '');
    await app.toasts.filter({ hasText: 'English' }).waitFor();

    await page.reload();
    await app.ready();
    assert.equal(await app.heading.textContent(), 'Settings');
    assert.equal(await app.htmlLang(), 'en');

    // And back to Korean.
    await app.openLanguage();
    await app.chooseLanguage('ko');
    await eventually(async () => assert.equal(await app.heading.textContent(), '설정'));
    assert.equal(await app.htmlLang(), 'ko');
    assert.equal(await app.storage('MOAT_LOCALE'), 'ko');
    assertNoErrors(errors);
  });
});
