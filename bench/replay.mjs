// How fast a long session replays in the operator's console: the session page opened
// cold in headless Chromium (1280×800, an operator's desktop, no CPU slowdown), timed
// from navigation to (a) the recorded page shown in the player's frame — the replay
// can be watched from then on — and (b) every page of the replay loaded into the
// player. Medians over 5 loads. Target: (a) within 2 s for a 30-minute session.
//   node bench/replay.mjs <base-url> <operator-token> <session-secure-id> [loads]
// `cargo bench -p moat --bench ingest` records such a session and runs this script.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../e2e/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const [base, token, secureId, loadsArg] = process.argv.slice(2);
if (!base || !token || !secureId) {
  console.error('usage: node bench/replay.mjs <base-url> <operator-token> <session-secure-id> [loads]');
  process.exit(2);
}
const loads = Number(loadsArg ?? 5);
/** Longest wait for either moment before the load counts as failed. */
const TIMEOUT_MS = 60_000;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});

async function load() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((t) => window.localStorage.setItem('AUTH_TOKEN', t), token);
  const page = await context.newPage();
  let pages = 0;
  page.on('response', (r) => {
    if (r.url().includes(`/sessions/${secureId}/replay`)) pages++;
  });
  const profiling = process.env.REPLAY_PROFILE === '1';
  const cdp = profiling ? await context.newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const started = Date.now();
  await page.goto(`${base}/operator/sessions/${secureId}`);
  // The recorded page is in the player's frame.
  await page.waitForFunction(
    () => {
      const frame = document.querySelector('[data-testid="replay-player"][data-status="ready"] iframe');
      const body = frame?.contentDocument?.body;
      return !!body && body.childElementCount > 0;
    },
    undefined,
    { timeout: TIMEOUT_MS, polling: 20 },
  );
  const shown = Date.now() - started;
  await page.waitForSelector('[data-testid="replay-player"][data-complete="true"]', { timeout: TIMEOUT_MS });
  const complete = Date.now() - started;
  if (cdp) {
    // Where the page's main thread spent the load: self time by function, top 15.
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const dt = profile.timeDeltas ?? [];
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const f = byId.get(id).callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
    });
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
    console.log('main-thread self time (ms):\n' + top.map(([k, v]) => `  ${v.toFixed(0).padStart(6)}  ${k}`).join('\n'));
  }
  if (process.env.REPLAY_SHOT) await page.screenshot({ path: process.env.REPLAY_SHOT });
  await context.close();
  return { shown, complete, pages };
}

await load(); // not counted: the browser's own first-use costs (code caches, the player's chunk)
const results = [];
for (let i = 0; i < loads; i++) results.push(await load());
const shown = results.map((r) => r.shown);
const complete = results.map((r) => r.complete);
console.log(
  `console replay of session ${secureId} (1280×800, headless Chromium): recorded page shown in the player after median ${median(shown)} ms [${shown.join(', ')}]; ` +
    `whole replay loaded (${results[0].pages} pages) after median ${median(complete)} ms [${complete.join(', ')}] (target: shown within 2,000 ms)`,
);
await browser.close();
