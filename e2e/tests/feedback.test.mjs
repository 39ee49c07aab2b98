/**
 * Feedback without the session recorder (issue 17 §5, docs/observability.md "Feedback
 * without the recorder"): a browser driven by webdriver without a test runner is not
 * recorded (spec §4), so the feedback form sends straight to the server's own store
 * (`POST /api/feedback`). The operator finds it in the feedback list, a member's bound to
 * the member; nothing goes to the recorder's ingest.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { signUp } from '../support/members.mjs';

const PASSWORD = 'feedback e2e password 1';

let env;
before(async () => {
  env = await launch();
});
afterEach(() => env.closeContexts());
after(() => env?.close());

async function get(token, path) {
  const response = await fetch(`${env.server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
  return response.json();
}

describe('feedback with the recorder off', () => {
  test('a visitor’s and a member’s feedback reach the operator’s list', async () => {
    // The first account is the instance's operator.
    const operator = await signUp(env.server, { email: `fbop${Date.now().toString(36)}@example.com`, nickname: `fbop${Date.now().toString(36)}` }, PASSWORD);
    const nickname = `fb${Date.now().toString(36)}`;
    const member = await signUp(env.server, { email: `${nickname}@example.com`, nickname }, PASSWORD);
    const { user_id: memberId } = await get(member, '/api/me');

    for (const who of ['visitor', 'member']) {
      const { context, page, errors } = await env.newPage({ viewport: { width: 390, height: 844 } });
      const ingest = [];
      const direct = [];
      context.on('request', (r) => {
        const { pathname } = new URL(r.url());
        if (pathname === '/public') ingest.push(r);
        if (pathname === '/api/feedback') direct.push(r);
      });
      if (who === 'member') await context.addInitScript((token) => localStorage.setItem('AUTH_TOKEN', token), member);
      await page.goto('/settings');
      await page.getByRole('button', { name: '의견 보내기' }).click();
      const dialog = page.getByRole('dialog', { name: '의견 보내기' });
      await dialog.getByLabel('의견').fill(`${who} 차트가 느려요`);
      await dialog.getByLabel('이메일 (선택)').fill(`${who}@example.com`);
      await dialog.getByRole('button', { name: '보내기' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('의견을 보냈습니다').first().waitFor();
      assert.equal(direct.length, 1, `${who}: sent to the server's own store`);
      assert.equal(ingest.length, 0, `${who}: nothing went to the recorder's ingest`);
      assertNoErrors(errors);
    }

    const { feedback } = await eventually(async () => {
      const list = await get(operator, '/api/operator/observe/feedback');
      assert.equal(list.feedback.length, 2, JSON.stringify(list));
      return list;
    });
    const byText = Object.fromEntries(feedback.map((f) => [f.verbatim, f]));
    assert.equal(byText['member 차트가 느려요'].member, String(memberId), 'bound to the member by the token');
    assert.equal(byText['member 차트가 느려요'].user_email, 'member@example.com');
    assert.equal(byText['visitor 차트가 느려요'].member, null);
  });
});
