#!/usr/bin/env node
/**
 * Screenshots of Moat for review: home, settings, the account pages and the market
 * screens (search with results for 삼성, the stock pages of 삼성전자 and Apple, the
 * favourites list and its editor, the home of a member with favourites) at 360×740
 * (phone) and 1280×800 (desktop), in Korean and English, plus a few states (language
 * sheet, 404, KakaoTalk fallback), the member's portfolios with the 포트폴리오/배당 tabs, the
 * dividends, and 전체 (All). Full-page PNGs go to e2e/artifacts/ (gitignored) or
 * to `MOAT_E2E_ARTIFACTS`, with screenshots.json listing each file, the page's errors
 * and any horizontal overflow. In a full-page shot the phone's fixed bottom tab bar
 * appears where the first screen ends (at 740 px), over the content: that is how
 * full-page capture works, not a layout bug. Prices come from the simulator, so they
 * differ from run to run.
 *
 *   node screenshots.mjs                 # starts its own server
 *   MOAT_E2E_ARTIFACTS=/tmp/moat-shots node screenshots.mjs
 *   MOAT_E2E_URL=http://127.0.0.1:8080 node screenshots.mjs
 *   MOAT_E2E_ONLY='^settings' node screenshots.mjs   # only the shots whose name matches
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from './support/fixtures.mjs';
import { api as callApi } from './support/members.mjs';
import { AppPage } from './support/pages.mjs';

export const ARTIFACTS_DIR =
  process.env.MOAT_E2E_ARTIFACTS || path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts');

/** The screenshot member's favourites, in order. */
const FAVORITES = ['KRX:005930', 'NASDAQ:AAPL', 'KRX:000660', 'CRYPTO:BTC', 'INDEX:KOSPI'];
const stockUrl = (id) => `/stocks/${encodeURIComponent(id)}`;

export const VIEWPORTS = {
  phone: { width: 360, height: 740 },
  desktop: { width: 1280, height: 800 },
};
/** The narrowest phone the layout must fit without sideways scrolling (issue 17). */
export const NARROW = { width: 320, height: 640 };
/** `{portfolio}` in a shot's path: the screenshot member's portfolio. */
const PORTFOLIO = '{portfolio}';

const KAKAOTALK_UA = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36;KAKAOTALK 2410200';

/** Every screenshot: name → how to get there. */
function shots() {
  const list = [];
  for (const locale of ['ko', 'en']) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      list.push({ name: `home-${size}-${locale}`, path: '/', locale, viewport });
      list.push({ name: `settings-${size}-${locale}`, path: '/settings', locale, viewport });
      list.push({ name: `settings-member-${size}-${locale}`, path: '/settings', locale, viewport, member: true });
      list.push({ name: `login-${size}-${locale}`, path: '/login', locale, viewport });
      list.push({ name: `signup-${size}-${locale}`, path: '/signup', locale, viewport });
      list.push({ name: `account-${size}-${locale}`, path: '/settings/account', locale, viewport, member: true });
      list.push({ name: `search-${size}-${locale}`, path: `/search?q=${encodeURIComponent('삼성')}`, locale, viewport });
      list.push({ name: `stock-samsung-${size}-${locale}`, path: stockUrl('KRX:005930'), locale, viewport });
      list.push({ name: `stock-apple-${size}-${locale}`, path: stockUrl('NASDAQ:AAPL'), locale, viewport, member: true });
      list.push({ name: `favorites-${size}-${locale}`, path: '/favorites', locale, viewport, member: true });
      list.push({ name: `favorites-edit-${size}-${locale}`, path: '/favorites', locale, viewport, member: true, edit: true });
      list.push({ name: `home-member-${size}-${locale}`, path: '/', locale, viewport, member: true });
      list.push({ name: `portfolios-${size}-${locale}`, path: '/portfolios', locale, viewport, member: true });
      list.push({ name: `dividends-${size}-${locale}`, path: '/dividends', locale, viewport, member: true });
      list.push({ name: `portfolio-${size}-${locale}`, path: `/portfolios/${PORTFOLIO}`, locale, viewport, member: true });
      list.push({
        name: `trade-form-${size}-${locale}`,
        path: `/portfolios/${PORTFOLIO}/transactions/new?instrument=${encodeURIComponent('NASDAQ:AAPL')}`,
        locale,
        viewport,
        member: true,
      });
      list.push({ name: `stock-held-${size}-${locale}`, path: stockUrl('KRX:005930'), locale, viewport, member: true, held: true });
      list.push({ name: `all-menu-${size}-${locale}`, path: '/?menu=routeModalTrue', locale, viewport, fullPage: false });
    }
  }
  // At 320 px: the member's screens must fit without sideways scrolling.
  for (const [name, path] of [
    ['home-member', '/'],
    ['portfolio', `/portfolios/${PORTFOLIO}`],
    ['stock-held', stockUrl('KRX:005930')],
    ['settings', '/settings'],
  ]) {
    list.push({ name: `${name}-narrow-ko`, path, locale: 'ko', viewport: NARROW, member: true, held: name === 'stock-held' });
  }
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    list.push({ name: `language-sheet-${size}-ko`, path: '/settings?language=routeModalTrue', locale: 'ko', viewport, fullPage: false });
  }
  list.push({ name: 'not-found-phone-ko', path: '/no-such-page', locale: 'ko', viewport: VIEWPORTS.phone });
  list.push({ name: 'kakao-fallback-phone', path: '/', locale: 'ko', viewport: VIEWPORTS.phone, userAgent: KAKAOTALK_UA });
  return list;
}

/**
 * Takes every screenshot with `env` (from `launch()`); returns one record per file.
 * @returns {Promise<{ name: string, file: string, errors: object[], overflowX: number }[]>}
 */
export async function takeScreenshots(env, { outDir = ARTIFACTS_DIR } = {}) {
  await mkdir(outDir, { recursive: true });
  const results = [];
  const { token, portfolioId } = await memberToken(env.server.url);
  // One tab per viewport (and user agent), reused: shots differ by URL and stored language.
  const tabs = new Map();
  const tabFor = async (shot) => {
    const key = `${shot.viewport.width}x${shot.viewport.height} ${shot.userAgent ?? ''}`;
    if (!tabs.has(key)) {
      tabs.set(
        key,
        await env.newPage({
          viewport: shot.viewport,
          deviceScaleFactor: 1,
          ...(shot.userAgent ? { userAgent: shot.userAgent, isMobile: true, hasTouch: true } : {}),
        }),
      );
    }
    return tabs.get(key);
  };

  // MOAT_E2E_ONLY: only the shots whose name matches this regular expression.
  const only = process.env.MOAT_E2E_ONLY ? new RegExp(process.env.MOAT_E2E_ONLY) : null;
  for (const shot of shots().filter((s) => !only || only.test(s.name))) {
    const { page, errors } = await tabFor(shot);
    const errorsBefore = errors.length;
    if (shot.userAgent) {
      await page.goto(shot.path, { waitUntil: 'commit' });
      await page.getByTestId('kakao-fallback').waitFor();
    } else {
      // A blank document of the origin, to set the language before the page loads.
      if (!page.url().startsWith(env.server.url)) {
        await page.route('**/__e2e_blank', (route) =>
          route.fulfill({ contentType: 'text/html', body: '<!doctype html><link rel="icon" href="data:,">' }),
        );
        await page.goto('/__e2e_blank');
      }
      await page.evaluate(
        ([l, t]) => {
          localStorage.setItem('MOAT_LOCALE', l);
          if (t) localStorage.setItem('AUTH_TOKEN', t);
          else localStorage.removeItem('AUTH_TOKEN');
          // No favourites edit left over from an earlier shot.
          localStorage.removeItem('MOAT_FAVORITE_ASSETS_REORDER');
        },
        [shot.locale, shot.member ? token : null],
      );
      const app = new AppPage(page);
      await app.goto(shot.path.replace(PORTFOLIO, String(portfolioId)));
      if (shot.path === '/settings') await page.getByRole('button', { name: shot.locale === 'ko' ? '이용약관' : 'Terms of service' }).waitFor();
      if (shot.member && shot.path === '/settings/account') await page.getByTestId('account-nickname').waitFor();
      await marketLoaded(page, shot);
      if (shot.path.includes('menu=')) await page.getByTestId('modal-menu').waitFor();
      if (shot.path.includes('language=')) await app.languageDialog.waitFor();
      else await app.languageDialog.waitFor({ state: 'detached' });
    }
    await page.evaluate(() => document.fonts.ready);
    const overflowX = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const file = path.join(outDir, `${shot.name}.png`);
    await page.screenshot({ path: file, fullPage: shot.fullPage ?? true, animations: 'disabled', caret: 'hide' });
    results.push({ name: shot.name, file, errors: errors.slice(errorsBefore), overflowX });
  }
  await Promise.all([...tabs.values()].map(({ context }) => context.close()));
  await writeFile(path.join(outDir, 'screenshots.json'), `${JSON.stringify(results, null, 2)}\n`);
  return results;
}

/** Waits until a market screen shows its data (prices, results, a drawn chart). */
async function marketLoaded(page, shot) {
  const path = shot.path.split('?')[0];
  if (path === '/') {
    await page.getByTestId('index-card').first().waitFor();
    await page.getByTestId('movers').getByTestId('instrument-row').first().waitFor();
    if (shot.member) await page.getByTestId('home-favorites').getByTestId('row-price').first().waitFor();
    if (shot.member) await page.getByTestId('home-money-total').waitFor();
  } else if (path === '/search') {
    await page.getByTestId('search-option').first().waitFor();
  } else if (path.startsWith('/stocks/')) {
    await page.getByTestId('stock-price').waitFor();
    if (shot.member && !shot.held) await page.getByTestId('favorite-toggle').and(page.locator('[aria-pressed="true"]')).waitFor();
    if (shot.held) await page.getByTestId('stock-position').waitFor();
    await page.locator('[data-testid="stock-chart"] .chart__canvas-wrap:not(.chart__canvas-wrap--dimmed) canvas').first().waitFor();
    // lightweight-charts paints on the next animation frames.
    await page.waitForFunction(() => {
      const canvas = document.querySelector('[data-testid="stock-chart"] canvas');
      if (!canvas || !canvas.width) return false;
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
      return false;
    });
  } else if (path === '/portfolios') {
    await page.getByTestId('card-total').first().waitFor();
  } else if (/^\/portfolios\/[^/]+$/.test(path)) {
    await page.getByTestId('holding-name').first().waitFor();
    // The returns chart (lazy, drawn on a canvas) has painted.
    await page.waitForFunction(() => {
      const canvas = document.querySelector('.pf-chart__canvas canvas');
      if (!canvas || !canvas.width) return false;
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
      return false;
    });
  } else if (path.endsWith('/transactions/new')) {
    await page.getByTestId('picked-instrument').waitFor();
  } else if (path === '/dividends') {
    await page.getByTestId('dividend-calendar').waitFor();
    if (shot.member) await page.getByTestId('dividend-totals').waitFor();
  } else if (path === '/favorites') {
    await page.locator('#main [data-testid="instrument-row"] [data-testid="row-price"]').first().waitFor();
    if (shot.edit) {
      await page.getByTestId('favorites-edit').click();
      await page.getByTestId('favorites-editor').waitFor();
    }
  }
}

/** A member for the pages that need one (signed up once per server), with favourites. */
async function memberToken(url) {
  const email = 'screenshots@example.com';
  const password = 'screenshots password 1';
  const post = (route, body) =>
    fetch(`${url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let response = await post('/api/auth/signup', { email, password, nickname: '개미투자자' });
  if (response.status === 409) response = await post('/api/auth/login', { email, password });
  if (!response.ok) throw new Error(`cannot get a member for screenshots: HTTP ${response.status}`);
  const { token } = await response.json();
  const saved = await fetch(`${url}/api/me/favorites`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ids: FAVORITES }),
  });
  if (!saved.ok) throw new Error(`cannot save the screenshot member's favourites: HTTP ${saved.status}`);
  // A portfolio, so that home shows the member's money and the portfolio screens have figures.
  const api = (method, route, body) => callApi({ url }, token, method, route, body);
  const existing = (await api('GET', '/api/portfolios')).portfolios;
  if (existing.length > 0) return { token, portfolioId: existing[0].portfolio.id };
  {
    const day = (daysAgo) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const main = await api('POST', '/api/portfolios', { name: '키움 메인', base_currency: 'KRW', broker: '키움증권' });
    const tx = (body) => api('POST', `/api/portfolios/${main.id}/transactions`, { currency: 'KRW', quantity: '1', ...body });
    await tx({ kind: 'deposit', trade_date: day(200), price: '20000000' });
    await tx({ kind: 'buy', trade_date: day(190), instrument_id: 'KRX:005930', quantity: '120', price: '56000' });
    await tx({ kind: 'buy', trade_date: day(120), instrument_id: 'KRX:000660', quantity: '30', price: '175000' });
    // A long English name, to see it whole in the holdings.
    await tx({ kind: 'buy', trade_date: day(60), instrument_id: 'NASDAQ:JEPQ', quantity: '20', price: '52.10', currency: 'USD', fx_rate: '1380' });
    return { token, portfolioId: main.id };
  }
}

// Run as a script.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const given = process.env.MOAT_E2E_URL;
  const env = await launch(
    given
      ? { server: { url: given.replace(/\/$/, ''), stop: async () => {} } }
      : { serverEnv: { MOAT_CONTACT_EMAIL: 'help@moat.example' } },
  );
  try {
    const results = await takeScreenshots(env);
    for (const r of results) {
      const notes = [r.errors.length ? `${r.errors.length} error(s)` : '', r.overflowX > 0 ? `overflows by ${r.overflowX}px` : '']
        .filter(Boolean)
        .join(', ');
      console.log(`${path.relative(process.cwd(), r.file)}${notes ? `  — ${notes}` : ''}`);
    }
  } finally {
    await env.close();
  }
}
