/**
 * Moat's default feeds turned on with no network at all (issue 19, "Done when"): the
 * news screens say plainly that the feeds can't be reached, and the operator's feeds
 * page shows each feed's error. The test runs itself again inside a network namespace
 * of its own (`unshare -rn`, only the loopback up): the server, Chromium and the test
 * share the loopback, and no packet can leave the machine — the default feeds are real
 * outside hosts (Korean outlets, DART, SEC), which the tests must never contact.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { newMember as signUpMember } from '../support/members.mjs';

const INSIDE = process.env.MOAT_E2E_NETNS === '1';

if (!INSIDE) {
  test('the offline news checks pass inside a network namespace without a network', () => {
    const self = fileURLToPath(import.meta.url);
    // The runner's own variable would make the inner runner report to it, not print.
    const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
    const run = spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up && exec node --test --test-reporter=tap "$0"', self], {
      env: { ...outer, MOAT_E2E_NETNS: '1' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (run.error) throw new Error(`cannot start unshare (util-linux) for a namespace without a network: ${run.error.message}`);
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /# pass 2/, run.stdout);
  });
} else {
  let env;
  let token;
  before(async () => {
    env = await launch({
      serverEnv: { MOAT_NEWS_DEFAULT_FEEDS: 'true', MOAT_NEWS_POLL_TICK_SECS: '1' },
    });
    token = (await signUpMember(env.server, { prefix: 'offline' })).token;
    // The poller's first cycle: every default feed fails (no resolver, no route).
    await eventually(
      async () => {
        const response = await fetch(`${env.server.url}/api/admin/news/feeds`, { headers: { authorization: `Bearer ${token}` } });
        const { feeds } = await response.json();
        assert.ok(feeds.length >= 5, `default feeds: ${feeds.length}`);
        assert.ok(feeds.every((f) => f.status === 'error'), JSON.stringify(feeds.map((f) => f.status)));
      },
      { timeout: 30_000, interval: 250 },
    );
  });
  after(() => env?.close());

  describe('default feeds without a network', () => {
    test('the news screen and home say the feeds cannot be reached', async () => {
      const { page, errors } = await env.newPage({ viewport: { width: 360, height: 740 } });
      await page.goto('/news');
      await page.getByText('뉴스 피드에 연결할 수 없어요').waitFor();
      await page.getByText('마지막 수신: 아직 없음').waitFor();
      await page.goto('/');
      await page.getByText('뉴스 피드에 연결할 수 없어요').waitFor();
      assertNoErrors(errors);
    });

    test("the operator's feeds page shows each feed's error", async () => {
      const { page, context, errors } = await env.newPage({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript((t) => localStorage.setItem('AUTH_TOKEN', t), token);
      await page.goto('/operator/news');
      const list = page.getByRole('list', { name: '피드 목록' });
      await list.waitFor();
      const cards = list.getByRole('listitem');
      const count = await cards.count();
      assert.ok(count >= 5);
      for (let i = 0; i < count; i += 1) {
        const text = await cards.nth(i).innerText();
        assert.match(text, /오류/, text);
        assert.match(text, /오류 내용[\s\S]*(connect|dns|resolve|network)/i, text);
      }
      assertNoErrors(errors);
    });
  });
}
