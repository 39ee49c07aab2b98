// Web benchmarks: the first route's JS + CSS size (gzip: the entry and the home chunk,
// as web/scripts/bundle-budget.mjs counts it), and LCP and CLS of the home page and a
// stock page in headless Chromium at 360×740, device scale factor 2, with a 4× CPU
// slowdown (CDP Emulation.setCPUThrottlingRate, Lighthouse's mobile preset), every load
// cold (a fresh browser context: no cache, no storage). Beside them, in the same run, a
// bare HTML page (a heading and a paragraph, no script, served by this script) gives the
// machine's floor: the LCP no page can beat on this machine and load. Loads alternate
// between the pages, so a busy moment of the machine falls on all of them alike. Prints
// the median, min and max of each.
//
// On its own, against a running moat (release or debug) serving the web build in web/dist:
//   cd web && npx vite build                     (writes dist/ and dist/.vite/manifest.json)
//   cargo build -p moat && target/debug/moat --port 8080 --data-dir "$(mktemp -d)" &
//     (a debug binary reads web/dist at run time; MOAT_WEB_DIR=<dist> serves another build)
//   node bench/web.mjs http://127.0.0.1:8080 [runs=7] [other-base-url]
// With another server's URL (say, one serving the build before a change: MOAT_WEB_DIR),
// its home page is measured too, in the same run, interleaved with the others.
// bench/run.sh runs it against a release build.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { firstRoute } from '../web/scripts/bundle-budget.mjs';

const require = createRequire(new URL('../e2e/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const runs = Math.max(5, Number(process.argv[3] ?? 7));
const other = process.argv[4];
const dist = process.env.MOAT_WEB_DIR ? `${process.env.MOAT_WEB_DIR}/` : new URL('../web/dist/', import.meta.url);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// 1. What the first route downloads.
const { files, total } = firstRoute(dist);
console.log(`first-route JS+CSS: ${(total / 1024).toFixed(2)} KiB gzip over ${files.length} files (budget ≤ 110 KiB)`);

// 2. The floor: a bare page, from a server in this process.
const BARE = `<!doctype html><html lang="ko"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>floor</title></head>
<body><h1>오늘의 시장</h1><p>A bare page: no script, no stylesheet, the browser's own paint only.</p></body></html>`;
const bare = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(BARE));
await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${bare.address().port}/`;

// 3. LCP and CLS.
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
});

/** LCP and CLS of one cold load of `url`. */
async function vitals(url) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(() => {
      window.__vitals = { lcp: 0, cls: 0 };
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__vitals.lcp = e.startTime; })
        .observe({ type: 'largest-contentful-paint', buffered: true });
      new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__vitals.cls += e.value; })
        .observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__vitals.lcp > 0);
    // Let late paints and shifts (fonts, lazy chunks, the first data) land before reading.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 1000))));
    return await page.evaluate(() => window.__vitals);
  } finally {
    await context.close();
  }
}

const pages = [
  { name: 'bare HTML (floor)', url: bareUrl, target: undefined },
  { name: 'home', url: `${base}/`, target: 1200 },
  { name: 'stock page', url: `${base}/stocks/KRX:005930`, target: 1500 },
  ...(other ? [{ name: `home at ${other}`, url: `${other}/`, target: 1200 }] : []),
];
// One warm-up load of each (the server's and the browser's first-time costs), not counted.
for (const p of pages) await vitals(p.url);
for (const p of pages) p.lcps = [], p.clss = [];
for (let i = 0; i < runs; i++) {
  for (const p of pages) {
    const v = await vitals(p.url);
    p.lcps.push(v.lcp);
    p.clss.push(v.cls);
  }
}
await browser.close();
bare.close();

const ms = (x) => x.toFixed(0);
console.log(`LCP at 360×740, DSF 2, 4× CPU, ${runs} cold loads each, alternating:`);
for (const { name, lcps, target } of pages) {
  const goal = target ? ` (target ≤ ${target} ms)` : '';
  console.log(`  ${name}: median ${ms(median(lcps))} ms, min ${ms(Math.min(...lcps))}, max ${ms(Math.max(...lcps))} [${lcps.map(ms).join(', ')}]${goal}`);
}
for (const { name, clss } of pages.slice(1)) {
  console.log(`  ${name} CLS: median ${median(clss).toFixed(4)} (max ${Math.max(...clss).toFixed(4)}) (target ≤ 0.02)`);
}
