/**
 * Session recording and error reporting end to end (docs/observability.md): the real
 * highlight.run 9.20.0 client in Chromium against the real server's ingest. A member's
 * session is recorded across pages, an error is thrown (and a "Failed to fetch" that
 * the drop list must keep out), feedback is sent; the operator's read API and console
 * then show the session, its replay, the error in its group and the feedback linked to
 * it. Every request the page makes is recorded: none may leave for another host, and
 * every reply of the recorder's GraphQL endpoint must be one the client accepts.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, afterEach, before, describe, test } from 'node:test';
import { eventually, launch } from '../support/fixtures.mjs';
import { signUp } from '../support/members.mjs';

const PASSWORD = 'observability e2e password 1';
/** The recorder's first push comes after 1 s, then every 2 s (spec §9): allow several. */
const PUSH_WAIT_MS = 20_000;
/** Spec §9: the browser exports its metrics once a minute. */
const METRIC_EXPORT_INTERVAL_MS = 60_000;

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

const signup = (nickname) => signUp(env.server, { email: `${nickname}@example.com`, nickname }, PASSWORD);

async function get(token, path) {
  const response = await fetch(`${env.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
  return response.json();
}

describe('observability', () => {
  test('a recorded session, its error and feedback reach the operator; dropped errors and other hosts do not', async () => {
    // The first account is the instance's operator.
    const operator = await signup(`op${Date.now().toString(36)}`);
    const nickname = `obs${Date.now().toString(36)}`;
    const member = await signup(nickname);

    const { context, page, errors } = await env.newPage({ viewport: { width: 1280, height: 800 } });
    const origin = new URL(env.server.url).origin;
    const foreign = [];
    /** The client's OTLP trace exports (its spans leave in batches, every few seconds). */
    const traceExports = [];
    const graphql = [];
    context.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
      if (url.startsWith(`${origin}/v1/traces`)) traceExports.push(r.postData() ?? '');
    });
    // The recorder's replies, as the client receives them: passed through on their way
    // from the server (its uploads run in a worker), and kept for the capture check.
    await context.route('**/public', async (route) => {
      const request = route.request();
      const sent = (() => {
        try {
          return JSON.parse(request.postData() ?? '{}');
        } catch {
          return {};
        }
      })();
      const op = sent.operationName;
      // What a push carried (base64 of gzip), to know which push took the errors.
      const carried = (() => {
        try {
          return gunzipSync(Buffer.from(sent.variables?.data ?? '', 'base64')).toString('utf8');
        } catch {
          return '';
        }
      })();
      const response = await route.fetch();
      const body = await response.json().catch(() => undefined);
      graphql.push({ op, status: response.status(), type: response.headers()['content-type'] ?? '', body, carried });
      await route.fulfill({ response });
    });
    // Recording skips webdriver browsers unless a test runner is there (spec §4).
    await context.addInitScript((token) => {
      window.Cypress = {};
      localStorage.setItem('AUTH_TOKEN', token);
    }, member);

    await page.goto('/');
    await page.getByTestId('index-cards').waitFor().catch(() => {});
    const seen = graphql.length;
    // A page that has not loaded the member's portfolios (home and a stock's page have:
    // their money and position sections), so the click below must ask the API.
    await page.goto('/settings');
    // The recorder starts once the page's largest paint has settled (then when the
    // browser is idle); wait for this page's recorder: its initializeSession, then its
    // first upload. (An upload alone may be the previous page's, sent as it unloaded:
    // clicking before this page's recorder is there would send an untraced request.)
    await eventually(
      () => {
        const ops = graphql.slice(seen).map((g) => g.op);
        const init = ops.indexOf('initializeSession');
        return init >= 0 && ops.indexOf('PushSessionEvents', init) > init;
      },
      { timeout: PUSH_WAIT_MS, interval: 100 },
    );
    // A click that calls the API while recording: the menu's portfolios link loads the
    // member's portfolios. Its request carries the browser's trace, which the server
    // continues with its own span and the database work under it.
    const listed = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/portfolios' && r.method() === 'GET');
    await page.locator('a[href="/portfolios"]').first().click();
    const traceparent = (await listed).headers().traceparent;
    assert.match(traceparent ?? '', /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, 'the API call carries the trace');
    const traceId = traceparent.split('-')[1];
    // Stay on the page until the client has exported the fetch's span (a page load
    // would drop the batch it waits in).
    await eventually(() => assert.ok(traceExports.some((body) => body.includes(traceId))), { timeout: PUSH_WAIT_MS, interval: 200 });
    // One error to keep, one the drop list removes (spec §8); the same for console
    // errors, which become error records too (and are dropped by the same list).
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e kept error');
      });
      setTimeout(() => {
        throw new TypeError('Failed to fetch');
      });
      console.error('e2e console error', 42);
      console.error(new TypeError('Failed to fetch'));
      console.error('ResizeObserver loop completed with undelivered notifications.');
    });
    // Wait for the push that carried the kept error and was accepted (a push already on
    // its way when the errors were thrown may land after them without them).
    await eventually(
      () => graphql.some((g) => g.carried.includes('e2e kept error') && g.status === 200 && !g.body?.errors),
      { timeout: PUSH_WAIT_MS, interval: 100 },
    );
    // Recording broke no Content-Security-Policy (rrweb diffs style changes through the
    // CSSOM, scripts/patch-highlight.mjs): home and settings, with the recorder on since
    // their first seconds, logged no violation.
    const csp = errors.filter((e) => /Content Security Policy|CSP violation/.test(e.text));
    assert.deepEqual(csp.map((e) => e.text), [], 'the recorded pages logged CSP violations');
    // Feedback through its modal route.
    await page.goto('/settings?feedback=routeModalTrue');
    await page.getByTestId('feedback-verbatim').fill('차트가 느려요 e2e');
    await page.getByTestId('feedback-email').fill('ant@example.com');
    await page.getByTestId('feedback-submit').click();

    // The operator finds the member's session, with errors and feedback: bound to the
    // member by the app's authenticated request (the recorder's identify is a claim).
    const { user_id: memberId } = await get(member, '/api/me');
    const session = await eventually(
      async () => {
        const { sessions } = await get(operator, `/api/operator/observe/sessions?has_errors=true&has_feedback=true&member=${memberId}`);
        if (sessions.length === 0) {
          const { sessions: all } = await get(operator, '/api/operator/observe/sessions');
          const seen = all.map((s) => ({ member: s.member, errors: s.has_errors, feedback: s.has_feedback, claim: s.properties?.claimed_user_identifier }));
          assert.fail(`no bound session of ${nickname} (${memberId}) with errors and feedback yet: ${JSON.stringify(seen).slice(0, 800)}`);
        }
        return sessions[0];
      },
      { timeout: PUSH_WAIT_MS, interval: 500 },
    );
    assert.equal(session.member, String(memberId));
    assert.equal(session.user_object?.nickname, nickname);
    assert.equal(session.properties?.claimed_user_identifier, String(memberId), 'the recorder’s claim is kept as a claim');
    const id = session.secure_id;

    // The kept error is grouped; "Failed to fetch" never arrived.
    const { groups } = await eventually(
      async () => {
        const list = await get(operator, '/api/operator/observe/errors');
        assert.ok(list.groups.some((g) => g.message.includes('e2e kept error')), JSON.stringify(list.groups).slice(0, 500));
        return list;
      },
      { timeout: PUSH_WAIT_MS, interval: 500 },
    );
    assert.ok(!groups.some((g) => /failed to fetch|ResizeObserver/i.test(g.message)), 'a dropped error was stored');
    const consoleGroup = await eventually(
      async () => {
        const list = await get(operator, '/api/operator/observe/errors');
        const found = list.groups.find((g) => g.message.includes('e2e console error'));
        assert.ok(found, JSON.stringify(list.groups).slice(0, 500));
        return found;
      },
      { timeout: PUSH_WAIT_MS, interval: 500 },
    );
    assert.equal(consoleGroup.error_type, 'console.error');
    const group = groups.find((g) => g.message.includes('e2e kept error'));
    const detail = await get(operator, `/api/operator/observe/errors/${group.id}`);
    assert.ok(detail.occurrences.some((o) => o.session_secure_id === id && o.replay_offset_ms >= 0), JSON.stringify(detail.occurrences));

    // The feedback, verbatim, linked to the session.
    const { feedback } = await get(operator, '/api/operator/observe/feedback');
    const mine = feedback.find((f) => f.verbatim === '차트가 느려요 e2e');
    assert.ok(mine, JSON.stringify(feedback));
    assert.equal(mine.session_secure_id, id);
    assert.equal(mine.user_email, 'ant@example.com');

    // The replay has the full snapshots of the pages visited.
    const replay = await get(operator, `/api/operator/observe/sessions/${id}/replay`);
    assert.ok(replay.events.some((e) => e.type === 2), 'a full snapshot was recorded');
    // One trace: the browser's fetch, the server's request span under it, and the
    // database calls under that.
    const trace = await eventually(
      async () => {
        const { spans } = await get(operator, `/api/operator/observe/traces/${traceId}`);
        const server = spans.find((s) => s.name === 'GET /api/portfolios');
        assert.ok(server, JSON.stringify(spans.map((s) => s.name)));
        assert.ok(spans.some((s) => s.parent_span_id === server.span_id && s.name.startsWith('db ')), JSON.stringify(spans.map((s) => s.name)));
        assert.ok(spans.some((s) => s.service !== 'moat-server' && s.span_id === server.parent_span_id), 'the browser’s own span arrived');
        return spans;
      },
      { timeout: PUSH_WAIT_MS, interval: 500 },
    );
    assert.ok(trace.some((s) => s.name === 'db list_portfolios'), JSON.stringify(trace.map((s) => s.name)));
    const timeline = await get(operator, `/api/operator/observe/sessions/${id}`);
    assert.ok(timeline.timeline.some((i) => i.kind === 'error'), JSON.stringify(timeline.timeline.map((i) => i.kind)));

    // Capture check: every operation the pinned client sent got a reply it accepts
    // (2xx, JSON, `data`, no `errors`), and recording went on after initialisation.
    const ops = new Set(graphql.map((g) => g.op));
    for (const op of ['initializeSession', 'identifySession', 'PushSessionEvents', 'addSessionFeedback']) {
      assert.ok(ops.has(op), `the client never sent ${op}: ${[...ops].join(', ')}`);
      assert.ok(
        graphql.some((g) => g.op === op && g.body !== undefined),
        `no reply to ${op} could be read`,
      );
    }
    for (const g of graphql) {
      assert.ok(g.status >= 200 && g.status < 300, `${g.op}: ${g.status}`);
      assert.match(g.type, /application\/json/, `${g.op}: ${g.type}`);
      if (g.body === undefined) continue;
      assert.ok(g.body && 'data' in g.body && !g.body.errors, `${g.op}: ${JSON.stringify(g.body)}`);
    }
    const init = graphql.find((g) => g.op === 'initializeSession' && g.body).body.data.initializeSession;
    assert.match(init.project_id, /^[1-9]\d*$/);
    assert.ok(init.secure_id);

    assert.deepEqual(foreign, [], 'requests left for another host');

    // The operator's console, the way an operator gets there: from the account page's
    // link (a document load, so the console's own policy lets the replay's inline styles
    // apply; a client-side navigation would keep the account page's stricter one), then
    // the session in the list, its replay rebuilding the recorded page, the error in its
    // group and the feedback, each linked to the session. CSP violations are errors here.
    const console_ = await env.newPage({ viewport: { width: 1280, height: 900 } });
    const op = console_.page;
    await console_.context.addInitScript((token) => localStorage.setItem('AUTH_TOKEN', token), operator);
    await op.goto('/settings/account');
    const consoleDocument = op.waitForResponse((r) => new URL(r.url()).pathname === '/operator/sessions' && r.request().resourceType() === 'document');
    await op.getByRole('link', { name: /운영 콘솔|Operator console/ }).click();
    const served = await consoleDocument;
    assert.match(served.headers()['content-security-policy'] ?? '', /style-src 'self' 'unsafe-inline'/, 'the console came with its replay policy');
    const row = op.getByTestId('observe-session-row').filter({ hasText: nickname });
    await row.first().getByRole('link').click();
    await op.waitForURL(`**/operator/sessions/${id}`);
    const player = op.getByTestId('replay-player');
    await player.waitFor();
    // The replay frame holds the recorded page: the app's navigation, as recorded.
    const frame = await eventually(
      async () => {
        const handle = await player.locator('iframe').first().elementHandle();
        const content = handle && (await handle.contentFrame());
        assert.ok(content, 'no replay frame yet');
        const text = await content.evaluate(() => document.body?.innerText ?? '');
        assert.ok(text.length > 20, `the replay frame is empty: ${JSON.stringify(text)}`);
        return content;
      },
      { timeout: 15_000, interval: 250 },
    );
    assert.ok(frame);
    await op.getByTestId('timeline-item').first().waitFor();
    await op.screenshot({ path: process.env.OBS_SHOT ?? '/tmp/moat-e2e-replay.png' });
    await op.goto(`/operator/errors/${group.id}`);
    await op.getByTestId('error-occurrence').first().waitFor();
    assert.match(await op.getByTestId('occurrence-replay-link').first().getAttribute('href'), new RegExp(`/operator/sessions/${id}\\?t=\\d+`));
    await op.goto('/operator/feedback');
    const fb = op.getByTestId('feedback-row').filter({ hasText: '차트가 느려요 e2e' });
    await fb.first().waitFor();
    assert.match(await fb.first().getByTestId('feedback-session-link').getAttribute('href'), new RegExp(`/operator/sessions/${id}`));
    assert.deepEqual(console_.errors, [], 'the console logged errors');
  });

  test('the browser exports its metrics once a minute (spec §9), not every 5 s', async () => {
    const { context, page } = await env.newPage({ viewport: { width: 1280, height: 800 } });
    const metricExports = [];
    context.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v1/metrics') metricExports.push(r);
    });
    // A page clock the test moves (the recorder's uploads run in a worker on real time).
    await page.clock.install();
    await context.addInitScript(() => {
      // Recording skips webdriver browsers unless a test runner is there (spec §4).
      window.Cypress = {};
      // Notes when (page time) the client schedules its metric export, and how often.
      const schedule = window.setInterval;
      window.setInterval = function (handler, ms, ...rest) {
        if (ms >= 1000) (window.__intervals ??= []).push({ ms, at: Date.now() });
        return schedule.call(this, handler, ms, ...rest);
      };
    });
    await page.goto('/');
    // The metric reader is the client's only interval of a minute or less that recording
    // starts; the recorder starts once the page has settled.
    const scheduled = await eventually(
      async () => {
        const intervals = await page.evaluate(() => window.__intervals ?? []);
        const reader = intervals.find((i) => i.ms === METRIC_EXPORT_INTERVAL_MS);
        assert.ok(reader, `no metric export scheduled: ${JSON.stringify(intervals)}`);
        return reader;
      },
      { timeout: PUSH_WAIT_MS, interval: 200 },
    );
    // Stop the page clock (a little ahead of its time, which keeps running meanwhile).
    for (let ahead = 200; ; ahead *= 2) {
      const now = await page.evaluate(() => Date.now());
      try {
        await page.clock.pauseAt(now + ahead);
        break;
      } catch (error) {
        if (!/to the past/.test(String(error)) || ahead > 10_000) throw error;
      }
    }
    const elapsed = (await page.evaluate(() => Date.now())) - scheduled.at;
    assert.ok(elapsed < METRIC_EXPORT_INTERVAL_MS - 1000, `the test came too late: ${elapsed} ms`);
    // Up to a second before the minute: nothing leaves.
    await page.clock.runFor(METRIC_EXPORT_INTERVAL_MS - elapsed - 1000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(metricExports.length, 0, 'metrics were exported before 60 s');
    // The minute: one export, with the metrics recorded so far.
    await page.clock.runFor(2000);
    await eventually(() => metricExports.length === 1, { timeout: 5000, interval: 100 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(metricExports.length, 1);
  });
});
