import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setLocale } from '@/shared/i18n/i18n';
import { jsonResponse, TEST_META, type FetchHandler } from '@/test/fetch';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';

const PROVIDERS = [
  { id: 'kakao', name: '카카오', preset: 'kakao' },
  { id: 'google', name: 'Google', preset: 'google' },
];

const ME = {
  user_id: 1,
  chat_user_id: 'chat-1',
  email: 'ant@example.com',
  nickname: '개미',
  role: 'member',
  premium: true,
  has_password: true,
  providers: ['kakao'],
  created_at: '2025-01-02T03:04:05Z',
};

const error = (status: number, code: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  jsonResponse({ code, message: `server says ${code}`, request_id: 'r', ...extra }, { status, headers });

type Call = { method: string; path: string; body: unknown; auth: string | undefined };

/** An API double: `routes['POST /api/auth/login']` answers that request; records every call. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route reads the body it expects
function api(routes: Record<string, (body: any, call: Call) => Response> = {}) {
  const calls: Call[] = [];
  const handler: FetchHandler = (url, init) => {
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { method, path: url.pathname + url.search, body, auth: (init?.headers as Record<string, string> | undefined)?.Authorization };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (route) return route(body, call);
    if (url.pathname === '/api/meta') return jsonResponse(TEST_META);
    if (url.pathname === '/api/auth/oidc/providers') return jsonResponse(PROVIDERS);
    if (url.pathname === '/api/me' && method === 'GET') return jsonResponse(ME);
    return error(404, 'not_found');
  };
  // The same path (`/api/me` is not `/api/meta`), and the query when one is given.
  const samePath = (called: string, path: string) => called.split('?')[0] === path.split('?')[0] && called.startsWith(path);
  return { handler, calls, find: (method: string, path: string) => calls.filter((c) => c.method === method && samePath(c.path, path)) };
}

function logIn(options: Parameters<typeof makeToken>[0] = {}) {
  const token = makeToken(options);
  window.localStorage.setItem('AUTH_TOKEN', token);
  return token;
}

const field = (form: HTMLElement, label: string) => within(form).getByLabelText(label) as HTMLInputElement;
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('header', () => {
  it('shows a log-in link for visitors, back to the current page', async () => {
    const app = renderApp({ route: '/settings?x=1' });
    const link = await screen.findByTestId('header-login');
    expect(link.textContent).toBe('로그인');
    expect(link.getAttribute('href')).toBe('/login?next=%2Fsettings%3Fx%3D1');
    expect(screen.queryByTestId('header-member')).toBeNull();
    fireEvent.click(link);
    await screen.findByTestId('login-form');
    expect(app.location().search).toBe('?next=%2Fsettings%3Fx%3D1');
  });

  it("shows the member's nickname, linking to the account page", async () => {
    logIn({ nickname: '개미' });
    renderApp();
    const member = await screen.findByTestId('header-member');
    expect(member.textContent).toBe('개미');
    expect(member.getAttribute('href')).toBe('/settings/account');
    expect(member.getAttribute('aria-label')).toBe('내 계정: 개미');
    expect(screen.queryByTestId('header-login')).toBeNull();
  });

  it('a corrupt or expired stored token reads as a visitor, without a crash', async () => {
    window.localStorage.setItem('AUTH_TOKEN', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig');
    const app = renderApp();
    expect(await screen.findByTestId('header-login')).toBeTruthy();
    app.unmount();
    logIn({ exp: Math.floor(Date.now() / 1000) - 5 });
    renderApp();
    expect(await screen.findByTestId('header-login')).toBeTruthy();
  });

  it('navigation lists no auth pages', async () => {
    renderApp({ route: '/login' });
    await screen.findByTestId('login-form');
    const hrefs = within(screen.getByTestId('app-nav'))
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs.length).toBeGreaterThan(0);
    expect(hrefs.filter((h) => /^\/(login|signup|settings\/account|u\/)/.test(h ?? ''))).toEqual([]);
  });

  it('follows a log-in in another tab', async () => {
    renderApp();
    await screen.findByTestId('header-login');
    const token = makeToken({ nickname: '다른탭' });
    act(() => {
      window.localStorage.setItem('AUTH_TOKEN', token);
      window.dispatchEvent(new StorageEvent('storage', { key: 'AUTH_TOKEN', newValue: token }));
    });
    expect((await screen.findByTestId('header-member')).textContent).toBe('다른탭');
    act(() => {
      window.localStorage.removeItem('AUTH_TOKEN');
      window.dispatchEvent(new StorageEvent('storage', { key: 'AUTH_TOKEN', newValue: null }));
    });
    expect(await screen.findByTestId('header-login')).toBeTruthy();
  });
});

describe('log-in', () => {
  it('RequireAuth sends a visitor to /login?next=… and back after logging in', async () => {
    const token = makeToken({ nickname: '개미' });
    const server = api({ 'POST /api/auth/login': () => jsonResponse({ token }) });
    const app = renderApp({ route: '/settings/account?tab=x', api: server.handler });
    const form = await screen.findByTestId('login-form');
    expect(app.location().pathname).toBe('/login');
    expect(new URLSearchParams(app.location().search).get('next')).toBe('/settings/account?tab=x');
    expect(document.title).toBe('로그인 — Moat');

    type(field(form, '이메일'), ' ant@example.com ');
    type(field(form, '비밀번호'), 'correct horse battery');
    fireEvent.submit(form);
    expect(await screen.findByTestId('account-page')).toBeTruthy();
    expect(app.location().pathname + app.location().search).toBe('/settings/account?tab=x');
    expect(server.find('POST', '/api/auth/login')[0]!.body).toEqual({ email: 'ant@example.com', password: 'correct horse battery' });
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(token);
    expect(window.localStorage.getItem('MOAT_LOGIN_PLATFORM')).toBe('email');
    expect(server.find('GET', '/api/me')[0]!.auth).toBe(`Bearer ${token}`);
  });

  it.each(['//evil.com', 'https://evil.com', '/\\evil'])('goes to / for next=%s', async (next) => {
    const server = api({ 'POST /api/auth/login': () => jsonResponse({ token: makeToken() }) });
    const app = renderApp({ route: `/login?next=${encodeURIComponent(next)}`, api: server.handler });
    const form = await screen.findByTestId('login-form');
    type(field(form, '이메일'), 'a@b.co');
    type(field(form, '비밀번호'), 'whatever-password');
    fireEvent.submit(form);
    await waitFor(() => expect(app.location().pathname).toBe('/'));
    expect(app.location().search).toBe('');
  });

  it('checks the fields, then says when the credentials are wrong', async () => {
    const server = api({ 'POST /api/auth/login': () => error(401, 'invalid_credentials') });
    renderApp({ route: '/login', api: server.handler });
    const form = await screen.findByTestId('login-form');
    fireEvent.submit(form);
    const email = field(form, '이메일');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)!.textContent).toBe('이메일을 입력해 주세요.');
    expect(server.find('POST', '/api/auth/login')).toHaveLength(0);

    type(email, 'ant@example.com');
    type(field(form, '비밀번호'), 'wrong');
    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByTestId('form-error').textContent).toBe('이메일 또는 비밀번호가 맞지 않습니다.'));
    expect(screen.getByTestId('form-error').getAttribute('role')).toBe('alert');
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBeNull();
  });

  it('429: says how long to wait and keeps the button disabled until then', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = api({ 'POST /api/auth/login': () => error(429, 'rate_limited', {}, { 'Retry-After': '3' }) });
    renderApp({ route: '/login', api: server.handler });
    const form = await screen.findByTestId('login-form');
    type(field(form, '이메일'), 'ant@example.com');
    type(field(form, '비밀번호'), 'password-123');
    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByTestId('form-error').textContent).toBe('시도가 너무 많습니다. 3초 후에 다시 시도해 주세요.'));
    const submit = screen.getByTestId('login-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('form-error').textContent).toContain('2초');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(submit.disabled).toBe(false);
    expect(screen.getByTestId('form-error').textContent).toBe('');
  });

  it('lists the providers, the last one used first and marked, each starting the server flow', async () => {
    window.localStorage.setItem('MOAT_LOGIN_PLATFORM', 'google');
    renderApp({ route: '/login?next=%2Fsettings', api: api().handler });
    const google = await screen.findByTestId('oidc-provider-google');
    const kakao = screen.getByTestId('oidc-provider-kakao');
    expect(google.compareDocumentPosition(kakao) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(google.textContent).toContain('최근 사용');
    expect(kakao.textContent).not.toContain('최근 사용');
    expect(google.getAttribute('href')).toBe('/api/auth/oidc/google/start?next=%2Fsettings&intent=login');
    // Social log-in, the last platform, comes before the email form.
    expect(google.compareDocumentPosition(screen.getByTestId('login-form')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    kakao.addEventListener('click', (e) => e.preventDefault());
    fireEvent.click(kakao);
    expect(window.localStorage.getItem('MOAT_LOGIN_PLATFORM')).toBe('kakao');
  });

  it('email last: the email form comes first, marked', async () => {
    window.localStorage.setItem('MOAT_LOGIN_PLATFORM', 'email');
    renderApp({ route: '/login', api: api().handler });
    const google = await screen.findByTestId('oidc-provider-google');
    const form = screen.getByTestId('login-form');
    expect(form.compareDocumentPosition(google) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByRole('heading', { name: /이메일로 로그인/ }).textContent).toContain('최근 사용');
  });

  it('links a provider: explains, posts the link ticket and drops it from the address bar', async () => {
    const server = api({ 'POST /api/auth/login': () => jsonResponse({ token: makeToken() }) });
    const app = renderApp({ route: '/login#link_ticket=T1&email=ant%40example.com&provider=kakao', api: server.handler });
    const notice = await screen.findByTestId('link-notice');
    await waitFor(() => expect(notice.textContent).toContain('카카오 계정 연결'));
    expect(notice.textContent).toContain('ant@example.com');
    expect(app.location().hash).toBe('');
    const form = screen.getByTestId('login-form');
    expect(field(form, '이메일').value).toBe('ant@example.com');
    type(field(form, '비밀번호'), 'my-password-1');
    fireEvent.submit(form);
    await waitFor(() => expect(app.location().pathname).toBe('/'));
    expect(server.find('POST', '/api/auth/login')[0]!.body).toEqual({
      email: 'ant@example.com',
      password: 'my-password-1',
      link_ticket: 'T1',
    });
    expect(await screen.findByText('카카오 계정을 연결했습니다.')).toBeTruthy();
  });

  it('says when the link ticket is no longer valid', async () => {
    const server = api({
      'POST /api/auth/login': () => error(422, 'invalid_input', {
        fields: { link_ticket: { code: 'ticket_expired', params: {}, message: 'This link request has expired. Log in with the provider again.' } },
      }),
    });
    renderApp({ route: '/login#link_ticket=OLD&email=ant%40example.com&provider=kakao', api: server.handler });
    const form = await screen.findByTestId('login-form');
    type(field(form, '비밀번호'), 'my-password-1');
    fireEvent.submit(form);
    await waitFor(() => expect(screen.getByTestId('form-error').textContent).toBe(
        '로그인 링크가 만료되었거나 이미 쓰였습니다. 처음부터 다시 로그인해 주세요.',
      ),
    );
  });

  it('shows an error handed over in the fragment', async () => {
    renderApp({ route: '/login#error=oidc_cancelled', api: api().handler });
    await screen.findByTestId('login-form');
    expect(screen.getByTestId('form-error').textContent).toBe('소셜 로그인을 취소했습니다.');
  });

  it('a logged-in member visiting /login goes to next', async () => {
    logIn();
    const app = renderApp({ route: '/login?next=%2Fsettings', api: api().handler });
    await waitFor(() => expect(app.location().pathname).toBe('/settings'));
  });

  it('works in English', async () => {
    await act(() => setLocale('en'));
    renderApp({ route: '/login', api: api().handler });
    const form = await screen.findByTestId('login-form');
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    expect(field(form, 'Email').getAttribute('autocomplete')).toBe('email');
    expect(field(form, 'Password').getAttribute('autocomplete')).toBe('current-password');
    expect((await screen.findByTestId('oidc-provider-kakao')).textContent).toContain('Continue with 카카오');
    expect(document.title).toBe('Log in — Moat');
  });
});

describe('sign-up', () => {
  it('shows the rules live and the server field errors next to the fields', async () => {
    const server = api({
      'POST /api/auth/signup': () =>
        error(422, 'invalid_input', {
          fields: {
            password: { code: 'password_too_common', params: {}, message: 'This password is too common; choose another.' },
            email: { code: 'email_invalid', params: {}, message: 'Not an address.' },
          },
        }),
    });
    renderApp({ route: '/signup', api: server.handler });
    const form = await screen.findByTestId('signup-form');
    const password = field(form, '비밀번호');
    expect(password.getAttribute('autocomplete')).toBe('new-password');
    expect(field(form, '닉네임').getAttribute('autocomplete')).toBe('nickname');
    const rule = () => document.getElementById(password.getAttribute('aria-describedby')!.split(' ')[0]!)!.querySelector('.rule')!;
    expect(rule().getAttribute('data-met')).toBe('false');
    type(password, 'password12');
    expect(rule().getAttribute('data-met')).toBe('true');

    type(field(form, '이메일'), 'ant@example.com');
    type(field(form, '닉네임'), '개미_1');
    fireEvent.submit(form);
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = password.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy.map((id) => document.getElementById(id)!.textContent)).toContain('너무 흔한 비밀번호입니다. 다른 비밀번호를 골라 주세요.');
    expect(within(form).getByText('올바른 이메일 주소를 입력해 주세요.')).toBeTruthy();
    expect(within(form).queryByText(/too common|Not an address/)).toBeNull();
    expect(screen.getByTestId('form-error').textContent).toBe('입력한 내용을 확인해 주세요.');
    expect(server.find('POST', '/api/auth/signup')[0]!.body).toEqual({ email: 'ant@example.com', password: 'password12', nickname: '개미_1', consents: [], language: 'ko' });

    // Editing a field clears its server message.
    type(password, 'a much better passphrase');
    expect(password.getAttribute('aria-invalid')).toBeNull();
  });

  it('refuses a short password and a bad nickname before asking the server', async () => {
    const server = api();
    renderApp({ route: '/signup', api: server.handler });
    const form = await screen.findByTestId('signup-form');
    type(field(form, '이메일'), 'ant@example.com');
    type(field(form, '비밀번호'), 'short');
    type(field(form, '닉네임'), 'a b');
    fireEvent.submit(form);
    expect(within(form).getByText('비밀번호는 10자 이상이어야 합니다.')).toBeTruthy();
    expect(within(form).getByText('닉네임에는 한글, 영문, 숫자, 밑줄(_)만 쓸 수 있습니다.')).toBeTruthy();
    type(field(form, '닉네임'), '가');
    expect(within(form).getByText('닉네임은 2~20자여야 합니다.')).toBeTruthy();
    expect(server.find('POST', '/api/auth/signup')).toHaveLength(0);
  });

  it('409 nickname_taken shows on the nickname field; success logs in and goes to next', async () => {
    let taken = true;
    const token = makeToken({ nickname: '개미' });
    const server = api({
      'POST /api/auth/signup': () =>
        taken ? error(409, 'nickname_taken', { fields: { nickname: 'taken' } }) : jsonResponse({ token }, { status: 201 }),
    });
    const app = renderApp({ route: '/signup?next=%2Fsettings', api: server.handler });
    const form = await screen.findByTestId('signup-form');
    type(field(form, '이메일'), 'ant@example.com');
    type(field(form, '비밀번호'), 'long enough password');
    type(field(form, '닉네임'), '개미');
    fireEvent.submit(form);
    await waitFor(() => expect(field(form, '닉네임').getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('이미 사용 중인 닉네임입니다.')).toBeTruthy();
    taken = false;
    fireEvent.submit(form);
    await waitFor(() => expect(app.location().pathname).toBe('/settings'));
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(token);
    expect((await screen.findByTestId('header-member')).textContent).toBe('개미');
  });
});

describe('social sign-up and completion', () => {
  it('/signup/social asks a nickname and posts the ticket', async () => {
    const token = makeToken({ nickname: '새개미' });
    const server = api({ 'POST /api/auth/oidc/signup': () => jsonResponse({ token }, { status: 201 }) });
    const app = renderApp({ route: '/signup/social#ticket=TK&next=%2Fsettings&email=new%40example.com', api: server.handler });
    const form = await screen.findByTestId('social-signup-form');
    expect(screen.getByTestId('social-signup-email').textContent).toBe('new@example.com');
    await waitFor(() => expect(app.location().hash).toBe(''));
    type(field(form, '닉네임'), '새개미');
    fireEvent.submit(form);
    await waitFor(() => expect(app.location().pathname).toBe('/settings'));
    expect(server.find('POST', '/api/auth/oidc/signup')[0]!.body).toEqual({ ticket: 'TK', nickname: '새개미', consents: [] });
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(token);
  });

  it("/signup/social offers the provider's nickname, which the member may keep", async () => {
    const token = makeToken({ nickname: '네이버개미' });
    const server = api({ 'POST /api/auth/oidc/signup': () => jsonResponse({ token }, { status: 201 }) });
    const app = renderApp({
      route: `/signup/social#ticket=TK&next=%2F&email=&nickname=${encodeURIComponent('네이버개미')}`,
      api: server.handler,
    });
    const form = await screen.findByTestId('social-signup-form');
    expect(field(form, '닉네임').value).toBe('네이버개미');
    expect(screen.queryByTestId('social-signup-email')).toBeNull();
    fireEvent.submit(form);
    await waitFor(() => expect(app.location().pathname).toBe('/'));
    expect(server.find('POST', '/api/auth/oidc/signup')[0]!.body).toEqual({ ticket: 'TK', nickname: '네이버개미', consents: [] });
  });

  it('/signup/social without a ticket says to start over', async () => {
    renderApp({ route: '/signup/social', api: api().handler });
    expect(await screen.findByTestId('social-signup-missing')).toBeTruthy();
  });

  it('/auth/complete logs in and replaces history, so the token leaves the URL', async () => {
    const token = makeToken({ nickname: '소셜개미' });
    const app = renderApp({ route: `/auth/complete#token=${token}&next=%2Fsettings`, api: api().handler });
    await waitFor(() => expect(app.location().pathname).toBe('/settings'));
    expect(app.location().hash).toBe('');
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(token);
    expect((await screen.findByTestId('header-member')).textContent).toBe('소셜개미');
  });

  it('/auth/complete with an unsafe next goes home; with a bad token says so', async () => {
    const app = renderApp({ route: `/auth/complete#token=${makeToken()}&next=%2F%2Fevil.com`, api: api().handler });
    await waitFor(() => expect(app.location().pathname).toBe('/'));
    app.unmount();
    window.localStorage.clear();
    renderApp({ route: '/auth/complete#token=garbage', api: api().handler });
    expect(await screen.findByText('로그인을 마치지 못했습니다. 다시 시도해 주세요.')).toBeTruthy();
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBeNull();
  });
});

describe('account page', () => {
  it("shows the member's profile", async () => {
    logIn();
    renderApp({ route: '/settings/account', api: api().handler });
    const page = await screen.findByTestId('account-page');
    expect(await within(page).findByTestId('account-nickname')).toBeTruthy();
    expect(within(page).getByTestId('account-email').textContent).toBe('ant@example.com');
    expect(within(page).getByTestId('account-role').textContent).toBe('회원');
    expect(within(page).getByTestId('premium-badge')).toBeTruthy();
    await waitFor(() => expect(within(page).getByTestId('account-providers').textContent).toBe('카카오'));
    expect(document.title).toBe('계정 — Moat');
    // Members have no way into the operator's console.
    expect(within(page).queryByTestId('operator-console-link')).toBeNull();
  });

  it('gives an operator the way into the console', async () => {
    logIn();
    const app = renderApp({
      route: '/settings/account',
      api: api({ 'GET /api/me': () => jsonResponse({ ...ME, role: 'operator' }) }).handler,
    });
    const page = await screen.findByTestId('account-page');
    await waitFor(() => expect(within(page).getByTestId('account-role').textContent).toBe('운영자'));
    const link = within(page).getByRole('link', { name: '운영 콘솔' });
    expect(link.getAttribute('href')).toBe('/operator/sessions');
    // A full document load, not a client-side navigation: the console's own (replay)
    // Content-Security-Policy only applies to a document the server sends for it.
    // (The app's handlers run first; then the listener notes whether one of them took the
    // click and stops jsdom, which cannot load documents.)
    let handledByApp: boolean | undefined;
    const stopJsdom = (event: Event) => {
      handledByApp = event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', stopJsdom);
    fireEvent.click(link);
    document.removeEventListener('click', stopJsdom);
    expect(handledByApp).toBe(false);
    expect(app.location().pathname).toBe('/settings/account');
  });

  it('changes the nickname and stores the new token', async () => {
    logIn({ nickname: '개미' });
    const renewed = makeToken({ nickname: '황소' });
    const server = api({ 'PATCH /api/me': () => jsonResponse({ token: renewed }) });
    renderApp({ route: '/settings/account', api: server.handler });
    const form = await screen.findByTestId('nickname-form');
    type(field(form, '닉네임'), '황소');
    fireEvent.submit(form);
    await waitFor(() => expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(renewed));
    expect(server.find('PATCH', '/api/me')[0]!.body).toEqual({ nickname: '황소' });
    expect((await screen.findByTestId('header-member')).textContent).toBe('황소');
  });

  it('changes the password with the current one and stores the new token', async () => {
    logIn();
    const renewed = makeToken({ userId: 1 });
    const server = api({ 'POST /api/me/password': () => jsonResponse({ token: renewed }) });
    renderApp({ route: '/settings/account', api: server.handler });
    const form = await screen.findByTestId('password-form');
    expect(field(form, '현재 비밀번호').getAttribute('autocomplete')).toBe('current-password');
    type(field(form, '현재 비밀번호'), 'old-password-1');
    type(field(form, '새 비밀번호'), 'new-password-22');
    fireEvent.submit(form);
    await waitFor(() => expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(renewed));
    expect(server.find('POST', '/api/me/password')[0]!.body).toEqual({ current_password: 'old-password-1', new_password: 'new-password-22' });
  });

  it('downloads my data as a file', async () => {
    logIn();
    const server = api({ 'GET /api/me/export': () => jsonResponse({ member: { nickname: '개미' } }) });
    const createObjectURL = vi.fn(() => 'blob:export');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderApp({ route: '/settings/account', api: server.handler });
    fireEvent.click(await screen.findByTestId('export-data'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toMatch(/^moat-개미-\d{4}-\d{2}-\d{2}\.json$/);
    expect(createObjectURL).toHaveBeenCalled();
    click.mockRestore();
  });

  it('deletes the account after confirming with the password', async () => {
    logIn();
    const server = api({ 'DELETE /api/me': () => new Response(null, { status: 204 }) });
    const app = renderApp({ route: '/settings/account', api: server.handler });
    fireEvent.click(await screen.findByTestId('delete-account'));
    const dialog = await screen.findByRole('dialog', { name: '계정을 삭제할까요?' });
    fireEvent.click(within(dialog).getByTestId('delete-account-confirm'));
    expect(field(dialog, '비밀번호').getAttribute('aria-invalid')).toBe('true');
    type(field(dialog, '비밀번호'), 'my-password-1');
    fireEvent.click(within(dialog).getByTestId('delete-account-confirm'));
    await waitFor(() => expect(app.location().pathname).toBe('/'));
    expect(server.find('DELETE', '/api/me')[0]!.body).toEqual({ password: 'my-password-1' });
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBeNull();
    expect(await screen.findByText('계정을 삭제했습니다.')).toBeTruthy();
  });

  it('social-only deletion: offers a fresh social log-in, and 403 reauthentication_required sends to log in again', async () => {
    logIn();
    const server = api({
      'GET /api/me': () => jsonResponse({ ...ME, has_password: false, email: null }),
      'DELETE /api/me': () => error(403, 'reauthentication_required'),
    });
    const app = renderApp({ route: '/settings/account', api: server.handler });
    fireEvent.click(await screen.findByTestId('delete-account'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('delete-social-prompt')).toBeTruthy();
    expect(within(dialog).queryByLabelText('비밀번호')).toBeNull();
    const again = await within(dialog).findByTestId('oidc-provider-kakao');
    expect(again.getAttribute('href')).toBe('/api/auth/oidc/kakao/start?next=%2Fsettings%2Faccount&intent=login');
    fireEvent.click(within(dialog).getByTestId('delete-account-confirm'));
    await waitFor(() => expect(app.location().pathname).toBe('/login'));
    const params = new URLSearchParams(app.location().search);
    expect(params.get('next')).toBe('/settings/account');
    expect(params.get('reauth')).toBe('1');
    // Logged in, yet the log-in page stays to log in again.
    expect(await screen.findByTestId('login-form')).toBeTruthy();
    expect(screen.getByText('계속하려면 다시 로그인해 주세요.')).toBeTruthy();
    expect(server.find('DELETE', '/api/me')[0]!.body).toEqual({});
  });

  it('logs out: calls the server and forgets the token, even if the call fails', async () => {
    const token = logIn();
    const server = api({ 'POST /api/auth/logout': () => error(500, 'internal_error') });
    const app = renderApp({ route: '/settings/account', api: server.handler });
    fireEvent.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(app.location().pathname).toBe('/'));
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBeNull();
    expect(await screen.findByTestId('header-login')).toBeTruthy();
    await waitFor(() => expect(server.find('POST', '/api/auth/logout')[0]!.auth).toBe(`Bearer ${token}`));
  });

  it('401 token_invalid: logged out with one toast, and sent to log in', async () => {
    logIn();
    const server = api({ 'GET /api/me': () => error(401, 'token_invalid') });
    const app = renderApp({ route: '/settings/account', api: server.handler });
    await waitFor(() => expect(app.location().pathname).toBe('/login'));
    expect(new URLSearchParams(app.location().search).get('next')).toBe('/settings/account');
    const toasts = await screen.findAllByText('로그인이 만료되었습니다. 다시 로그인해 주세요.');
    expect(toasts).toHaveLength(1);
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBeNull();
  });
});

describe('public profile', () => {
  it('shows the nickname and joined date', async () => {
    const server = api({ 'GET /api/users/%EA%B0%9C%EB%AF%B8': () => jsonResponse({ nickname: '개미', joined_at: '2025-01-02T03:04:05Z' }) });
    renderApp({ route: '/u/%EA%B0%9C%EB%AF%B8', api: server.handler });
    const page = await screen.findByTestId('profile-page');
    await waitFor(() => expect(within(page).getByText(/가입/)).toBeTruthy());
    expect(within(page).getByTestId('profile-nickname').textContent).toBe('개미');
    expect(document.title).toBe('개미 — Moat');
  });

  it('404 shows the not-found view', async () => {
    renderApp({ route: '/u/nobody', api: api().handler });
    expect(await screen.findByTestId('not-found')).toBeTruthy();
  });
});

describe('forgot password', () => {
  it('tells the member to ask the operator when the server sends no mail', async () => {
    const server = api({ 'GET /api/auth/password-reset': () => jsonResponse({ available: false }) });
    renderApp({ route: '/forgot-password', api: server.handler });
    await screen.findByText(/서버 운영자에게 비밀번호 재설정을 요청해 주세요/);
    expect(screen.queryByRole('button', { name: '재설정 링크 받기' })).toBeNull();
  });

  it('asks for a link and says the same thing whoever the address belongs to', async () => {
    const server = api({
      'GET /api/auth/password-reset': () => jsonResponse({ available: true }),
      'POST /api/auth/password-reset': () => new Response(null, { status: 202 }),
    });
    renderApp({ route: '/login', api: server.handler });
    fireEvent.click(await screen.findByRole('link', { name: '비밀번호를 잊으셨나요?' }));
    await screen.findByRole('heading', { level: 1, name: '비밀번호를 잊으셨나요?' });
    const email = await screen.findByLabelText('이메일');
    type(email, 'Ant@Example.com ');
    fireEvent.click(screen.getByRole('button', { name: '재설정 링크 받기' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Ant@Example.com');
    expect(server.find('POST', '/api/auth/password-reset')[0]!.body).toEqual({ email: 'Ant@Example.com', language: 'ko' });
  });
});

describe('reset password', () => {
  it('sets the new password with the token of the link and logs the member in', async () => {
    const session = makeToken();
    const server = api({ 'POST /api/auth/password-reset/confirm': () => jsonResponse({ token: session }) });
    renderApp({ route: '/reset-password#token=abc123', api: server.handler });
    type(await screen.findByLabelText('새 비밀번호'), 'a brand new passphrase');
    fireEvent.click(screen.getByRole('button', { name: '비밀번호 바꾸기' }));
    await waitFor(() => expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(session));
    expect(server.find('POST', '/api/auth/password-reset/confirm')[0]!.body).toEqual({
      token: 'abc123',
      new_password: 'a brand new passphrase',
    });
  });

  it('offers a new link when this one has expired', async () => {
    const server = api({
      'POST /api/auth/password-reset/confirm': () =>
        error(422, 'invalid_input', { fields: { token: { code: 'link_expired', params: {}, message: 'expired' } } }),
    });
    renderApp({ route: '/reset-password#token=old', api: server.handler });
    type(await screen.findByLabelText('새 비밀번호'), 'a brand new passphrase');
    fireEvent.click(screen.getByRole('button', { name: '비밀번호 바꾸기' }));
    expect(await screen.findByRole('link', { name: '새 링크 받기' })).toBeTruthy();
  });
});

describe('consent at sign-up', () => {
  it('asks for every published document and sends the versions accepted', async () => {
    const server = api({
      'GET /api/legal': () =>
        jsonResponse([
          { kind: 'terms', version: 2, body: '약관 본문', published_at: '2026-01-01T00:00:00Z' },
          { kind: 'privacy', version: 1, body: '처리방침 본문', published_at: '2026-01-01T00:00:00Z' },
        ]),
      'POST /api/auth/signup': () => error(429, 'rate_limited'),
    });
    renderApp({ route: '/signup', api: server.handler });
    const form = await screen.findByTestId('signup-form');
    type(field(form, '이메일'), 'ant@example.com');
    type(field(form, '비밀번호'), 'password12');
    type(field(form, '닉네임'), '개미_1');
    const terms = await within(form).findByRole('checkbox', { name: '이용약관(제2판)에 동의합니다' });
    fireEvent.click(terms);
    fireEvent.submit(form);
    expect(await within(form).findByText('계속하려면 모든 항목에 동의해 주세요.')).toBeTruthy();
    expect(server.find('POST', '/api/auth/signup')).toHaveLength(0);
    fireEvent.click(within(form).getByRole('checkbox', { name: '개인정보 처리방침(제1판)에 동의합니다' }));
    fireEvent.submit(form);
    await waitFor(() => expect(server.find('POST', '/api/auth/signup')).toHaveLength(1));
    expect((server.find('POST', '/api/auth/signup')[0]!.body as { consents: unknown }).consents).toEqual([
      { kind: 'terms', version: 2 },
      { kind: 'privacy', version: 1 },
    ]);
  });
});
