/**
 * The market screens against the real server and its price simulator (docs/market.md):
 * search by Korean initial consonants and the keyboard, the stock page (price, simulated
 * badge, chart ranges and modes), recently viewed stocks, favourites (log-in for
 * visitors; starring, reordering by keyboard and by mouse, an edit surviving a reload,
 * saving), live quotes over the stream, and no request to any other host.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { newMember as signUpMember } from '../support/members.mjs';
import { AppPage } from '../support/pages.mjs';

const SAMSUNG = 'KRX:005930';
const APPLE = 'NASDAQ:AAPL';
const HYNIX = 'KRX:000660';
const BITCOIN = 'CRYPTO:BTC';
const PASSWORD = 'market e2e password 1';
/** How long a simulated price may take to move (the simulator ticks every 2 s). */
const LIVE_TIMEOUT_MS = 10_000;

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

/** Signs a fresh member up through the API; returns `{ email, nickname, token }`. */
const newMember = () => signUpMember(env.server, { prefix: 'mkt', password: PASSWORD });

/** The member's favourites as the server has them (ids, in order). */
async function savedFavorites(token) {
  const response = await fetch(`${env.server.url}/api/me/favorites`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  return (await response.json()).map((i) => i.id);
}

/**
 * A tab (each in its own context, so its own storage) that records every URL it asks
 * for — documents, scripts, fetches, images, fonts and WebSockets — and, with `token`,
 * is logged in (the token is put in storage before every page load).
 */
async function tab({ token, viewport = { width: 360, height: 740 } } = {}) {
  const { page, context, errors } = await env.newPage({ viewport });
  const requests = [];
  context.on('request', (request) => requests.push(request.url()));
  page.on('websocket', (socket) => requests.push(socket.url()));
  if (token) await context.addInitScript((t) => localStorage.setItem('AUTH_TOKEN', t), token);
  return { page, context, errors, requests, app: new AppPage(page) };
}

/** Every request went to this server: 127.0.0.1 or localhost (inline `data:`/`blob:` URLs aside). */
function assertLocalOnly(requests) {
  assert.ok(requests.length > 0, 'requests were recorded');
  const foreign = requests.filter((raw) => {
    const url = new URL(raw);
    if (['data:', 'blob:', 'about:'].includes(url.protocol)) return false;
    return !['127.0.0.1', 'localhost'].includes(url.hostname);
  });
  assert.deepEqual(foreign, [], 'requests left for another host');
}

const stockUrl = (id) => `/stocks/${encodeURIComponent(id)}`;

/**
 * Presses the star of the open stock page and waits until the server has the new list
 * (the star fills at once, before the save lands; a full page load right after it
 * would cancel the save).
 */
async function pressStar(page) {
  const star = page.getByTestId('favorite-toggle');
  await eventually(async () => assert.equal(await star.isEnabled(), true));
  const before = await star.getAttribute('aria-pressed');
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me/favorites' && r.request().method() === 'PUT');
  await star.click();
  assert.equal((await saved).status(), 200);
  await eventually(async () => assert.equal(await star.getAttribute('aria-pressed'), before === 'true' ? 'false' : 'true'));
}
/** The page's path with `%3A` read as `:` (the app writes the id's colon encoded). */
const decodedPath = (page) => decodeURIComponent(new URL(page.url()).pathname);
const storedJson = (page, key) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null'), key);

/**
 * A fingerprint of what the chart's canvases show, and how many pixels of the largest
 * are painted (lightweight-charts draws the series, grid and scales into `<canvas>`).
 */
function chartPixels(page) {
  return page.evaluate(() => {
    const canvases = [...document.querySelectorAll('[data-testid="stock-chart"] canvas')].filter((c) => c.width > 0 && c.height > 0);
    const largest = canvases.reduce((a, c) => (!a || c.width * c.height > a.width * a.height ? c : a), undefined);
    let painted = 0;
    if (largest) {
      const { data } = largest.getContext('2d').getImageData(0, 0, largest.width, largest.height);
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted += 1;
    }
    return { count: canvases.length, painted, fingerprint: canvases.map((c) => c.toDataURL()).join('|') };
  });
}

/** Waits until the chart shows settled data (not the previous range's, dimmed) and has painted. */
async function chartSettled(page) {
  await page.locator('[data-testid="stock-chart"] .chart__canvas-wrap:not(.chart__canvas-wrap--dimmed)').waitFor();
  return eventually(async () => {
    const pixels = await chartPixels(page);
    assert.ok(pixels.count > 0, 'the chart has a canvas');
    assert.ok(pixels.painted > 1000, `the chart is drawn (${pixels.painted} painted pixels)`);
    return pixels;
  });
}

describe('market', () => {
  test('search: ㅅㅅㅈㅈ finds 삼성전자 first; ↓ and Enter open its page', async () => {
    const { page, errors, requests, app } = await tab();
    await app.goto('/search');
    const input = page.getByTestId('search-input');
    await eventually(async () => assert.ok(await input.evaluate((el) => el === document.activeElement), 'the box has the focus'));
    await page.keyboard.type('ㅅㅅㅈㅈ');

    const first = page.getByTestId('search-option').first();
    await eventually(async () => assert.match(await first.innerText(), /삼성전자/));
    assert.match(await first.innerText(), /005930/);
    await eventually(() => assert.equal(new URL(page.url()).searchParams.get('q'), 'ㅅㅅㅈㅈ'));

    await page.keyboard.press('ArrowDown');
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    assert.equal(await input.getAttribute('aria-activedescendant'), await first.getAttribute('id'));
    await page.keyboard.press('Enter');
    await eventually(() => assert.equal(decodedPath(page), `/stocks/${SAMSUNG}`));
    await app.ready();
    assert.equal(await page.locator('#main h1').innerText(), '삼성전자');

    // Back returns to the query and its results.
    await page.goBack();
    await page.getByTestId('search-option').first().waitFor();
    assert.equal(await input.inputValue(), 'ㅅㅅㅈㅈ');
    assertLocalOnly(requests);
    assertNoErrors(errors);
  });

  test('stock page: price, simulated badge, a drawn chart, 1Y range in the address, candles', async () => {
    const { page, errors, requests, app } = await tab({ viewport: { width: 1280, height: 900 } });
    await app.goto(stockUrl(SAMSUNG));
    const price = page.getByTestId('stock-price');
    assert.match(await price.innerText(), /^₩\d{1,3}(,\d{3})+$/, 'a whole-won price');
    const head = page.locator('.stock-head');
    assert.equal(await head.locator('.market-badge--simulated').innerText(), '시뮬레이션 데이터');
    assert.match(await page.title(), /삼성전자 \(005930\)/);

    const line = await chartSettled(page);
    const rangeButton = page.getByTestId('range-1Y');
    assert.equal(await rangeButton.getAttribute('aria-pressed'), 'false');
    const oneYear = page.waitForResponse((r) => r.url().includes('/candles?range=1Y') && r.status() === 200);
    await rangeButton.click();
    await oneYear;
    await eventually(() => assert.equal(new URL(page.url()).searchParams.get('range'), '1Y'));
    assert.equal(await rangeButton.getAttribute('aria-pressed'), 'true');
    const year = await eventually(async () => {
      const pixels = await chartSettled(page);
      assert.notEqual(pixels.fingerprint, line.fingerprint, 'the chart was drawn again with the year');
      return pixels;
    });

    const modes = page.getByRole('group', { name: '차트 종류' });
    const candle = modes.getByRole('button', { name: '캔들' });
    const lineButton = modes.getByRole('button', { name: '라인' });
    assert.equal(await lineButton.getAttribute('aria-pressed'), 'true');
    await candle.click();
    assert.equal(await candle.getAttribute('aria-pressed'), 'true');
    assert.equal(await lineButton.getAttribute('aria-pressed'), 'false');
    await eventually(async () => {
      const pixels = await chartSettled(page);
      assert.notEqual(pixels.fingerprint, year.fingerprint, 'candles are drawn instead of the line');
    });

    // The range survives a reload (it is in the address); the mode is the page's own.
    await page.reload();
    await app.ready();
    assert.equal(await page.getByTestId('range-1Y').getAttribute('aria-pressed'), 'true');
    await chartSettled(page);
    assertLocalOnly(requests);
    assertNoErrors(errors);
  });

  test('recently viewed: two stocks visited are listed newest first in an empty search', async () => {
    const { page, errors, requests, app } = await tab();
    await app.goto(stockUrl(SAMSUNG));
    await page.getByTestId('stock-price').waitFor();
    await app.goto(stockUrl(APPLE));
    await page.getByTestId('stock-price').waitFor();
    await eventually(async () => assert.deepEqual(await storedJson(page, 'MOAT_RECENT_STOCKS_2'), [APPLE, SAMSUNG]));

    await app.goto('/search');
    assert.equal(await page.getByTestId('search-input').inputValue(), '');
    await page.getByRole('heading', { name: '최근 본 종목' }).waitFor();
    const options = page.getByTestId('search-option');
    await eventually(async () => {
      const texts = await options.allInnerTexts();
      assert.equal(texts.length, 2);
      assert.match(texts[0], /애플/);
      assert.match(texts[1], /삼성전자/);
    });

    // Visiting the older one again puts it first.
    await options.nth(1).click();
    await eventually(() => assert.equal(decodedPath(page), `/stocks/${SAMSUNG}`));
    await app.ready();
    await eventually(async () => assert.deepEqual(await storedJson(page, 'MOAT_RECENT_STOCKS_2'), [SAMSUNG, APPLE]));
    assertLocalOnly(requests);
    assertNoErrors(errors);
  });

  test('favourites: a visitor pressing the star is sent to log in and comes back to the stock', async () => {
    const member = await newMember();
    const { page, errors, requests, app } = await tab();
    await app.goto(`${stockUrl(SAMSUNG)}?range=1M`);
    await page.getByTestId('favorite-login').click();
    await eventually(() => {
      const url = new URL(page.url());
      assert.equal(url.pathname, '/login');
      assert.equal(url.searchParams.get('next'), `${stockUrl(SAMSUNG)}?range=1M`);
    });
    const form = page.getByTestId('login-form');
    await form.locator('input[name="email"]').fill(member.email);
    await form.locator('input[name="password"]').fill(PASSWORD);
    await page.getByTestId('login-submit').click();

    await eventually(() => assert.equal(decodedPath(page), `/stocks/${SAMSUNG}`));
    assert.equal(new URL(page.url()).searchParams.get('range'), '1M');
    const star = page.getByTestId('favorite-toggle');
    await eventually(async () => assert.equal(await star.isEnabled(), true));
    assert.equal(await star.getAttribute('aria-pressed'), 'false');
    await pressStar(page);
    assert.equal(await star.getAttribute('aria-pressed'), 'true');
    assert.deepEqual(await savedFavorites(member.token), [SAMSUNG]);
    assertLocalOnly(requests);
    assertNoErrors(errors);
  });

  test('favourites: a member stars stocks, reorders by keyboard and by mouse, an edit survives a reload, and saving keeps the order', async () => {
    const member = await newMember();
    const { page, errors, requests, app } = await tab({ token: member.token, viewport: { width: 1280, height: 900 } });

    for (const id of [SAMSUNG, APPLE, HYNIX]) {
      await app.goto(stockUrl(id));
      await pressStar(page);
    }
    assert.deepEqual(await savedFavorites(member.token), [SAMSUNG, APPLE, HYNIX]);

    await app.goto('/favorites');
    const rows = page.getByTestId('favorite-edit-row');
    const order = () => rows.evaluateAll((els) => els.map((el) => el.dataset.id));
    const pending = () => storedJson(page, 'MOAT_FAVORITE_ASSETS_REORDER');
    await page.getByTestId('favorites-edit').click();
    await eventually(async () => assert.deepEqual(await order(), [SAMSUNG, APPLE, HYNIX]));
    assert.deepEqual(await pending(), [SAMSUNG, APPLE, HYNIX]);

    // Keyboard: Alt+↓ on the first row's handle moves it down; the focus moves with it.
    await rows.nth(0).getByTestId('drag-handle').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await eventually(async () => assert.deepEqual(await order(), [APPLE, SAMSUNG, HYNIX]));
    assert.deepEqual(await pending(), [APPLE, SAMSUNG, HYNIX]);
    assert.equal(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.id), SAMSUNG);
    assert.match(await page.getByTestId('reorder-announcement').innerText(), /삼성전자: 3개 중 2번째/);

    // A reload in the middle of the edit resumes it.
    await page.reload();
    await app.ready();
    await eventually(async () => assert.deepEqual(await order(), [APPLE, SAMSUNG, HYNIX]));
    assert.equal(await page.getByTestId('favorites-save').isVisible(), true);
    await page.getByTestId('toast').filter({ hasText: '저장하지 않은 편집을 이어서 합니다' }).waitFor();
    assert.deepEqual(await savedFavorites(member.token), [SAMSUNG, APPLE, HYNIX], 'nothing is saved yet');

    // Mouse: drag the last row by its handle above the first.
    const handle = rows.nth(2).getByTestId('drag-handle');
    const from = await handle.boundingBox();
    const top = await rows.nth(0).boundingBox();
    assert.ok(from && top);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, top.y + 4, { steps: 12 });
    await page.locator('.fav-edit--dragging').waitFor();
    await page.mouse.up();
    await eventually(async () => assert.deepEqual(await order(), [HYNIX, APPLE, SAMSUNG]));
    assert.deepEqual(await pending(), [HYNIX, APPLE, SAMSUNG]);

    await page.getByTestId('favorites-save').click();
    await page.getByTestId('toast').filter({ hasText: '관심 종목 순서를 저장했습니다' }).waitFor();
    await eventually(async () => assert.equal(await pending(), null, 'the pending order is removed once saved'));
    assert.deepEqual(await savedFavorites(member.token), [HYNIX, APPLE, SAMSUNG]);
    // The list (no longer editing) shows the saved order.
    await page.getByTestId('favorites-edit').waitFor();
    const listed = await page.locator('#main [data-testid="instrument-row"]').evaluateAll((els) => els.map((el) => el.dataset.id));
    assert.deepEqual(listed, [HYNIX, APPLE, SAMSUNG]);
    assertLocalOnly(requests);
    assertNoErrors(errors);
  });

  test('live quotes: the bitcoin price moves without a reload', async () => {
    const { page, errors, requests, app } = await tab();
    const sockets = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await app.goto(stockUrl(BITCOIN));
    const price = page.getByTestId('stock-price');
    const first = await price.innerText();
    assert.match(first, /\d/);
    await page.evaluate(() => {
      window.__moatSamePage = true;
    });
    await eventually(async () => assert.notEqual(await price.innerText(), first, 'the price changed'), {
      timeout: LIVE_TIMEOUT_MS,
      interval: 100,
    });
    assert.equal(await page.evaluate(() => window.__moatSamePage), true, 'the page was not reloaded');
    assert.equal(sockets.filter((url) => new URL(url).pathname === '/api/stream').length, 1, 'one stream socket per tab');
    assertLocalOnly(requests);
    assertNoErrors(errors);
  });

  test('no request leaves for another host on any market screen', async () => {
    const member = await newMember();
    const { page, errors, requests, app } = await tab({ token: member.token, viewport: { width: 1280, height: 900 } });
    await app.goto('/');
    await page.getByTestId('index-card').first().waitFor();
    await page.getByTestId('movers').getByTestId('instrument-row').first().waitFor();
    await app.goto('/search?q=%EC%82%BC%EC%84%B1');
    await page.getByTestId('search-option').first().waitFor();
    for (const id of [SAMSUNG, APPLE, 'INDEX:KOSPI', 'FX:USDKRW', BITCOIN]) {
      await app.goto(stockUrl(id));
      await chartSettled(page);
    }
    await pressStar(page);
    await app.goto('/favorites');
    await page.locator('#main [data-testid="instrument-row"] [data-testid="row-price"]').first().waitFor();
    await app.goto('/settings');
    assertLocalOnly(requests);
    const hosts = new Set(requests.map((r) => new URL(r).host));
    assert.deepEqual([...hosts], [new URL(env.server.url).host]);
    assertNoErrors(errors);
  });
});
