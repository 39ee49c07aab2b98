import { describe, expect, it, vi } from 'vitest';
import { serverClockOffset } from '@/shared/session/clock';
import { getAuth, onSessionEnded, storeToken } from '@/shared/session/session';
import { jsonResponse, mockFetch } from '@/test/fetch';
import { makeToken } from '@/test/tokens';
import { ApiError, apiRequest, parseRetryAfter } from './client';

const headerOf = (init: RequestInit | undefined, name: string) => (init?.headers as Record<string, string>)[name];

describe('apiRequest and the session', () => {
  it('sends Authorization: Bearer only while logged in', async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    await apiRequest('/api/x');
    expect(headerOf(fetchMock.mock.calls[0]![1], 'Authorization')).toBeUndefined();
    const token = makeToken();
    storeToken(token);
    await apiRequest('/api/x');
    expect(headerOf(fetchMock.mock.calls[1]![1], 'Authorization')).toBe(`Bearer ${token}`);
  });

  it('sends no token with an anonymous request, even while logged in', async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    storeToken(makeToken());
    await apiRequest('/api/meta', { anonymous: true });
    expect(headerOf(fetchMock.mock.calls[0]![1], 'Authorization')).toBeUndefined();
    await apiRequest('/api/meta');
    expect(headerOf(fetchMock.mock.calls[1]![1], 'Authorization')).toMatch(/^Bearer /);
  });

  it('does not send an expired token', async () => {
    window.localStorage.setItem('AUTH_TOKEN', makeToken({ exp: Math.floor(Date.now() / 1000) - 1 }));
    const fetchMock = mockFetch(() => jsonResponse({}));
    await apiRequest('/api/x');
    expect(headerOf(fetchMock.mock.calls[0]![1], 'Authorization')).toBeUndefined();
  });

  it('stores the renewed token from X-Moat-Token', async () => {
    const token = makeToken();
    const renewed = makeToken({ exp: Math.floor(Date.now() / 1000) + 7200 });
    storeToken(token);
    mockFetch(() => jsonResponse({ ok: true }, { headers: { 'X-Moat-Token': renewed } }));
    await apiRequest('/api/x');
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBe(renewed);
  });

  it('ignores X-Moat-Token when the member logged out meanwhile', async () => {
    const token = makeToken();
    storeToken(token);
    mockFetch(() => {
      window.localStorage.removeItem('AUTH_TOKEN');
      return jsonResponse({}, { headers: { 'X-Moat-Token': makeToken() } });
    });
    await apiRequest('/api/x');
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBeNull();
  });

  it('logs out once on 401 token_invalid, however many requests fail', async () => {
    storeToken(makeToken());
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    mockFetch(() =>
      jsonResponse({ code: 'token_invalid', message: 'The token is not valid.', request_id: 'r' }, { status: 401 }),
    );
    const results = await Promise.allSettled([apiRequest('/api/a'), apiRequest('/api/b'), apiRequest('/api/c')]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).code === 'token_invalid')).toBe(true);
    expect(getAuth()).toBeNull();
    expect(window.localStorage.getItem('AUTH_TOKEN')).toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);
    off();
  });

  it('does not log out on other 401s or 403s', async () => {
    storeToken(makeToken());
    mockFetch(() => jsonResponse({ code: 'forbidden', message: 'No.', request_id: 'r' }, { status: 403 }));
    await expect(apiRequest('/api/x')).rejects.toBeInstanceOf(ApiError);
    expect(getAuth()).not.toBeNull();
  });

  it('measures the server clock from the Date header, unless the answer came from a cache', async () => {
    const serverNow = Date.now() + 120_000;
    mockFetch(() => jsonResponse({}, { headers: { Date: new Date(serverNow).toUTCString(), Age: '30' } }));
    await apiRequest('/api/x');
    expect(serverClockOffset()).toBe(0);
    mockFetch(() => jsonResponse({}, { headers: { Date: new Date(serverNow).toUTCString() } }));
    await apiRequest('/api/x');
    expect(Math.abs(serverClockOffset() - 120_000)).toBeLessThan(1500);
  });

  it('exposes Retry-After on a 429', async () => {
    mockFetch(() =>
      jsonResponse(
        { code: 'rate_limited', message: 'Too many attempts.', request_id: 'r' },
        { status: 429, headers: { 'Retry-After': '17' } },
      ),
    );
    const error = await apiRequest('/api/auth/login', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 17 });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.UTC(2030, 0, 1);
    expect(parseRetryAfter('5', now)).toBe(5);
    expect(parseRetryAfter('0', now)).toBe(1);
    expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now)).toBe(90);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
