#!/usr/bin/env node
/**
 * Screenshots of the portfolio screens issue 14 changed, for review: the returns section
 * (cumulative return against KOSPI, since inception and 1M; also in dark mode), the
 * banner of a broken ledger with the list's warning, and the CSV import preview (a
 * summary, the first rows, errors), at 360 px and 1280 px, in Korean and English.
 *
 * A broken ledger cannot be written through the API (every write is checked), so one is
 * made as old data would have left it: a sell's quantity raised in the SQLite file with
 * the `sqlite3` command-line tool, and the portfolio's revision bumped so the server's
 * cache sees the change. Prices come from the simulator, so figures differ run to run.
 *
 *   MOAT_E2E_ARTIFACTS=/tmp/shots node screenshots-portfolio.mjs
 */
import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { launch } from './support/fixtures.mjs';
import { api as callApi } from './support/members.mjs';
import { ARTIFACTS_DIR, VIEWPORTS } from './screenshots.mjs';

const day = (daysAgo) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

const call = (url, token, method, route, body) => callApi({ url }, token, method, route, body);

/** A member with a sound portfolio (with history) and one whose ledger is broken. */
async function seed(server) {
  const { token } = await call(server.url, null, 'POST', '/api/auth/signup', {
    email: 'pf-shots@example.com',
    password: 'portfolio screenshots 1',
    nickname: '가치투자자',
  });
  const api = (method, route, body) => call(server.url, token, method, route, body);
  const main = await api('POST', '/api/portfolios', { name: '키움 메인', base_currency: 'KRW', broker: '키움증권' });
  const tx = (body) => api('POST', `/api/portfolios/${main.id}/transactions`, { currency: 'KRW', quantity: '1', ...body });
  await tx({ kind: 'deposit', trade_date: day(420), price: '20000000' });
  await tx({ kind: 'buy', trade_date: day(418), instrument_id: 'KRX:005930', quantity: '120', price: '56000' });
  await tx({ kind: 'buy', trade_date: day(300), instrument_id: 'KRX:000660', quantity: '30', price: '175000' });
  await tx({ kind: 'deposit', trade_date: day(200), price: '10000000' });
  await tx({ kind: 'buy', trade_date: day(199), instrument_id: 'KRX:035420', quantity: '40', price: '182000' });
  await tx({ kind: 'sell', trade_date: day(40), instrument_id: 'KRX:000660', quantity: '10', price: '190000' });

  const old = await api('POST', '/api/portfolios', { name: '옛 계좌', base_currency: 'KRW' });
  const otx = (body) => api('POST', `/api/portfolios/${old.id}/transactions`, { currency: 'KRW', quantity: '1', ...body });
  await otx({ kind: 'deposit', trade_date: day(500), price: '5000000' });
  await otx({ kind: 'buy', trade_date: day(490), instrument_id: 'KRX:005930', quantity: '50', price: '60000' });
  const sell = await otx({ kind: 'sell', trade_date: day(60), instrument_id: 'KRX:005930', quantity: '30', price: '70000' });
  // What a past bug left behind: the sell of more than was held.
  const db = path.join(server.dataDir, 'moat.db');
  execFileSync('sqlite3', [
    db,
    `PRAGMA busy_timeout = 5000;
     UPDATE transactions SET quantity = '80' WHERE id = ${sell.id};
     UPDATE portfolios SET revision = revision + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ${old.id};`,
  ]);
  return { token, main, old };
}

/** Waits until lightweight-charts has painted something on the section's canvas. */
async function chartPainted(page) {
  await page.locator('[data-testid="return-chart"] canvas').first().waitFor();
  await page.waitForFunction(() => {
    const canvas = document.querySelector('[data-testid="return-chart"] canvas');
    if (!canvas || !canvas.width) return false;
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
    return false;
  });
}

const CSV = [
  '일자,종류,종목,수량,단가,통화,메모',
  `${day(30)},입금,,1,3000000,KRW,`,
  `${day(29)},매수,005930,20,71000,KRW,`,
  `${day(28)},매수,000660,abc,190000,KRW,`,
  `${day(27)},매수,XX,1,1000,KRW,`,
  `${day(26)},매도,035420,5,185000,KRW,`,
  `${day(25)},배당,005930,20,361,KRW,`,
].join('\n');

/** A CSV of `n` deposits, one a day back from yesterday. */
const deposits = (n) => ['date,type,quantity,price,currency', ...Array.from({ length: n }, (_, i) => `${day(i + 1)},deposit,1,${10000 + i},KRW`)].join('\n');

export async function takePortfolioScreenshots(env, { outDir = ARTIFACTS_DIR } = {}) {
  await mkdir(outDir, { recursive: true });
  const { token, main, old } = await seed(env.server);
  const files = [];
  // Section shots without the shell's sticky header and fixed tab bar over them (set
  // through the CSSOM: the app's CSP refuses inline style sheets).
  const unpinShell = async (page) => {
    await page.locator('.shell__header').waitFor();
    await page.evaluate(() => {
      document.querySelector('.shell__header')?.style.setProperty('position', 'static', 'important');
      document.querySelector('.shell__nav')?.style.setProperty('visibility', 'hidden', 'important');
    });
  };
  const shoot = async (locator, name) => {
    const file = path.join(outDir, `${name}.png`);
    await locator.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
    files.push(file);
  };
  for (const locale of ['ko', 'en']) {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      for (const colorScheme of size === 'phone' ? ['light', 'dark'] : ['light']) {
        const { page, context } = await env.newPage({ viewport, deviceScaleFactor: 1, colorScheme });
        await context.addInitScript(
          ([t, l]) => {
            localStorage.setItem('AUTH_TOKEN', t);
            localStorage.setItem('MOAT_LOCALE', l);
          },
          [token, locale],
        );
        const suffix = `${size}-${locale}${colorScheme === 'dark' ? '-dark' : ''}`;
        // The returns, since inception and over one month.
        await page.goto(`/portfolios/${main.id}`);
        await unpinShell(page);
        const performance = page.getByTestId('performance');
        await performance.scrollIntoViewIfNeeded();
        await chartPainted(page);
        await page.evaluate(() => document.fonts.ready);
        await shoot(performance, `performance-all-${suffix}`);
        if (colorScheme === 'dark') {
          await context.close();
          continue;
        }
        await page.getByTestId('period-1M').click();
        await chartPainted(page);
        await shoot(performance, `performance-1m-${suffix}`);

        // The broken ledger: its banner, the list's cards.
        await page.goto(`/portfolios/${old.id}`);
        await page.getByTestId('ledger-issue').filter({ hasText: /80/ }).waitFor();
        await page.getByTestId('summary').waitFor();
        await page.evaluate(() => window.scrollTo(0, 0));
        await shoot(page, `ledger-banner-${suffix}`);
        await page.goto('/portfolios');
        await unpinShell(page);
        await page.getByTestId('card-ledger-issue').first().waitFor();
        await shoot(page.getByTestId('portfolio-cards'), `ledger-cards-${suffix}`);

        // The import preview.
        await page.goto(`/portfolios/${main.id}/import`);
        await unpinShell(page);
        await page.getByTestId('file-input').setInputFiles({ name: 'kiwoom-2026.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
        await page.getByTestId('import-preview').waitFor();
        await shoot(page.getByTestId('import-preview'), `import-preview-${suffix}`);
        // A file longer than the preview's first rows, then one over the row limit.
        await page.getByTestId('import-preview').getByRole('button').first().click();
        await page.getByTestId('file-input').setInputFiles({ name: 'history.csv', mimeType: 'text/csv', buffer: Buffer.from(deposits(150)) });
        await page.getByTestId('import-rows-truncated').waitFor();
        await shoot(page.getByTestId('import-preview'), `import-preview-long-${suffix}`);
        await page.getByTestId('import-preview').getByRole('button').first().click();
        await page.getByTestId('file-input').setInputFiles({ name: 'everything.csv', mimeType: 'text/csv', buffer: Buffer.from(deposits(20_001)) });
        await page.getByTestId('import-problem').filter({ hasText: /20,000/ }).waitFor();
        await shoot(page.locator('#main section').first(), `import-too-many-rows-${suffix}`);
        await context.close();
      }
    }
  }
  return files;
}

// Run as a script.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const env = await launch();
  try {
    for (const file of await takePortfolioScreenshots(env)) console.log(file);
  } finally {
    await env.close();
  }
}
