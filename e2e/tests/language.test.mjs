/**
 * The member's language (issue 17 §1), in Chromium against the real server: a refusal is
 * worded in Korean from the server's code and values, never the server's English (sign-up
 * with a too-common password, log-in with a wrong password, selling more than is held),
 * and rises and falls take the language's colours on every screen: red up and blue down
 * in Korean, green up and red down in English.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { api as callApi, memberDetails, newMember } from '../support/members.mjs';

const PASSWORD = 'language e2e password 1';

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

const api = (token, method, path, body) => callApi(env.server, token, method, path, body);

/** A tab in `locale` (`MOAT_LOCALE`), as the member of `token` if given. */
async function tab({ locale = 'ko', token, viewport = { width: 360, height: 740 } } = {}) {
  const { page, context, errors } = await env.newPage({ viewport });
  await context.addInitScript(
    ([l, t]) => {
      localStorage.setItem('MOAT_LOCALE', l);
      if (t) localStorage.setItem('AUTH_TOKEN', t);
    },
    [locale, token ?? null],
  );
  return { page, errors };
}

/** The element's accessible description: the texts its `aria-describedby` names. */
const descriptionOf = (locator) =>
  locator.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

describe('refusals in the page’s language', () => {
  test('sign-up with a too-common password says so in Korean', async () => {
    const { page, errors } = await tab();
    const member = memberDetails('lang');
    await page.goto(`${env.server.url}/signup`);
    await page.getByLabel('이메일').fill(member.email);
    await page.getByLabel('비밀번호').fill('0123456789');
    await page.getByLabel('닉네임').fill(member.nickname);
    await page.getByRole('button', { name: '가입하기' }).click();
    const password = page.getByLabel('비밀번호');
    await eventually(async () => assert.equal(await password.getAttribute('aria-invalid'), 'true'));
    assert.match(await descriptionOf(password), /너무 흔한 비밀번호입니다\. 다른 비밀번호를 골라 주세요\./);
    const text = await page.locator('body').innerText();
    assert.doesNotMatch(text, /too common/i);
    assertNoErrors(errors, { ignore: [/Failed to load resource/] });
  });

  test('log-in with a wrong password says so in Korean', async () => {
    const member = await newMember(env.server, { prefix: 'lang', password: PASSWORD });
    const { page, errors } = await tab();
    await page.goto(`${env.server.url}/login`);
    await page.getByLabel('이메일', { exact: true }).fill(member.email);
    await page.getByLabel('비밀번호', { exact: true }).fill('not the password 1');
    await page.getByRole('button', { name: '로그인', exact: true }).click();
    await page.getByText('이메일 또는 비밀번호가 맞지 않습니다.').waitFor();
    assert.doesNotMatch(await page.locator('body').innerText(), /email or password is not right/i);
    assertNoErrors(errors, { ignore: [/Failed to load resource/] });
  });

  test('selling more than is held says so in Korean under 수량, with the values', async () => {
    const { token } = await newMember(env.server, { prefix: 'lang', password: PASSWORD });
    const created = await api(token, 'POST', '/api/portfolios', { name: '매도 연습', base_currency: 'KRW' });
    await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
      kind: 'deposit', trade_date: '2025-01-02', quantity: '1', price: '5000000', currency: 'KRW',
    });
    await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
      kind: 'buy', trade_date: '2025-01-03', instrument_id: 'KRX:005930', quantity: '15', price: '53400', currency: 'KRW',
    });
    const { page, errors } = await tab({ token });
    await page.goto(`${env.server.url}/portfolios/${created.id}/transactions/new`);
    await page.getByRole('radio', { name: '매도' }).check();
    await page.getByLabel('거래일').fill('2025-02-03');
    await page.getByRole('combobox', { name: '종목' }).fill('005930');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('Enter');
    await page.getByLabel('수량', { exact: true }).fill('50');
    await page.getByLabel('단가', { exact: true }).fill('60000');
    await page.getByRole('button', { name: '저장' }).click();

    const quantity = page.getByLabel('수량', { exact: true });
    await eventually(async () => assert.equal(await quantity.getAttribute('aria-invalid'), 'true'));
    const said = await descriptionOf(quantity);
    assert.match(said, /2025\. 2\. 3\. 기준 삼성전자 보유 수량이 15주라서 50주를 팔 수 없습니다\./);
    assert.doesNotMatch(await page.locator('body').innerText(), /sells|is held on/);
    assertNoErrors(errors, { ignore: [/Failed to load resource/] });
  });
});

const RGB = {
  red: 'rgb(224, 50, 59)',
  blue: 'rgb(31, 111, 229)',
  green: 'rgb(15, 138, 79)',
  enRed: 'rgb(214, 51, 59)',
};
const EXPECTED = { ko: { up: RGB.red, down: RGB.blue }, en: { up: RGB.green, down: RGB.enRed } };

/** The computed colour of every element of `selector` on the page. */
const colours = (page, selector) => page.locator(selector).evaluateAll((els) => els.map((el) => getComputedStyle(el).color));

/** Every element of the two selectors has the language's colour of its direction. */
async function assertColours(page, locale, { up, down }, where) {
  const seen = { up: await colours(page, up), down: await colours(page, down) };
  assert.ok(seen.up.length + seen.down.length > 0, `${where}: something rose or fell`);
  for (const dir of ['up', 'down']) {
    for (const color of seen[dir]) assert.equal(color, EXPECTED[locale][dir], `${where} ${dir}`);
  }
}

describe('colours of rises and falls', () => {
  for (const locale of ['ko', 'en']) {
    test(`${locale}: the market (home) and the portfolio use the same colours`, async () => {
      const { token } = await newMember(env.server, { prefix: 'lang', password: PASSWORD });
      const created = await api(token, 'POST', '/api/portfolios', { name: 'Colours', base_currency: 'KRW' });
      await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
        kind: 'deposit', trade_date: '2025-01-02', quantity: '1', price: '50000000', currency: 'KRW',
      });
      // Bought far below and far above today's price: one gain and one loss for sure.
      await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
        kind: 'buy', trade_date: '2025-01-03', instrument_id: 'KRX:005930', quantity: '10', price: '1000', currency: 'KRW',
      });
      await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
        kind: 'buy', trade_date: '2025-01-03', instrument_id: 'KRX:000660', quantity: '1', price: '90000000', currency: 'KRW',
      });
      const { page, errors } = await tab({ locale, token, viewport: { width: 1280, height: 900 } });
      await page.goto(`${env.server.url}/`);
      await page.waitForFunction((l) => document.documentElement.lang === l, locale);
      await page.locator('[data-direction="up"], [data-direction="down"]').first().waitFor();
      await assertColours(page, locale, { up: '[data-direction="up"]', down: '[data-direction="down"]' }, 'home');

      await page.goto(`${env.server.url}/portfolios/${created.id}`);
      await page.locator('.pf-up').first().waitFor();
      await page.locator('.pf-down').first().waitFor();
      await assertColours(page, locale, { up: '.pf-up', down: '.pf-down' }, 'portfolio');
      assertNoErrors(errors, { ignore: [/Failed to load resource/] });
    });
  }
});

/** Samsung Electronics' page, however the router writes the id. */
const STOCK_URL = /\/stocks\/KRX(%3A|:)005930$/;

describe('layout', () => {
  test('a holding’s whole row opens its stock, by pointer and by keyboard (1280 px and 360 px)', async () => {
    const { token } = await newMember(env.server, { prefix: 'lang', password: PASSWORD });
    const created = await api(token, 'POST', '/api/portfolios', { name: 'Rows', base_currency: 'KRW' });
    await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
      kind: 'deposit', trade_date: '2025-01-02', quantity: '1', price: '5000000', currency: 'KRW',
    });
    await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
      kind: 'buy', trade_date: '2025-01-03', instrument_id: 'KRX:005930', quantity: '15', price: '53417', currency: 'KRW',
    });
    for (const width of [1280, 360]) {
      const { page, errors } = await tab({ token, viewport: { width, height: 800 } });
      await page.goto(`${env.server.url}/portfolios/${created.id}`);
      const row = page.locator('[data-testid="holding"][data-id="KRX:005930"]');
      await row.waitFor();
      // Far from the name: the row's right-hand end, below the name's line.
      await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      const box = await row.boundingBox();
      await page.mouse.click(box.x + box.width - 12, box.y + box.height - 10);
      await eventually(() => assert.match(page.url(), STOCK_URL));

      await page.goBack();
      const link = row.getByRole('link', { name: '삼성전자' });
      await link.focus();
      await page.keyboard.press('Enter');
      await eventually(() => assert.match(page.url(), STOCK_URL));
      assertNoErrors(errors, { ignore: [/Failed to load resource/] });
    }
  });

  test('at 320 px the chart’s ranges stay inside their buttons, nothing overflows, the header is opaque', async () => {
    const { page, errors } = await tab({ viewport: { width: 320, height: 700 } });
    await page.goto(`${env.server.url}/stocks/KRX%3A005930?range=1D`);
    const fiveYears = page.getByRole('button', { name: '5년' });
    await fiveYears.waitFor();
    const fit = await fiveYears.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right }));
    assert.ok(fit.scroll <= fit.client, `5년 fits its button: ${JSON.stringify(fit)}`);
    assert.ok(fit.right <= 320, `the button is on the screen: ${fit.right}`);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    assert.equal(widths.scroll, widths.client, 'no horizontal scroll');
    const background = await page.locator('header').first().evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.match(background, /^rgb\(/, `an opaque header: ${background}`);
    assertNoErrors(errors, { ignore: [/Failed to load resource/] });
  });
});
