// Web benchmarks: the first route's JS + CSS size (gzip), and LCP and CLS of the home
// page and a stock page in headless Chromium at 360×740 with a 4× CPU slowdown (Lighthouse's mobile
// preset throttling), as medians over several cold loads.
//   node bench/web.mjs <base-url> [runs]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';

const require = createRequire(new URL('../e2e/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const runs = Number(process.argv[3] ?? 7);
const dist = new URL('../web/dist/', import.meta.url);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// 1. What the first route loads before it can render: the entry script, its
//    modulepreloads and the stylesheets referenced by index.html.
const html = readFileSync(new URL('index.html', dist), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let gz = 0;
for (const f of files) gz += gzipSync(readFileSync(new URL(f, dist)), { level: 9 }).length;
console.log(`first-route JS+CSS: ${(gz / 1024).toFixed(1)} KB gzip over ${files.length} files (target ≤ 120 KB)`);

// 2. LCP and CLS, cold cache each run.
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
});
/** LCP and CLS of one page, cold cache each run, at 360×740 with a 4× CPU slowdown. */
async function vitals(path) {
  const lcps = [];
  const clss = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.addInitScript(() => {
      window.__vitals = { lcp: 0, cls: 0 };
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__vitals.lcp = e.startTime; })
        .observe({ type: 'largest-contentful-paint', buffered: true });
      new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__vitals.cls += e.value; })
        .observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(base + path, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__vitals.lcp > 0);
    // Let late shifts (fonts, lazy chunks, the first data) land before reading CLS.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 1000))));
    const v = await page.evaluate(() => window.__vitals);
    lcps.push(v.lcp);
    clss.push(v.cls);
    await context.close();
  }
  return { lcps, clss };
}

const pages = [
  ['home', '/', 1200],
  ['stock page', '/stocks/KRX:005930', 1500],
];
for (const [name, path, target] of pages) {
  const { lcps, clss } = await vitals(path);
  console.log(`${name} LCP at 360×740, 4× CPU: median ${median(lcps).toFixed(0)} ms over ${runs} runs [${lcps.map((x) => x.toFixed(0)).join(', ')}] (target ≤ ${target} ms)`);
  console.log(`${name} CLS: median ${median(clss).toFixed(4)} (max ${Math.max(...clss).toFixed(4)}) (target ≤ 0.02)`);
}
await browser.close();
