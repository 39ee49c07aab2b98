/**
 * Naver log-in in the browser against a local provider speaking Naver Login's protocol
 * (e2e/support/naver.mjs): the button shows because Naver is configured, the consent
 * page sends the member back, the sign-up form offers Naver's nickname, and the next
 * log-in goes straight through; cancelling on Naver's page says so on Moat's.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, launch } from '../support/fixtures.mjs';
import { startNaverProvider } from '../support/naver.mjs';
import { startServer } from '../support/server.mjs';

const NICKNAME = '네이버개미';

let env;
let naver;
let configDir;
before(async () => {
  naver = await startNaverProvider({ person: { id: '32742776', email: 'ant@naver.com', nickname: NICKNAME } });
  configDir = await mkdtemp(path.join(tmpdir(), 'moat-e2e-naver-'));
  const config = path.join(configDir, 'moat.toml');
  await writeFile(config, naver.tomlEntry());
  const server = await startServer({ env: { MOAT_CONFIG: config } });
  env = await launch({ server });
});
afterEach(() => env.closeContexts());
after(async () => {
  await env?.close();
  await env?.server.stop();
  await naver?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

describe('Naver log-in', () => {
  test('cancelling on Naver’s consent page comes back to the log-in page with a message', async () => {
    const { page, errors } = await env.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: '네이버 계정으로 계속하기' }).click();
    await page.waitForURL((url) => url.origin === naver.base);
    await page.getByRole('button', { name: '취소' }).click();
    await page.getByRole('alert').filter({ hasText: '소셜 로그인을 취소했습니다.' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    assertNoErrors(errors.filter((e) => !e.url?.startsWith(naver.base)));
  });

  test('a new Naver member signs up with Naver’s nickname, then logs straight in', async () => {
    const { page, errors } = await env.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto('/login');
    await page.getByRole('link', { name: '네이버 계정으로 계속하기' }).click();
    await page.waitForURL((url) => url.origin === naver.base);
    await page.getByRole('button', { name: '동의하기' }).click();

    // Back in Moat: Naver's email is shown and its nickname offered.
    const form = page.getByTestId('social-signup-form');
    await form.waitFor();
    assert.equal(await page.getByTestId('social-signup-email').innerText(), 'ant@naver.com');
    assert.equal(await form.getByLabel('닉네임').inputValue(), NICKNAME);
    await form.getByRole('button', { name: '가입하기' }).click();
    await page.getByTestId('header-member').filter({ hasText: NICKNAME }).waitFor();

    // Log out; the next Naver log-in needs no sign-up.
    await page.goto('/settings/account');
    await page.getByTestId('logout').click();
    await page.getByTestId('header-login').waitFor();
    await page.goto('/login');
    await page.getByRole('link', { name: '네이버 계정으로 계속하기' }).click();
    await page.getByRole('button', { name: '동의하기' }).click();
    await page.getByTestId('header-member').filter({ hasText: NICKNAME }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the token is not left in the address bar');
    assert.equal(naver.calls.token, 2);
    assert.equal(naver.calls.profile, 2);
    assertNoErrors(errors.filter((e) => !e.url?.startsWith(naver.base)));
  });
});
