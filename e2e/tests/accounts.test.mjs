/**
 * Accounts in the browser: sign-up → log-out → log-in with a password, pages that need a
 * member, social log-in against a real local OpenID provider (`oidc-provider`), the last
 * platform first, and token expiry judged by the server's clock, not the browser's.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { assertNoErrors, eventually, launch } from '../support/fixtures.mjs';
import { memberDetails, signUp } from '../support/members.mjs';
import { startOidcProvider } from '../support/oidc.mjs';
import { startServer } from '../support/server.mjs';

/** Lifetime of tokens in this suite: short enough that a skewed clock matters. */
const TOKEN_LIFETIME_SECS = 3600;
const HOUR_MS = 3600 * 1000;
const PASSWORD = 'correct horse battery 7';

let env;
let idp;
let configDir;
before(async () => {
  // The provider listens first, Moat is configured with its issuer, then the provider
  // learns Moat's callback URL.
  idp = await startOidcProvider();
  configDir = await mkdtemp(path.join(tmpdir(), 'moat-e2e-config-'));
  const config = path.join(configDir, 'moat.toml');
  await writeFile(config, `[auth]\ntoken_lifetime_secs = ${TOKEN_LIFETIME_SECS}\n\n${idp.tomlEntry()}`);
  const server = await startServer({ env: { MOAT_CONFIG: config } });
  idp.allowRedirect(`${server.url}/api/auth/oidc/${idp.id}/callback`);
  env = await launch({ server });
});
afterEach(() => env.closeContexts());
after(async () => {
  await env?.close();
  await env?.server.stop();
  await idp?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

/** The token's payload, decoded the way any client would. */
function payloadOf(token) {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

const storedToken = (page) => page.evaluate(() => localStorage.getItem('AUTH_TOKEN'));

async function signUpInBrowser(page, { email, nickname }) {
  await page.goto('/signup');
  const form = page.getByTestId('signup-form');
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(PASSWORD);
  await form.locator('input[name="nickname"]').fill(nickname);
  await page.getByTestId('signup-submit').click();
  await page.getByTestId('header-member').filter({ hasText: nickname }).waitFor();
}

async function logInInBrowser(page, email, password = PASSWORD) {
  const form = page.getByTestId('login-form');
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Signs up through the API (no browser) and returns the token. */
const signUpByApi = (member) => signUp(env.server, member, PASSWORD);

const me = (token) => fetch(`${env.server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });

describe('accounts', () => {
  test('sign up, log out and log in again with the password', async () => {
    const { page, errors } = await env.newPage({ viewport: { width: 360, height: 740 } });
    const member = memberDetails();
    await signUpInBrowser(page, member);

    const token = await storedToken(page);
    const claims = payloadOf(token);
    assert.equal(claims.data.nickname, member.nickname);
    assert.equal(typeof claims.data.user_id, 'number');
    assert.match(claims.data.chat_user_id, /^[0-9a-f-]{36}$/);
    assert.ok(claims.exp > Date.now() / 1000);
    assert.equal((await me(token)).status, 200);

    await page.getByTestId('header-member').click();
    await page.getByTestId('account-page').waitFor();
    assert.equal(await page.getByTestId('account-email').innerText(), member.email);
    await page.getByTestId('logout').click();
    await page.getByTestId('header-login').waitFor();
    assert.equal(await storedToken(page), null);
    // Logging out ends the session on the server too, not only in this tab.
    await eventually(async () => assert.equal((await me(token)).status, 401));

    await page.getByTestId('header-login').click();
    await page.getByTestId('login-form').waitFor();
    await logInInBrowser(page, member.email.toUpperCase());
    await page.getByTestId('header-member').filter({ hasText: member.nickname }).waitFor();
    assert.equal(payloadOf(await storedToken(page)).data.user_id, claims.data.user_id);
    assertNoErrors(errors, { ignore: [/status of 401/] });
  });

  test('a wrong password is refused with a message and nothing is stored', async () => {
    const { page, errors } = await env.newPage();
    const member = memberDetails();
    await signUpByApi(member);
    await page.goto('/login');
    await logInInBrowser(page, member.email, 'not the password 123');
    await page.getByTestId('form-error').waitFor();
    assert.ok((await page.getByTestId('form-error').innerText()).trim().length > 0);
    assert.equal(await storedToken(page), null);
    assert.equal(await page.getByTestId('header-login').count(), 1);
    assertNoErrors(errors, { ignore: [/status of 401/] });
  });

  test('a page that needs a member sends a visitor to log in and back', async () => {
    const { page, errors } = await env.newPage();
    const member = memberDetails();
    await signUpByApi(member);
    await page.goto('/settings/account');
    await eventually(() => {
      const url = new URL(page.url());
      assert.equal(url.pathname, '/login');
      assert.equal(url.searchParams.get('next'), '/settings/account');
    });
    await logInInBrowser(page, member.email);
    await page.getByTestId('account-page').waitFor();
    assert.equal(new URL(page.url()).pathname, '/settings/account');
    assertNoErrors(errors);
  });

  test('social log-in through the local OpenID provider creates the member, then logs in; the last platform comes first', async () => {
    const { page, errors } = await env.newPage({ viewport: { width: 1280, height: 900 } });
    const login = `social${Date.now().toString(36)}`;

    await page.goto('/login');
    // Email first while nothing is remembered.
    assert.equal(await page.evaluate(() => localStorage.getItem('MOAT_LOGIN_PLATFORM')), null);
    await page.getByTestId(`oidc-provider-${idp.id}`).click();

    // The provider's own log-in and consent screens (oidc-provider's development UI).
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('anything');
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]', { hasText: /continue/i }).click();

    // Back in Moat: a new identity with a new email asks for a nickname.
    await page.getByTestId('social-signup-form').waitFor();
    assert.equal(await page.getByTestId('social-signup-email').innerText(), `${login}@example.test`);
    assert.equal(new URL(page.url()).hash, '', 'the ticket is taken out of the address bar');
    await page.getByTestId('social-signup-form').locator('input[name="nickname"]').fill(login.slice(0, 20));
    await page.getByTestId('social-signup-form').locator('button[type="submit"]').click();
    await page.getByTestId('header-member').filter({ hasText: login.slice(0, 20) }).waitFor();
    const first = payloadOf(await storedToken(page));
    assert.equal(await page.evaluate(() => localStorage.getItem('MOAT_LOGIN_PLATFORM')), idp.id);

    // Log out, then the log-in screen puts the provider first and marks it.
    await page.goto('/settings/account');
    await page.getByTestId('logout').click();
    await page.getByTestId('header-login').waitFor();
    await page.goto('/login');
    const provider = page.getByTestId(`oidc-provider-${idp.id}`);
    await provider.waitFor();
    const providerFirst = await page.evaluate(
      ([providerId]) => {
        const button = document.querySelector(`[data-testid="oidc-provider-${providerId}"]`);
        const form = document.querySelector('[data-testid="login-form"]');
        return Boolean(button && form && button.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING);
      },
      [idp.id],
    );
    assert.ok(providerFirst, 'the last used provider is shown before the email form');

    // A known identity logs straight in (the provider remembers its own session).
    await provider.click();
    await page.getByTestId('header-member').filter({ hasText: login.slice(0, 20) }).waitFor();
    assert.equal(payloadOf(await storedToken(page)).data.user_id, first.data.user_id);
    assert.equal(new URL(page.url()).hash, '', 'the token is not left in the address bar');
    assert.ok(idp.logins.includes(login));
    // Only Moat's pages count: the provider's development pages ask for web fonts this
    // machine cannot reach and for a favicon it does not have.
    const moatErrors = errors.filter((e) => !e.url?.startsWith(idp.issuer) && !e.url?.startsWith("https://fonts.googleapis.com/"));
    assertNoErrors(moatErrors);
  });

  test('a token valid by the server\'s clock stays valid when the browser\'s clock runs ahead', async () => {
    const member = memberDetails();
    const token = await signUpByApi(member);
    const { page, context, errors } = await env.newPage();
    // The browser believes it is two hours later: by its own clock the 1-hour token expired.
    await page.clock.setSystemTime(Date.now() + 2 * HOUR_MS);
    await context.addInitScript((t) => localStorage.setItem('AUTH_TOKEN', t), token);
    await page.goto('/settings');
    // The first API answer's Date header gives the offset; the token is valid again.
    await page.getByTestId('header-member').filter({ hasText: member.nickname }).waitFor();
    assert.equal(await storedToken(page), token);
    assertNoErrors(errors);
  });

  test('a token expired by the server\'s clock is not used even when the browser\'s clock runs behind', async () => {
    const member = memberDetails();
    const token = await signUpByApi(member);
    // The same token, re-signed with the server's own key (in its data directory) so that
    // it expired a minute ago by the server's clock.
    const key = Buffer.from((await readFile(path.join(env.server.dataDir, 'token-key'), 'utf8')).trim(), 'base64');
    const [header] = token.split('.');
    const payload = { ...payloadOf(token), exp: Math.floor(Date.now() / 1000) - 60 };
    const body = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const expired = `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;

    const { page, context, errors } = await env.newPage();
    // Two hours behind, the browser's own clock would call the token valid.
    await page.clock.setSystemTime(Date.now() - 2 * HOUR_MS);
    await context.addInitScript((t) => localStorage.setItem('AUTH_TOKEN', t), expired);
    const sent = [];
    page.on('request', (request) => {
      const authorization = request.headers().authorization;
      if (authorization) sent.push(authorization);
    });
    const meta = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/meta');
    await page.goto('/settings');
    await meta;
    // Once the server's Date is known, the app treats the visitor as logged out.
    await page.getByTestId('header-login').waitFor();
    assert.equal(await page.getByTestId('header-member').count(), 0);
    assert.ok(
      sent.every((value) => value !== `Bearer ${expired}`) || sent.length <= 1,
      `the expired token was sent again after the clock was corrected: ${sent.length} times`,
    );
    assertNoErrors(errors, { ignore: [/status of 401/] });
  });
});
