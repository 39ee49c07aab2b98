/**
 * Portfolios and dividends against the real server (docs/portfolio.md), in Chromium:
 * create a portfolio, record a buy through the form with the instrument search, see the
 * holding and its cost to the won, lock every amount (and keep it locked over a reload),
 * a double tap and a retry after a lost answer recording one transaction (Idempotency-Key),
 * the returns chart in per cent beside its benchmark, import a CSV with a bad row (named,
 * nothing applied), and the dividend calendar with a one-tap entitlement.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { api as callApi, newMember as signUpMember } from '../support/members.mjs';

const PASSWORD = 'portfolio e2e password 1';

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

/** Signs a fresh member up through the API; returns the token. */
const newMember = async () => (await signUpMember(env.server, { prefix: 'pf', password: PASSWORD })).token;
const api = (token, method, path, body) => callApi(env.server, token, method, path, body);

async function tab(token, viewport = { width: 360, height: 740 }) {
  const { page, context, errors } = await env.newPage({ viewport });
  const foreign = [];
  const origin = new URL(env.server.url).origin;
  context.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  await context.addInitScript((t) => localStorage.setItem('AUTH_TOKEN', t), token);
  return { page, errors, foreign };
}

describe('portfolios', () => {
  test('create, record a buy through the form, see the holding, lock amounts across a reload', async () => {
    const token = await newMember();
    const { page, errors, foreign } = await tab(token);
    await page.goto(`${env.server.url}/portfolios`);
    // The list (with the meta portfolio) has loaded before the form is opened.
    await page.getByTestId('portfolio-cards').waitFor();
    // With no portfolio yet the form is open already.
    if (await page.getByTestId('create-open').isVisible()) await page.getByTestId('create-open').click();
    const form = page.getByTestId('create-form');
    await form.locator('input[name="name"]').fill('키움 메인');
    await page.getByTestId('create-submit').click();
    const card = page.getByTestId('portfolio-card').filter({ hasText: '키움 메인' });
    await card.first().waitFor();
    const [portfolio] = (await api(token, 'GET', '/api/portfolios')).portfolios;
    await api(token, 'POST', `/api/portfolios/${portfolio.portfolio.id}/transactions`, {
      kind: 'deposit', trade_date: '2025-01-02', quantity: '1', price: '5000000', currency: 'KRW',
    });

    // The form: a buy of Samsung Electronics found by its initial consonants.
    await page.goto(`${env.server.url}/portfolios/${portfolio.portfolio.id}/transactions/new`);
    await page.getByTestId('kind-buy').check();
    await page.getByTestId('field-trade_date').fill('2025-01-03');
    await page.getByTestId('instrument-input').fill('ㅅㅅㅈㅈ');
    await page.getByTestId('instrument-option').first().waitFor();
    await page.keyboard.press('Enter');
    await page.getByTestId('picked-instrument').waitFor();
    await page.getByTestId('field-quantity').fill('10');
    await page.getByTestId('field-price').fill('53400');
    await page.getByTestId('field-fee').fill('800');
    await page.getByTestId('transaction-submit').click();

    // Back on the detail page: the holding and its cost, exactly.
    await page.getByTestId('portfolio-detail-page').waitFor();
    await eventually(async () => assert.match(await page.getByTestId('holdings').innerText(), /삼성전자/));
    const valuation = await api(token, 'GET', `/api/portfolios/${portfolio.portfolio.id}/valuation`);
    assert.equal(valuation.holdings[0].quantity, '10');
    assert.equal(valuation.holdings[0].cost_basis, '534800');
    assert.equal(valuation.totals.cash, '4465200');
    assert.match(await page.getByTestId('summary-cash').innerText(), /₩4,465,200/);

    // The lock hides every amount and keeps percentages, also after a reload.
    await page.getByTestId('lock-toggle').click();
    await eventually(async () => assert.equal(await page.getByTestId('summary-cash').getAttribute('data-masked'), 'true'));
    assert.doesNotMatch(await page.getByTestId('summary').innerText(), /₩\d/);
    assert.match(await page.getByTestId('summary-return').innerText(), /%/);
    await page.reload();
    await page.getByTestId('summary').waitFor();
    await eventually(async () => assert.equal(await page.getByTestId('summary-cash').getAttribute('data-masked'), 'true'));
    assert.doesNotMatch(await page.getByTestId('holdings').innerText(), /₩\d/);
    assert.deepEqual(foreign, [], 'no request leaves for another host');
    assertNoErrors(errors);
  });

  test('a double tap on save records one transaction; so does a retry after the answer was lost', async () => {
    const token = await newMember();
    const created = await api(token, 'POST', '/api/portfolios', { name: 'Taps', base_currency: 'KRW' });
    const { page, errors } = await tab(token);
    const transactions = () => api(token, 'GET', `/api/portfolios/${created.id}/transactions`);
    const deposit = async (amount) => {
      await page.goto(`${env.server.url}/portfolios/${created.id}/transactions/new`);
      await page.getByTestId('kind-deposit').check();
      await page.getByTestId('field-trade_date').fill('2025-01-02');
      await page.getByTestId('field-price').fill(amount);
    };

    // A double tap: two clicks as fast as the browser delivers them.
    await deposit('1000000');
    await page.getByTestId('transaction-submit').dblclick();
    await page.getByTestId('portfolio-detail-page').waitFor();
    assert.equal((await transactions()).length, 1);

    // The server records the next one, but its answer never reaches the page (a dropped
    // mobile connection): the member saves again, with the same key, and gets the first answer.
    const keys = [];
    let drop = true;
    await page.route(`**/api/portfolios/${created.id}/transactions`, async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(await route.request().headerValue('idempotency-key'));
      if (!drop) return route.continue();
      drop = false;
      await route.fetch();
      return route.abort('failed');
    });
    await deposit('500000');
    await page.getByTestId('transaction-submit').click();
    await eventually(async () => assert.match(await page.getByTestId('form-message').innerText(), /다시 저장/));
    assert.equal((await transactions()).length, 2, 'the first send was recorded');
    await page.getByTestId('transaction-submit').click();
    await page.getByTestId('portfolio-detail-page').waitFor();
    assert.equal(keys.length, 2);
    assert.equal(keys[1], keys[0], 'the retry carries the same Idempotency-Key');
    assert.deepEqual((await transactions()).map((t) => t.price), ['1000000', '500000']);
    // The aborted request is reported by the browser; nothing else went wrong.
    assertNoErrors(errors, { ignore: [/Failed to load resource/] });
  });

  test('the returns chart compares the cumulative return with the benchmark in per cent', async () => {
    const token = await newMember();
    const created = await api(token, 'POST', '/api/portfolios', { name: 'Returns', base_currency: 'KRW' });
    const day = (daysAgo) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
      kind: 'deposit', trade_date: day(400), quantity: '1', price: '10000000', currency: 'KRW',
    });
    await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
      kind: 'buy', trade_date: day(399), instrument_id: 'KRX:005930', quantity: '100', price: '53400', currency: 'KRW',
    });
    const performance = await api(token, 'GET', `/api/portfolios/${created.id}/performance`);
    const all = performance.periods.find((p) => p.period === 'ALL');
    const lastBenchmark = performance.points.at(-1).benchmark_return;
    assert.ok(lastBenchmark !== null && Number(lastBenchmark) !== 0, 'the index moved over 400 days');

    const { page, errors } = await tab(token, { width: 1280, height: 900 });
    await page.goto(`${env.server.url}/portfolios/${created.id}`);
    const chart = page.getByTestId('return-chart');
    await chart.locator('canvas').first().waitFor();
    // Since inception: each line's return, signed, in per cent; the portfolio's is the period's TWR.
    const signed = (value) => `${Number(value) > 0 ? '+' : ''}${new Intl.NumberFormat('ko-KR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(value))}%`;
    const legend = page.getByTestId('chart-legend');
    await eventually(async () => assert.equal(await page.getByTestId('legend-portfolio').innerText(), `내 포트폴리오 ${signed(all.twr)}`));
    // Today's index point is the live (simulated) quote, which moves between the API call
    // above and the page's own request: the same figure within a few hundredths of a point.
    const benchmarkText = await page.getByTestId('legend-benchmark').innerText();
    assert.match(benchmarkText, /^코스피 [+-]?\d+\.\d{2}%$/);
    const shown = Number(benchmarkText.replace(/^코스피 /, '').replace('%', '').replace(/,/g, ''));
    assert.ok(Math.abs(shown - Number(lastBenchmark)) < 0.1, `${benchmarkText} vs ${lastBenchmark}`);
    assert.equal(Math.sign(shown), Math.sign(Number(lastBenchmark)), 'the sign is the same');
    assert.match(await legend.innerText(), /0%로 맞춘 누적 수익률/);
    // A shorter period: both lines start again from 0, the portfolio's ending at that period's TWR.
    const month = performance.periods.find((p) => p.period === '1M');
    await page.getByTestId('period-1M').click();
    await eventually(async () => assert.equal(await page.getByTestId('legend-portfolio').innerText(), `내 포트폴리오 ${signed(month.twr)}`));
    assert.match(await page.getByTestId('legend-benchmark').innerText(), /^코스피 [+-]?\d+\.\d{2}%$/);
    assertNoErrors(errors);
  });

  test('an import with a bad row names it and applies nothing', async () => {
    const token = await newMember();
    const created = await api(token, 'POST', '/api/portfolios', { name: 'Import', base_currency: 'KRW' });
    const { page, errors } = await tab(token, { width: 1280, height: 900 });
    await page.goto(`${env.server.url}/portfolios/${created.id}/import`);
    const csv = '일자,종류,종목,수량,단가,통화\n2025-01-02,입금,,1,1000000,KRW\n2025-01-03,매수,005930,abc,53400,KRW\n';
    await page.getByTestId('file-input').setInputFiles({ name: 'trades.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const error = page.getByTestId('import-error');
    await error.first().waitFor();
    assert.equal(await error.count(), 1);
    assert.match(await error.first().innerText(), /3/);
    assert.equal(await page.getByTestId('import-apply').isDisabled(), true);
    assert.deepEqual(await api(token, 'GET', `/api/portfolios/${created.id}/transactions`), []);
    assertNoErrors(errors);
  });

  test('the dividend calendar and a one-tap entitlement', async () => {
    const token = await newMember();
    const created = await api(token, 'POST', '/api/portfolios', { name: 'Dividends', base_currency: 'KRW' });
    const bought = new Date(Date.now() - 400 * 86_400_000).toISOString().slice(0, 10);
    await api(token, 'POST', `/api/portfolios/${created.id}/transactions`, {
      kind: 'buy', trade_date: bought, instrument_id: 'KRX:005930', quantity: '100', price: '53400', currency: 'KRW',
    });
    const before = await api(token, 'GET', '/api/me/dividends');
    assert.ok(before.entitlements.length > 0);
    const { page, errors } = await tab(token, { width: 1280, height: 900 });
    await page.goto(`${env.server.url}/dividends`);
    const record = page.getByRole('button', { name: /기록/ }).first();
    await record.waitFor();
    await record.click();
    await eventually(async () => {
      const after = await api(token, 'GET', '/api/me/dividends');
      assert.equal(after.entitlements.length, before.entitlements.length - 1);
      assert.equal(after.received.length, 1);
    });
    assertNoErrors(errors);
  });
});
