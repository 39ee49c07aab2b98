// What session recording costs the first page: the home page's LCP with the recorder on
// and off, measured in one run, alternating on/off loads (the order swapped every pair),
// in headless Chromium at 360×740 with a 4× CPU slowdown (Lighthouse's mobile preset
// throttling), a cold context for every load. Prints the medians and their ratio
// (target: on within 5 % of off).
//
// The recorder skips automated browsers (`navigator.webdriver`) unless `window.Cypress`
// exists, so 'on' defines `window.Cypress = {}` in an init script and 'off' does not
// (the recording client is then never downloaded). 'On' is checked to really record:
// after LCP the page is kept open until the first `PushSessionEvents` reaches /public,
// and the POSTs to /public are counted per load. The recorder starts once the page's
// largest paint has settled (no new LCP candidate for RECORDER_LCP_QUIET_MS, 1 s, after
// the load event; at most RECORDER_START_MAX_DELAY_MS, 10 s, after it), then when the
// browser is idle, and its first push comes about 1 s after that: a few seconds after
// the LCP is read here, well within PUSH_WAIT_MS (nothing here is user input, which would
// start it at once). Each 'on' load also reports when the recorder's chunk (`load-*.js`)
// was requested, relative to the LCP: after it means the LCP paint did not wait for it.
//   node bench/recording.mjs <base-url> [runs]     (runs = loads per mode, default 9)
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';

const require = createRequire(new URL('../e2e/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const runs = Number(process.argv[3] ?? 9);
/** How long an 'on' load may take to send its first push after LCP. */
const PUSH_WAIT_MS = 10_000;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
});

/** One cold load of the home page: its LCP and what it sent to /public. */
async function load(recording) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const sent = { ops: {}, pushAfterLcpMs: null, recorderAfterLcpMs: null };
  let lcpAt = 0;
  // Context-wide, so the recorder's uploads from its blob: worker are seen too.
  context.on('request', (req) => {
    if (req.method() !== 'POST' || new URL(req.url()).pathname !== '/public') return;
    let op = '?';
    try {
      op = JSON.parse(req.postData() ?? '{}').operationName ?? '?';
    } catch {}
    sent.ops[op] = (sent.ops[op] ?? 0) + 1;
    if (op === 'PushSessionEvents' && sent.pushAfterLcpMs === null && lcpAt) sent.pushAfterLcpMs = Date.now() - lcpAt;
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  if (recording) await page.addInitScript(() => { window.Cypress = {}; });
  await page.addInitScript(() => {
    window.__lcp = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lcp = e.startTime; })
      .observe({ type: 'largest-contentful-paint', buffered: true });
    // When the recorder's own chunk is requested (resource timing may be cleared later).
    window.__recorderAt = null;
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) if (window.__recorderAt === null && /\/assets\/load-[\w-]+\.js$/.test(e.name)) window.__recorderAt = e.startTime;
    }).observe({ type: 'resource', buffered: true });
  });
  await page.goto(base + '/', { waitUntil: 'load' });
  await page.waitForFunction(() => window.__lcp > 0);
  // The same settle time in both modes, so a late, larger paint counts in both.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 1000))));
  const lcp = await page.evaluate(() => window.__lcp);
  lcpAt = Date.now();
  if (recording) {
    const deadline = Date.now() + PUSH_WAIT_MS;
    // Polls the request counter (the uploads run in a worker, so there is no page event to await).
    while (!sent.ops.PushSessionEvents && Date.now() < deadline) await page.waitForTimeout(100);
    const at = await page.evaluate(() => window.__recorderAt);
    if (at !== null) sent.recorderAfterLcpMs = Math.round(at - lcp);
  } else {
    // A fixed wait on purpose: there is nothing to await when nothing should happen. It
    // gives a recorder that should not run the same time to show itself (checked below).
    await page.waitForTimeout(3000);
  }
  await context.close();
  return { lcp, sent };
}

const loadBefore = loadavg()[0];
// One load not counted: the browser's own first-use costs (disk cache, fonts, code caches).
await load(false);
const results = { on: [], off: [] };
for (let i = 0; i < runs; i++) {
  for (const mode of i % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
    const r = await load(mode === 'on');
    results[mode].push(r);
    const ops = Object.entries(r.sent.ops).map(([k, v]) => `${k}×${v}`).join(' ') || 'nothing';
    const push = mode === 'on' ? (r.sent.pushAfterLcpMs === null ? ', no push seen' : `, first push ${r.sent.pushAfterLcpMs} ms after LCP was read`) : '';
    const chunk = mode === 'on' ? (r.sent.recorderAfterLcpMs === null ? ', recorder chunk not seen' : `, recorder chunk requested ${r.sent.recorderAfterLcpMs} ms after the LCP`) : '';
    console.log(`  run ${i + 1} ${mode.padEnd(3)} LCP ${r.lcp.toFixed(0)} ms; POST /public: ${ops}${push}${chunk}`);
  }
}
await browser.close();

const lcps = (mode) => results[mode].map((r) => r.lcp);
const on = median(lcps('on'));
const off = median(lcps('off'));
const recorded = results.on.filter((r) => r.sent.ops.PushSessionEvents > 0).length;
const pushes = results.on.reduce((n, r) => n + (r.sent.ops.PushSessionEvents ?? 0), 0);
const offPosts = results.off.reduce((n, r) => n + Object.values(r.sent.ops).reduce((a, b) => a + b, 0), 0);
console.log(`home LCP at 360×740, 4× CPU, recording on:  median ${on.toFixed(0)} ms over ${runs} runs [${lcps('on').map((x) => x.toFixed(0)).join(', ')}]`);
console.log(`home LCP at 360×740, 4× CPU, recording off: median ${off.toFixed(0)} ms over ${runs} runs [${lcps('off').map((x) => x.toFixed(0)).join(', ')}]`);
console.log(`on / off: ${(on / off).toFixed(3)} (${(((on - off) / off) * 100).toFixed(1)} %; target within 5 %)`);
// Each on load next to its off load: drift in the machine's load cancels out.
const pairs = results.on.map((r, i) => r.lcp / results.off[i].lcp);
console.log(`on / off per adjacent pair: median ${median(pairs).toFixed(3)} [${pairs.map((x) => x.toFixed(2)).join(', ')}]`);
console.log(`machine load average (1 min): ${loadBefore.toFixed(2)} before, ${loadavg()[0].toFixed(2)} after (this bench itself adds 1–2; more means other work on the machine, and noisier figures)`);
const chunkAfter = results.on.map((r) => r.sent.recorderAfterLcpMs).filter((x) => x !== null);
console.log(`recorder chunk requested after the LCP in ${chunkAfter.filter((x) => x > 0).length} of ${runs} 'on' loads (median ${chunkAfter.length ? median(chunkAfter) : '–'} ms after, earliest ${chunkAfter.length ? Math.min(...chunkAfter) : '–'} ms)`);
console.log(`recording check: ${recorded} of ${runs} 'on' loads sent PushSessionEvents (${pushes} in all); 'off' loads sent ${offPosts} POSTs to /public`);
