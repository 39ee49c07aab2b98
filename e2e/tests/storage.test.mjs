/**
 * Local storage (spec §3, docs/mobile-bridge.md "Storage keys"): a stored value that does
 * not match its key's format reads as absent. Corrupt values, or no usable storage at all,
 * never break the page: it renders in the default language, Korean.
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

const CORRUPT = {
  MOAT_LOCALE: '{{garbage',
  PORTFOLIO_SORT: 'not json',
  AUTH_TOKEN: 'not a token',
  MOAT_RECENT_STOCKS_2: '["005930", 1',
  IS_PREMIUM_USER_FROM_WEBVIEW: 'TRUE',
  IS_AD_REMOVAL_REWARD_ON: '',
  LOAN_INTEREST_CALCULATOR_VALUES: '{"principal":5}',
  PORTFOLIO_CURRENCY_MODE: 'EUR',
  KB_ORDERABLE_CASH_AMOUNT: '-1e9',
  MOAT_CHAT_NOTICE_room1: '   ',
};

/** Seeds the corrupt values once per tab (a reload keeps what the page wrote since). */
function seed(values) {
  if (sessionStorage.getItem('seeded')) return;
  sessionStorage.setItem('seeded', '1');
  for (const [key, value] of Object.entries(values)) localStorage.setItem(key, value);
}

describe('stored values', () => {
  test('corrupt values do not crash the app; it falls back to Korean', async () => {
    const { page, context, errors } = await env.newPage();
    await context.addInitScript(seed, CORRUPT);
    const app = new AppPage(page);

    await app.goto('/');
    assert.equal(await app.htmlLang(), 'ko');
    assert.equal(await app.navLink('home').textContent(), '홈');
    assert.equal(await page.getByTestId('error-boundary').count(), 0, 'no error screen');

    await app.nav('settings');
    assert.equal(await app.heading.textContent(), '설정');
    assert.equal(await page.getByTestId('current-language').textContent(), '한국어');

    // The language can be chosen again, which replaces the corrupt value, and it sticks.
    await app.openLanguage();
    await app.chooseLanguage('en');
    await eventually(async () => assert.equal(await app.heading.textContent(), 'Settings'));
    assert.equal(await app.storage('MOAT_LOCALE'), 'en');
    await page.reload();
    await app.ready();
    assert.equal(await app.heading.textContent(), 'Settings');
    assert.equal(await app.storage('PORTFOLIO_SORT'), 'not json', 'values the page did not write are left alone');
    assertNoErrors(errors);
  });

  test('a browser without usable storage still runs the app (in-memory language choice)', async () => {
    const { page, context, errors } = await env.newPage();
    await context.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        configurable: true,
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
    const app = new AppPage(page);
    await app.goto('/settings');
    assert.equal(await app.heading.textContent(), '설정');
    assert.equal(await app.htmlLang(), 'ko');

    await app.openLanguage();
    await app.chooseLanguage('en');
    await eventually(async () => assert.equal(await app.heading.textContent(), 'Settings'));
    assert.equal(await app.htmlLang(), 'en');
    assertNoErrors(errors);
  });

  test('a full storage (quota errors on write) does not break choosing a language', async () => {
    const { page, context, errors } = await env.newPage();
    await context.addInitScript(() => {
      Storage.prototype.setItem = function () {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    const app = new AppPage(page);
    await app.goto('/settings');
    await app.openLanguage();
    await app.chooseLanguage('en');
    await eventually(async () => assert.equal(await app.heading.textContent(), 'Settings'));
    assert.equal(await app.storage('MOAT_LOCALE'), null);
    assertNoErrors(errors);
  });
});
