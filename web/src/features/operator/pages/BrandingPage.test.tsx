import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, TEST_META, type FetchHandler } from '@/test/fetch';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';
import { MEMBER, OPERATOR } from '../lib/test-fixtures';

const LOGO = '/media/branding/logo-0123456789abcdef.png';

/** A server with branding state: the uploads it got, and `/api/meta` naming the current images. */
function brandingServer(me = OPERATOR) {
  const state: { logo_url: string | null; share_card_url: string | null } = { logo_url: null, share_card_url: null };
  const uploads: { method: string; path: string; body: unknown; type: string | undefined }[] = [];
  const handler: FetchHandler = (url, init) => {
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/me') return jsonResponse(me);
    if (url.pathname === '/api/meta') return jsonResponse({ ...TEST_META, ...state });
    if (url.pathname.startsWith('/api/admin/branding/')) {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      uploads.push({ method, path: url.pathname, body: init?.body, type: headers['Content-Type'] });
      const svg = init?.body instanceof Blob && init.body.type === 'image/svg+xml';
      if (svg) return jsonResponse({ code: 'unsupported_image', message: 'no', request_id: 'r' }, { status: 415 });
      const slot = url.pathname.endsWith('/logo') ? 'logo_url' : 'share_card_url';
      state[slot] = method === 'PUT' ? LOGO : null;
      return jsonResponse(state);
    }
    return jsonResponse({ code: 'not_found', message: 'not found', request_id: 'test' }, { status: 404 });
  };
  return { handler, uploads, state };
}

describe('the operator branding page', () => {
  beforeEach(() => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 })));
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('uploads a logo as its raw bytes, shows it in the header, and goes back to the default', async () => {
    const server = brandingServer();
    renderApp({ route: '/operator/branding', api: server.handler });
    const logo = await screen.findByRole('region', { name: '로고' });
    expect(within(logo).getByText('올린 이미지가 없습니다 (기본 사용 중).')).toBeTruthy();
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });
    fireEvent.change(within(logo).getByLabelText('이미지 파일'), { target: { files: [file] } });
    expect(await within(logo).findByRole('status')).toHaveProperty('textContent', '저장했습니다.');
    expect(server.uploads).toEqual([{ method: 'PUT', path: '/api/admin/branding/logo', body: file, type: 'image/png' }]);
    await waitFor(() => expect(within(logo).getByRole('img', { name: '지금 로고' }).getAttribute('src')).toBe(LOGO));
    // The header's wordmark shows the house logo.
    const banner = screen.getByRole('banner');
    await waitFor(() => expect(banner.querySelector('img.logo-mark--house')?.getAttribute('src')).toBe(LOGO));

    fireEvent.click(within(logo).getByRole('button', { name: '기본으로 되돌리기' }));
    expect(await within(logo).findByText('기본으로 되돌렸습니다.')).toBeTruthy();
    expect(server.uploads.at(-1)).toMatchObject({ method: 'DELETE', path: '/api/admin/branding/logo' });
    await waitFor(() => expect(banner.querySelector('img.logo-mark--house')).toBeNull());
    // The whole app renders twice over here: on a busy 2-core runner it took just over
    // vitest's default 5 s.
  }, 15_000);

  it('words a refused image in the page’s language', async () => {
    const server = brandingServer();
    renderApp({ route: '/operator/branding', api: server.handler });
    const card = await screen.findByRole('region', { name: '공유 이미지' });
    const svg = new File(['<svg/>'], 'card.svg', { type: 'image/svg+xml' });
    fireEvent.change(within(card).getByLabelText('이미지 파일'), { target: { files: [svg] } });
    expect(await within(card).findByRole('alert')).toHaveProperty('textContent', 'PNG, JPEG, WebP 이미지를 올려 주세요.');
    expect(server.state.share_card_url).toBeNull();
  });

  it('is for operators only', async () => {
    const server = brandingServer(MEMBER);
    renderApp({ route: '/operator/branding', api: server.handler });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', '운영자만 볼 수 있는 화면입니다.');
    expect(screen.queryByRole('region', { name: '로고' })).toBeNull();
  });
});
