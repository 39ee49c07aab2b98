import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, TEST_META } from '@/test/fetch';
import { marketApi } from '@/test/market';
import { renderApp } from '@/test/renderApp';
import { makeToken } from '@/test/tokens';

const STATUS = [
  { market: 'krx', provider: 'simulator', last_success: null, last_error: null, last_error_at: null },
  {
    market: 'us',
    provider: 'yahoo',
    last_success: '2026-11-20T14:00:00Z',
    last_error: 'rate limited by the source',
    last_error_at: '2026-11-20T15:00:00Z',
  },
];

describe('the operator providers page', () => {
  beforeEach(() => window.localStorage.setItem('AUTH_TOKEN', makeToken({ userId: 1 })));
  afterEach(() => window.localStorage.removeItem('AUTH_TOKEN'));

  it('lists each market with its provider, last success and last error', async () => {
    renderApp({
      route: '/operator/market',
      api: marketApi({ 'GET /api/market/providers': () => STATUS }).handler,
    });
    const us = await screen.findByTestId('provider-us');
    expect(within(us).getByText('Yahoo Finance')).toBeTruthy();
    expect(within(us).getByText('rate limited by the source')).toBeTruthy();
    const krx = screen.getByTestId('provider-krx');
    expect(within(krx).getByText('시뮬레이터')).toBeTruthy();
    expect(within(krx).getAllByText('없음')).toHaveLength(2);
  });

  it('shows the server version and clock, and the web-view test page', async () => {
    renderApp({
      route: '/operator/market',
      api: marketApi({ 'GET /api/market/providers': () => STATUS, 'GET /api/meta': () => TEST_META }).handler,
    });
    const server = await screen.findByRole('region', { name: '서버' });
    expect(await within(server).findByText(TEST_META.version)).toBeTruthy();
    expect(within(server).getByRole('link', { name: '열기' }).getAttribute('href')).toBe('/webview-host.html');
  });

  it('tells a member who is not an operator that the page is for operators', async () => {
    renderApp({
      route: '/operator/market',
      api: marketApi({
        'GET /api/market/providers': () =>
          jsonResponse({ code: 'forbidden', message: 'no', request_id: 'r' }, { status: 403 }),
      }).handler,
    });
    expect(await screen.findByText('운영자만 볼 수 있는 화면입니다.')).toBeTruthy();
  });
});
