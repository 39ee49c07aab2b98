/**
 * Consent at sign-up: with terms and a privacy policy published by the operator, the
 * sign-up form asks for both, refuses to go on without them, and the account records
 * them; a new version of the terms is asked for before the member goes on.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { assertNoErrors, launch } from '../support/fixtures.mjs';
import { api, memberDetails, newMember } from '../support/members.mjs';

const PASSWORD = 'e2e consent password 1';

let env;
let operator;
before(async () => {
  env = await launch();
  // The first account of a fresh install is the operator.
  operator = await newMember(env.server, { prefix: 'op' });
  await api(env.server, operator.token, 'PUT', '/api/admin/legal/terms', { body: '제1조 Moat 이용약관 첫 판.' });
  await api(env.server, operator.token, 'PUT', '/api/admin/legal/privacy', { body: '개인정보 처리방침 첫 판.' });
});
afterEach(() => env.closeContexts());
after(async () => {
  await env?.close();
});

test('signing up asks for the terms and the privacy policy, and a new version is asked again', async () => {
  const member = memberDetails('consent');
  const { page, errors } = await env.newPage();
  await page.goto('/signup');
  const form = page.getByTestId('signup-form');
  await form.getByLabel('이메일').fill(member.email);
  await form.getByLabel('비밀번호').fill(PASSWORD);
  await form.getByLabel('닉네임').fill(member.nickname);

  const terms = form.getByRole('checkbox', { name: '이용약관(제1판)에 동의합니다' });
  const privacy = form.getByRole('checkbox', { name: '개인정보 처리방침(제1판)에 동의합니다' });
  await form.getByText('이용약관 읽기').click();
  await form.getByText('제1조 Moat 이용약관 첫 판.').waitFor();

  await terms.check();
  await page.getByTestId('signup-submit').click();
  await form.getByText('계속하려면 모든 항목에 동의해 주세요.').waitFor();
  await privacy.check();
  await page.getByTestId('signup-submit').click();
  await page.getByTestId('header-member').filter({ hasText: member.nickname }).waitFor();

  const token = await page.evaluate(() => localStorage.getItem('AUTH_TOKEN'));
  const me = await api(env.server, token, 'GET', '/api/me');
  assert.deepEqual(me.consent_required, []);

  // The operator publishes new terms: the member is asked before going on.
  await api(env.server, operator.token, 'PUT', '/api/admin/legal/terms', { body: '제1조 Moat 이용약관 둘째 판.' });
  await page.reload();
  const dialog = page.getByRole('dialog', { name: '새 약관에 동의해 주세요' });
  await dialog.waitFor();
  await dialog.getByRole('checkbox', { name: '이용약관(제2판)에 동의합니다' }).check();
  await dialog.getByRole('button', { name: '동의하고 계속하기' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.deepEqual((await api(env.server, token, 'GET', '/api/me')).consent_required, []);
  assertNoErrors(errors);
});
