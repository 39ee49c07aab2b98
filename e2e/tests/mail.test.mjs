/**
 * Password reset by e-mail, end to end: the server sends through a real local SMTP server
 * (`support/smtp.mjs`); the test reads the mail, opens its link in the browser, sets a
 * new password and logs in with it.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { memberDetails, signUp } from '../support/members.mjs';
import { startServer } from '../support/server.mjs';
import { freePort, startSmtpSink } from '../support/smtp.mjs';

const OLD_PASSWORD = 'e2e old password 1';
const NEW_PASSWORD = 'e2e brand new password 2';

let env;
let sink;
before(async () => {
  sink = await startSmtpSink();
  // The links in mail point at public_url, so the server's address is chosen up front.
  const port = await freePort();
  const server = await startServer({
    env: {
      MOAT_PORT: String(port),
      MOAT_PUBLIC_URL: `http://127.0.0.1:${port}`,
      MOAT_MAIL_HOST: '127.0.0.1',
      MOAT_MAIL_PORT: String(sink.port),
      MOAT_MAIL_TLS: 'none',
      MOAT_MAIL_FROM: 'Moat <no-reply@moat.test>',
    },
  });
  env = await launch({ server });
});
afterEach(() => env.closeContexts());
after(async () => {
  await env?.close();
  await env?.server.stop();
  await sink?.close();
});

test('a member who forgot the password resets it through the mailed link and logs in', async () => {
  const member = memberDetails('reset');
  await signUp(env.server, member, OLD_PASSWORD);
  const { page, errors } = await env.newPage();

  await page.goto('/login');
  await page.getByRole('link', { name: '비밀번호를 잊으셨나요?' }).click();
  await page.getByRole('heading', { name: '비밀번호를 잊으셨나요?' }).waitFor();
  await page.getByRole('textbox', { name: '이메일' }).fill(member.email);
  await page.getByRole('button', { name: '재설정 링크 받기' }).click();
  await page.getByRole('status').filter({ hasText: member.email }).waitFor();

  const mail = await eventually(
    () => sink.mailsTo(member.email).find((m) => m.link?.includes('/reset-password#token=')) ?? false,
    { message: 'the reset mail arrives' },
  );
  assert.match(mail.head, /^Subject: /m);
  assert.ok(mail.link.startsWith(`${env.server.url}/reset-password#token=`), mail.link);

  await page.goto(mail.link);
  await page.getByRole('heading', { name: '새 비밀번호 정하기' }).waitFor();
  assert.ok(!page.url().includes('token='), 'the token leaves the address bar');
  await page.getByLabel('새 비밀번호').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: '비밀번호 바꾸기' }).click();
  await page.getByTestId('header-member').filter({ hasText: member.nickname }).waitFor();

  // Log out, then in again with the new password; the old one no longer works.
  await page.evaluate(() => localStorage.removeItem('AUTH_TOKEN'));
  await page.goto('/login');
  await page.getByRole('textbox', { name: '이메일' }).fill(member.email);
  await page.getByLabel('비밀번호', { exact: true }).fill(OLD_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('form-error').filter({ hasText: '이메일 또는 비밀번호가 맞지 않습니다.' }).waitFor();
  await page.getByLabel('비밀번호', { exact: true }).fill(NEW_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('header-member').filter({ hasText: member.nickname }).waitFor();

  // The link was single use.
  await page.goto(mail.link);
  await page.getByLabel('새 비밀번호').fill('e2e third password 3');
  await page.getByRole('button', { name: '비밀번호 바꾸기' }).click();
  await page.getByTestId('reset-expired').waitFor();
  // The refused old password (401) and the used link (422) are answers the page shows.
  assertNoErrors(errors, { ignore: [/status of 401/, /status of 422/] });
});
