/**
 * Settings is for members (issue 17 §4): language, account, the terms and the privacy
 * policy, the operator's contact, feedback; a member logs out or deletes the account from
 * here (the deletion asks for the password); a visitor gets the log-in link. The
 * developers' tools (version, clock, bridge buttons) are not here.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, launch } from '../support/fixtures.mjs';
import { newMember } from '../support/members.mjs';

let env;
before(async () => {
  env = await launch({ serverEnv: { MOAT_CONTACT_EMAIL: 'help@moat.example' } });
});
afterEach(() => env.closeContexts());
after(() => env?.close());

describe('settings', () => {
  test('a visitor sees the language, the account’s log-in link, the terms, the contact and feedback; no developers’ tools', async () => {
    const { page, errors } = await env.newPage({ viewport: { width: 360, height: 740 } });
    await page.goto('/settings');
    const account = page.getByRole('region', { name: '계정' });
    assert.equal(await account.getByRole('link', { name: '로그인' }).getAttribute('href'), '/login?next=%2Fsettings');
    await page.getByRole('button', { name: '이용약관' }).click();
    await page.getByRole('dialog', { name: '이용약관' }).waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await page.getByRole('link', { name: 'help@moat.example' }).getAttribute('href'), 'mailto:help@moat.example');
    assert.equal(await page.getByRole('button', { name: '의견 보내기' }).count(), 1);
    assert.equal(await page.getByText('서버 버전').count(), 0);
    assert.equal(await page.getByText('앱 연동').count(), 0);
    assertNoErrors(errors);
  });

  test('a member deletes the account from settings with the password', async () => {
    const member = await newMember(env.server);
    const { context, page } = await env.newPage({ viewport: { width: 360, height: 740 } });
    await context.addInitScript((t) => localStorage.setItem('AUTH_TOKEN', t), member.token);
    await page.goto('/settings');
    await page.getByRole('button', { name: '계정 삭제' }).click();
    const dialog = page.getByRole('dialog', { name: '계정을 삭제할까요?' });
    await dialog.getByLabel('비밀번호').fill(member.password);
    await dialog.getByRole('button', { name: '영구 삭제' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: '계정' }).getByRole('link', { name: '로그인' }).waitFor();
    assert.equal(new URL(page.url()).search, '', 'the modal closed');
    const me = await fetch(`${env.server.url}/api/me`, { headers: { authorization: `Bearer ${member.token}` } });
    assert.equal(me.status, 401, 'the account and its sessions are gone');
  });
});
