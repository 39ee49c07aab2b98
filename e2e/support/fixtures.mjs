/**
 * Test fixtures: a Chromium (`/usr/bin/chromium` through playwright-core), a Moat server,
 * fresh contexts with error collection, and a few polling helpers.
 *
 *   const app = await launch();            // { browser, server, context, page, errors, newPage, close }
 *   const { page, errors } = await app.newPage({ viewport: { width: 360, height: 740 } });
 *
 * No fixed sleeps: wait for conditions with `eventually()`, `page.waitForFunction()` or
 * locator waits.
 */
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

export const CHROMIUM_PATH = process.env.MOAT_E2E_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** How long a condition may take before a test fails (the app is local and small). */
export const TIMEOUT_MS = 5000;

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Records what a user would see as breakage: console errors, uncaught exceptions and CSP
 * violations (as events in every frame, and as console reports).
 */
export function collectErrors(context) {
  const errors = [];
  context.on('page', (page) => watchPage(page, errors));
  return errors;
}

function watchPage(page, errors) {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push({ kind: 'console', text: message.text(), url: message.location().url });
  });
  page.on('pageerror', (error) => errors.push({ kind: 'pageerror', text: String(error?.stack ?? error) }));
}

/** Runs in every frame before the page's scripts: records CSP violations. */
function recordCspViolations() {
  document.addEventListener('securitypolicyviolation', (event) => {
    console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || '(inline)'}`);
  });
}

/**
 * Starts a server (unless one is given) and a browser, and opens a first tab
 * (`context`, `page`, `errors`). `newPage()` opens more, each in its own context;
 * `closeContexts()` closes them all (the first one included), e.g. after each test.
 * @param {{ serverEnv?: Record<string,string>, server?: object }} [options]
 */
export async function launch({ serverEnv, server: givenServer } = {}) {
  // The server and the browser start side by side.
  const [serverResult, browserResult] = await Promise.allSettled([
    givenServer ? Promise.resolve(givenServer) : startServer({ env: serverEnv }),
    launchBrowser(),
  ]);
  if (serverResult.status === 'rejected' || browserResult.status === 'rejected') {
    if (serverResult.status === 'fulfilled' && !givenServer) await serverResult.value.stop();
    if (browserResult.status === 'fulfilled') await browserResult.value.close();
    throw serverResult.status === 'rejected' ? serverResult.reason : browserResult.reason;
  }
  const server = serverResult.value;
  const browser = browserResult.value;
  const contexts = new Set();

  /** A new context and page; `errors` collects what went wrong in it. */
  async function newPage(contextOptions = {}) {
    const context = await browser.newContext({ baseURL: server.url, ...contextOptions });
    contexts.add(context);
    context.setDefaultTimeout(TIMEOUT_MS);
    context.setDefaultNavigationTimeout(10_000);
    const errors = collectErrors(context);
    await context.addInitScript(recordCspViolations);
    const page = await context.newPage();
    return { context, page, errors };
  }

  const first = await newPage();
  return {
    browser,
    server,
    context: first.context,
    page: first.page,
    errors: first.errors,
    newPage,
    /** Closes every context opened so far (between tests). */
    async closeContexts() {
      await Promise.all([...contexts].map((c) => c.close().catch(() => {})));
      contexts.clear();
    },
    async close() {
      await browser.close().catch(() => {});
      if (!givenServer) await server.stop();
    },
  };
}

/**
 * Polls `check` (sync or async) until it stops throwing / returns something truthy, like
 * `expect.poll`. Rethrows the last assertion error at the deadline.
 */
export async function eventually(check, { timeout = TIMEOUT_MS, interval = 25, message } = {}) {
  const deadline = Date.now() + timeout;
  let lastError;
  for (;;) {
    try {
      const value = await check();
      if (value !== false) return value;
      lastError = new assert.AssertionError({ message: message ?? 'condition stayed false' });
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) throw lastError;
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Fails with the collected errors, if any (filtered by `ignore`). */
export function assertNoErrors(errors, { ignore = [] } = {}) {
  const left = errors.filter((e) => !ignore.some((pattern) => pattern.test(e.text)));
  assert.deepEqual(left, [], `the page reported errors:\n${left.map((e) => `${e.kind}: ${e.text}`).join('\n')}`);
}
