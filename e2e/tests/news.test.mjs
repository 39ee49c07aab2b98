/**
 * News (issue 19, docs/news.md) in Chromium against the real server and a real feed
 * server on the loopback (node:http serving RSS files; nothing leaves the machine):
 * the operator adds a feed on /operator/news and fetches it → the articles appear on
 * the news screen → the article names 삼성전자 with its chip and shows on 삼성전자's
 * stock page → a Korean search with a particle (삼성전자가) finds it with the word
 * highlighted → the recent search is kept after a reload and removable; a new article
 * reaches the open news screen live ("새 기사 1건"). With MOAT_E2E_SHOTS=<dir>,
 * screenshots of every news screen at 360 and 1280 px, Korean and English.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { api as callApi, newMember as signUpMember } from '../support/members.mjs';

const SAMSUNG_TITLE = '삼성전자, 3분기 영업이익 10조 돌파…반도체 회복';
const RATES_TITLE = '한은, 기준금리 동결…연내 인하 기대감 커져';
const LIVE_TITLE = 'SK하이닉스, HBM 공급 확대 계약 체결';

let env;
let feeds;
let operatorToken;
/** path → RSS body */
const files = new Map();

function rss(items) {
  const esc = (s) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const body = items
    .map(
      (i) =>
        `<item><guid>${esc(i.link)}</guid><link>${esc(i.link)}</link><title>${esc(i.title)}</title>` +
        `<description>${esc(i.description)}</description><pubDate>${i.date.toUTCString()}</pubDate></item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>테스트경제</title><link>http://127.0.0.1/</link><description>e2e</description>${body}</channel></rss>`;
}

function startFeedServer() {
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      const body = files.get(new URL(req.url, 'http://x').pathname);
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(body);
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${server.address().port}` }));
  });
}

const minutesAgo = (m) => new Date(Date.now() - m * 60_000);

before(async () => {
  feeds = await startFeedServer();
  files.set(
    '/kr.xml',
    rss([
      {
        link: `${feeds.base}/a/1`,
        title: SAMSUNG_TITLE,
        description: '삼성전자는 반도체 업황 회복에 힘입어 3분기 영업이익이 10조원을 넘었다고 밝혔다. 메모리 가격 상승이 실적을 이끌었다.',
        date: minutesAgo(10),
      },
      {
        link: `${feeds.base}/a/2`,
        title: RATES_TITLE,
        description: '한국은행이 기준금리를 연 3.25%로 동결했다. 시장은 내년 금리 인하 시점을 주목한다.',
        date: minutesAgo(50),
      },
    ]),
  );
  env = await launch({ serverEnv: { MOAT_NEWS_PER_HOST_INTERVAL_MS: '0' } });
  // The first member of a fresh server is its operator.
  operatorToken = (await signUpMember(env.server, { prefix: 'newsop' })).token;
});
afterEach(() => env.closeContexts());
after(async () => {
  await env?.close();
  feeds?.server.close();
});

const api = (token, method, p, body) => callApi(env.server, token, method, p, body);

/** A tab in `locale`, logged in with `token` (`null`: a visitor). */
async function tab({ token = operatorToken, viewport = { width: 360, height: 740 }, locale = 'ko' } = {}) {
  const { page, context, errors } = await env.newPage({ viewport });
  await context.addInitScript(
    ([t, l]) => {
      if (t) localStorage.setItem('AUTH_TOKEN', t);
      localStorage.setItem('MOAT_LOCALE', l);
    },
    [token, locale],
  );
  return { page, context, errors };
}

describe('news', () => {
  test('add a feed → the news screen → the article names 삼성전자 → its stock page → a Korean search → the recent search is kept', async () => {
    const { page, errors } = await tab();
    // The operator's feeds page: add the feed with the form, then fetch it now.
    await page.goto('/operator/news');
    await page.getByRole('heading', { name: '뉴스 피드', level: 1 }).waitFor();
    await page.getByRole('button', { name: '피드 추가' }).click();
    await page.getByLabel('피드 주소').fill(`${feeds.base}/kr.xml`);
    await page.getByLabel('언론사 이름').fill('테스트경제');
    await page.getByRole('button', { name: '저장' }).click();
    const fetchNow = page.getByRole('button', { name: '테스트경제 지금 가져오기' });
    await fetchNow.click();
    await page.getByText('새 기사 2건, 병합 0건').waitFor();
    const feedCard = page.getByRole('listitem').filter({ hasText: '테스트경제' });
    await eventually(async () => assert.match(await feedCard.innerText(), /정상/));

    // The news screen lists both, newest first.
    await page.goto('/news');
    const list = page.getByRole('list', { name: '기사 목록' });
    await list.getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).waitFor();
    const text = await list.innerText();
    assert.ok(text.indexOf(SAMSUNG_TITLE) < text.indexOf(RATES_TITLE) && text.includes(RATES_TITLE), text);

    // The article: its source, the chip of 삼성전자 with a live price, the original.
    await list.getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).click();
    await page.getByRole('heading', { name: SAMSUNG_TITLE, level: 1 }).waitFor();
    const chip = page.getByRole('link', { name: /삼성전자/ }).first();
    await chip.waitFor();
    await eventually(async () => assert.match(await chip.innerText(), /[+-−]?\d+(\.\d+)?%/));
    const original = page.getByRole('link', { name: /원문 보기/ });
    assert.equal(await original.getAttribute('href'), `${feeds.base}/a/1`);
    assert.equal(await original.getAttribute('target'), '_blank');
    assert.match(await original.getAttribute('rel'), /noopener/);

    // 삼성전자's stock page has it in its news.
    await chip.click();
    await page.waitForURL(/\/stocks\/KRX(%3A|:)005930/);
    const stockNews = page.getByRole('region', { name: '뉴스' });
    await stockNews.getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).waitFor();
    assert.equal(await stockNews.getByRole('link', { name: new RegExp(RATES_TITLE) }).count(), 0, 'only its own news');

    // A Korean search with a particle finds it; the word is highlighted.
    await page.goto('/news/search');
    const box = page.getByRole('searchbox', { name: '뉴스 검색' });
    await box.fill('삼성전자가');
    await box.press('Enter');
    const results = page.getByRole('list', { name: '검색 결과' });
    await results.getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).waitFor();
    assert.equal(await results.getByRole('link', { name: new RegExp(RATES_TITLE) }).count(), 0);
    assert.equal(await results.locator('mark').first().innerText(), '삼성전자');
    // 금리 (two syllables) finds the other.
    await box.fill('금리');
    await box.press('Enter');
    await results.getByRole('link', { name: new RegExp(RATES_TITLE) }).waitFor();

    // The recent searches survive a reload, newest first, and go one by one.
    await page.goto('/news/search');
    const recent = page.getByRole('list', { name: '최근 검색' });
    await eventually(async () => assert.deepEqual((await recent.getByRole('listitem').allInnerTexts()).map((s) => s.split('\n')[0].trim()), ['금리', '삼성전자가']));
    await page.getByRole('button', { name: '금리 삭제' }).click();
    await eventually(async () => assert.equal(await recent.getByRole('listitem').count(), 1));
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('MOAT_NEWS_RECENT_SEARCHES')));
    assert.deepEqual(stored, ['삼성전자가']);
    assertNoErrors(errors);
  });

  test('a new article reaches the open news screen live', async () => {
    const feedList = await api(operatorToken, 'GET', '/api/admin/news/feeds');
    const feed = feedList.feeds.find((f) => f.url === `${feeds.base}/kr.xml`);
    assert.ok(feed, 'the first test added the feed');
    const { page, errors } = await tab({ token: null });
    // The server's answer to the page's subscription to news:KR: from then on a new
    // article reaches this page.
    const subscribed = new Promise((resolve) => {
      page.on('websocket', (socket) =>
        socket.on('framereceived', ({ payload }) => {
          const frame = JSON.parse(String(payload));
          if (frame.op === 'subscribed' && frame.topics?.includes('news:KR')) resolve();
        }),
      );
    });
    await page.goto('/news');
    await page.getByRole('list', { name: '기사 목록' }).getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).waitFor();
    await subscribed;
    files.set(
      '/kr.xml',
      files.get('/kr.xml').replace(
        '<item>',
        `<item><guid>${feeds.base}/a/3</guid><link>${feeds.base}/a/3</link><title>${LIVE_TITLE}</title><description>SK하이닉스가 HBM 공급 확대 계약을 맺었다.</description><pubDate>${new Date().toUTCString()}</pubDate></item><item>`,
      ),
    );
    const result = await api(operatorToken, 'POST', `/api/admin/news/feeds/${feed.id}/fetch`);
    assert.equal(result.new_articles, 1);
    const pill = page.getByRole('button', { name: '새 기사 1건' });
    await pill.waitFor({ timeout: 10_000 });
    await pill.click();
    await page.getByRole('list', { name: '기사 목록' }).getByRole('link', { name: new RegExp(LIVE_TITLE) }).waitFor();
    assertNoErrors(errors);
  });

  test('screenshots of the news screens (360 and 1280 px, ko and en)', { skip: !process.env.MOAT_E2E_SHOTS }, async () => {
    const dir = process.env.MOAT_E2E_SHOTS;
    await mkdir(dir, { recursive: true });
    const list = await api(null, 'GET', '/api/news?country=KR');
    const article = list.items.find((i) => i.title === SAMSUNG_TITLE);
    for (const locale of ['ko', 'en']) {
      for (const width of [360, 1280]) {
        const { page } = await tab({ viewport: { width, height: width < 768 ? 740 : 900 }, locale });
        const shot = async (name) => {
          // Fonts and images settle before the picture is taken.
          await page.evaluate(() => document.fonts.ready);
          await page.waitForLoadState('networkidle');
          await page.screenshot({ path: path.join(dir, `news-${name}-${locale}-${width}.png`), fullPage: true });
        };
        await page.goto('/news');
        await page.getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).first().waitFor();
        await shot('list');
        await page.goto(`/news/${article.id}`);
        await page.getByRole('heading', { name: SAMSUNG_TITLE }).waitFor();
        await shot('article');
        await page.goto(`/news/search?q=${encodeURIComponent('삼성전자가')}`);
        await page.getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).first().waitFor();
        await shot('search');
        await page.goto('/stocks/KRX:005930');
        await page.getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).first().waitFor();
        await shot('stock');
        await page.goto('/');
        await page.getByRole('link', { name: new RegExp(SAMSUNG_TITLE) }).first().waitFor();
        await shot('home');
        await page.goto('/operator/news');
        await page.getByRole('list', { name: locale === 'ko' ? '피드 목록' : 'Feeds' }).waitFor();
        await shot('feeds');
      }
    }
  });
});
