/**
 * The member's money first and a real stock page (issue 17 §2, §3), in Chromium against
 * the real server, in Korean: home's 내 자산 with the right total and each portfolio; a
 * trade recorded from a stock's page with its price filled in lands in the portfolio; a
 * USD trade gets the day's stored USD/KRW rate; a bare code URL reaches the stock page.
 * With MOAT_E2E_SHOTS=<dir>, screenshots of home and a held stock's page at 360 and 1280
 * px, Korean and English, are written there.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { api as callApi, newMember as signUpMember } from '../support/members.mjs';

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

const newMember = async () => (await signUpMember(env.server, { prefix: 'home' })).token;
const api = (token, method, p, body) => callApi(env.server, token, method, p, body);

async function tab(token, { viewport = { width: 360, height: 740 }, locale = 'ko' } = {}) {
  const { page, context, errors } = await env.newPage({ viewport });
  await context.addInitScript(
    ([t, l]) => {
      if (t) localStorage.setItem('AUTH_TOKEN', t);
      localStorage.setItem('MOAT_LOCALE', l);
    },
    [token, locale],
  );
  return { page, errors };
}

const won = (value) => `₩${Number(value).toLocaleString('en-US')}`;

describe('home and the stock page', () => {
  test('a member’s home starts with 내 자산: the total of every portfolio, then each portfolio', async () => {
    const token = await newMember();
    const main = await api(token, 'POST', '/api/portfolios', { name: '키움 메인', base_currency: 'KRW' });
    const second = await api(token, 'POST', '/api/portfolios', { name: '연금', base_currency: 'KRW' });
    await api(token, 'POST', `/api/portfolios/${main.id}/transactions`, { kind: 'deposit', trade_date: '2025-01-02', quantity: '1', price: '1200000', currency: 'KRW' });
    await api(token, 'POST', `/api/portfolios/${second.id}/transactions`, { kind: 'deposit', trade_date: '2025-01-02', quantity: '1', price: '300000', currency: 'KRW' });
    const { page, errors } = await tab(token);
    await page.goto(`${env.server.url}/`);
    const money = page.getByRole('region', { name: '내 자산' });
    await eventually(async () => assert.match(await money.innerText(), /₩1,500,000/));
    // It comes before the market.
    const titles = await page.getByRole('heading', { level: 2 }).allInnerTexts();
    assert.equal(titles[0], '내 자산');
    const rows = money.getByRole('list', { name: '내 포트폴리오' }).getByRole('link');
    assert.equal(await rows.count(), 2);
    assert.match(await rows.nth(0).innerText(), /키움 메인[\s\S]*₩1,200,000/);
    assert.match(await rows.nth(1).innerText(), /연금[\s\S]*₩300,000/);
    await rows.nth(1).click();
    await page.waitForURL(`**/portfolios/${second.id}`);
    assertNoErrors(errors);
  });

  test('a visitor sees the market, then an invitation to sign up or log in', async () => {
    const { page, errors } = await tab(null);
    await page.goto(`${env.server.url}/`);
    const invite = page.getByRole('region', { name: '내 자산을 한곳에서' });
    await invite.waitFor();
    assert.equal(await invite.getByRole('link', { name: '회원 가입' }).getAttribute('href'), '/signup');
    assert.equal(await page.getByRole('region', { name: '내 자산', exact: true }).count(), 0);
    assertNoErrors(errors);
  });

  test('거래 기록 on a stock’s page opens the form with the price filled in; the trade lands in the portfolio', async () => {
    const token = await newMember();
    const p = await api(token, 'POST', '/api/portfolios', { name: '키움 메인', base_currency: 'KRW' });
    const { page, errors } = await tab(token);
    await page.goto(`${env.server.url}/stocks/KRX:005930`);
    await page.getByRole('link', { name: '거래 기록' }).click();
    await page.waitForURL(`**/portfolios/${p.id}/transactions/new?**`);
    const form = page.getByTestId('transaction-form');
    await eventually(async () => assert.equal(await page.getByTestId('picked-instrument').getAttribute('data-id'), 'KRX:005930'));
    const price = await form.getByLabel('단가').inputValue();
    assert.match(price, /^\d+(\.\d+)?$/, 'today’s price is filled in');
    await form.getByLabel('수량', { exact: true }).fill('3');
    await form.getByRole('button', { name: '저장' }).click();
    await page.getByTestId('portfolio-detail-page').waitFor();
    const [tx] = await api(token, 'GET', `/api/portfolios/${p.id}/transactions`);
    assert.equal(tx.kind, 'buy');
    assert.equal(tx.instrument_id, 'KRX:005930');
    assert.equal(tx.quantity, '3');
    assert.equal(Number(tx.price), Number(price));

    // Back on the stock's page: the member's own position.
    await page.goto(`${env.server.url}/stocks/KRX:005930`);
    const position = page.getByRole('region', { name: '내 보유' });
    await eventually(async () => assert.match(await position.innerText(), /3주/));
    assert.match(await position.innerText(), new RegExp(won(Math.round(Number(price))).replace('$', '\\$')));
    assertNoErrors(errors);
  });

  test('a USD trade gets the day’s stored USD/KRW rate, which the member may change', async () => {
    const token = await newMember();
    const p = await api(token, 'POST', '/api/portfolios', { name: 'Main', base_currency: 'KRW' });
    // The first start's backfill stores the rates; on a busy machine it may still be at
    // work when this test begins, and the form reads the rate once, when it opens.
    const day = (offset) => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
    await eventually(
      async () => {
        const recent = await api(null, 'GET', `/api/fx/USDKRW?from=${day(-14)}&to=${day(1)}`);
        assert.ok(recent.rates.length > 0, 'the backfill has stored USD/KRW rates');
      },
      { timeout: 60_000, interval: 250 },
    );
    const { page, errors } = await tab(token);
    await page.goto(`${env.server.url}/stocks/NASDAQ:AAPL`);
    await page.getByRole('link', { name: '거래 기록' }).click();
    await page.waitForURL(`**/portfolios/${p.id}/transactions/new?**`);
    const form = page.getByTestId('transaction-form');
    await eventually(async () => assert.equal(await form.getByLabel('통화').inputValue(), 'USD'));
    const date = await form.getByLabel('거래일').inputValue();
    const from = new Date(Date.parse(`${date}T00:00:00Z`) - 14 * 86400000).toISOString().slice(0, 10);
    const fx = await api(null, 'GET', `/api/fx/USDKRW?from=${from}&to=${date}`);
    const stored = fx.rates.filter((r) => r.date <= date).at(-1);
    assert.ok(stored, `a stored rate on or before ${date}: ${JSON.stringify(fx)}`);
    const rate = form.getByLabel('환율');
    await eventually(async () => assert.equal(await rate.inputValue(), stored.rate));
    await form.getByLabel('수량', { exact: true }).fill('2');
    await form.getByRole('button', { name: '저장' }).click();
    await page.getByTestId('portfolio-detail-page').waitFor();
    const [tx] = await api(token, 'GET', `/api/portfolios/${p.id}/transactions`);
    assert.equal(tx.currency, 'USD');
    assert.equal(tx.fx_rate, stored.rate);
    assertNoErrors(errors);
  });

  test('a bare code reaches the stock page', async () => {
    const { page, errors } = await tab(null);
    const response = await page.goto(`${env.server.url}/stocks/005930`);
    assert.equal(response.status(), 200);
    assert.equal(new URL(page.url()).pathname, '/stocks/KRX:005930');
    await page.getByRole('heading', { level: 1, name: /삼성전자/ }).waitFor();
    await page.goto(`${env.server.url}/stocks/aapl`);
    assert.equal(new URL(page.url()).pathname, '/stocks/NASDAQ:AAPL');
    await page.getByRole('heading', { level: 1, name: /애플/ }).waitFor();
    assertNoErrors(errors);
  });

  test('screenshots of a member’s home and a held stock’s page (360 and 1280 px, ko and en)', { skip: !process.env.MOAT_E2E_SHOTS }, async () => {
    const dir = process.env.MOAT_E2E_SHOTS;
    await mkdir(dir, { recursive: true });
    const token = await newMember();
    const a = await api(token, 'POST', '/api/portfolios', { name: '키움 메인 계좌 (장기 투자용)', base_currency: 'KRW' });
    const b = await api(token, 'POST', '/api/portfolios', { name: 'US growth', base_currency: 'USD' });
    await api(token, 'POST', `/api/portfolios/${a.id}/transactions`, { kind: 'buy', trade_date: '2025-01-03', instrument_id: 'KRX:005930', quantity: '120', price: '53400', currency: 'KRW' });
    await api(token, 'POST', `/api/portfolios/${b.id}/transactions`, { kind: 'buy', trade_date: '2025-01-03', instrument_id: 'NASDAQ:AAPL', quantity: '15', price: '243.36', currency: 'USD' });
    await api(token, 'POST', `/api/portfolios/${a.id}/transactions`, { kind: 'buy', trade_date: '2025-01-06', instrument_id: 'NASDAQ:AAPL', quantity: '5', price: '245.00', currency: 'USD', fx_rate: '1470.5' });
    for (const locale of ['ko', 'en']) {
      for (const width of [360, 1280]) {
        const { page, errors } = await tab(token, { viewport: { width, height: width < 768 ? 740 : 900 }, locale });
        await page.goto(`${env.server.url}/`);
        await page.getByRole('list', { name: locale === 'ko' ? '내 포트폴리오' : 'My portfolios' }).waitFor();
        await page.screenshot({ path: path.join(dir, `home-${width}-${locale}.png`), fullPage: true });
        await page.goto(`${env.server.url}/stocks/NASDAQ:AAPL`);
        await page.getByRole('region', { name: locale === 'ko' ? '내 보유' : 'My position' }).waitFor();
        await page.getByRole('region', { name: locale === 'ko' ? '배당 내역' : 'Dividends' }).locator('table').waitFor();
        await page.screenshot({ path: path.join(dir, `stock-${width}-${locale}.png`), fullPage: true });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `nothing wider than the ${width} px screen (${overflow})`);
        await page.getByRole('button', { name: locale === 'ko' ? '거래 기록' : 'Record a trade' }).click();
        await page.screenshot({ path: path.join(dir, `stock-menu-${width}-${locale}.png`) });
        assertNoErrors(errors);
      }
    }
  });
});
