import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, TEST_META } from '@/test/fetch';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';

const LEGAL = [
  { kind: 'terms', version: 3, body: '제1조 목적\n\n이 약관은 Moat 이용 조건을 정합니다.', published_at: '2025-01-01T00:00:00Z' },
  { kind: 'privacy', version: 2, body: '수집하는 개인정보: 이메일', published_at: '2025-01-01T00:00:00Z' },
];

function api(url: URL): Response {
  if (url.pathname === '/api/meta') return jsonResponse({ ...TEST_META, contact_email: 'help@moat.example' });
  if (url.pathname === '/api/legal') return jsonResponse(LEGAL);
  if (url.pathname === '/api/me') return jsonResponse({ id: 1, nickname: '개미', providers: [], has_password: true });
  return jsonResponse({ code: 'not_found', message: 'no', request_id: 't' }, { status: 404 });
}

describe('settings page', () => {
  it('shows a visitor the language, the terms, the privacy policy, the contact, feedback and a log-in link', async () => {
    renderApp({ route: '/settings', api });
    expect(await screen.findByRole('heading', { level: 1, name: '설정' })).toBeTruthy();
    expect(screen.getByTestId('current-language').textContent).toBe('한국어');
    expect(screen.getByRole('button', { name: '이용약관' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '개인정보 처리방침' })).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'help@moat.example' })).getAttribute('href')).toBe('mailto:help@moat.example');
    expect(screen.getByRole('button', { name: '의견 보내기' })).toBeTruthy();
    const account = screen.getByRole('region', { name: '계정' });
    expect(within(account).getByRole('link', { name: '로그인' }).getAttribute('href')).toBe('/login?next=%2Fsettings');
    expect(screen.queryByRole('button', { name: '로그아웃' })).toBeNull();
    expect(screen.queryByRole('button', { name: '계정 삭제' })).toBeNull();
    // The developers' tools are gone from settings.
    expect(screen.queryByText(TEST_META.version)).toBeNull();
    expect(screen.queryByText('앱 연동')).toBeNull();
  });

  it('has no contact row when the server has no contact address', async () => {
    renderApp({ route: '/settings' });
    await screen.findByRole('heading', { level: 1, name: '설정' });
    await screen.findByRole('button', { name: '이용약관' });
    expect(screen.queryByRole('heading', { name: '문의' })).toBeNull();
  });

  it('opens the terms in a dialog with their current text', async () => {
    const app = renderApp({ route: '/settings', api });
    fireEvent.click(await screen.findByRole('button', { name: '이용약관' }));
    const dialog = await screen.findByRole('dialog', { name: '이용약관' });
    expect(await within(dialog).findByText('이 약관은 Moat 이용 조건을 정합니다.')).toBeTruthy();
    expect(within(dialog).getByText(/버전 3/)).toBeTruthy();
    expect(app.location().search).toBe('?terms=routeModalTrue');
  });

  it('gives a member log-out and account deletion instead of the log-in link', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ nickname: '개미' }));
    const app = renderApp({ route: '/settings', api });
    expect(await screen.findByRole('button', { name: '로그아웃' })).toBeTruthy();
    expect(within(screen.getByRole('region', { name: '계정' })).queryByRole('link', { name: '로그인' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '계정 삭제' }));
    expect(app.location().search).toBe('?deleteAccount=routeModalTrue');
  });
});
