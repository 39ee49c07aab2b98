import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeToken } from '@/test/tokens';
import { renewToken, tokenRejected } from './answers';
import { serverClockOffset } from './clock';
import { clockRange, recordServerDate, resetClock } from './clock-measure';
import { clearToken, currentToken, decodeToken, getAuth, onSessionEnded, storeToken, subscribeAuth } from './session';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0);
const sec = (ms: number) => Math.floor(ms / 1000);

afterEach(() => resetClock());

describe('decodeToken', () => {
  it('reads exp and data', () => {
    vi.useFakeTimers({ now: T0 });
    const claims = decodeToken(makeToken({ userId: 7, nickname: 'Ant_1', chatUserId: 'chat-7' }));
    expect(claims).toMatchObject({ exp: sec(T0) + 3600, data: { user_id: 7, nickname: 'Ant_1', chat_user_id: 'chat-7' } });
  });

  it('rejects corrupt tokens and tokens without the member data, without throwing', () => {
    expect(decodeToken('not-a-jwt')).toBeUndefined();
    expect(decodeToken('a.b.c')).toBeUndefined();
    expect(decodeToken(`${btoa('{}')}.${btoa('{"exp":1}')}.x`)).toBeUndefined();
  });
});

describe('auth state', () => {
  it('derives {token, userId, chatUserId} from the stored token', () => {
    vi.useFakeTimers({ now: T0 });
    const token = makeToken({ userId: 42, chatUserId: 'chat-42', nickname: '개미' });
    expect(storeToken(token)).toBe(true);
    expect(getAuth()).toEqual({ token, userId: 42, chatUserId: 'chat-42', nickname: '개미', exp: sec(T0) + 3600 });
    expect(getAuth()).toBe(getAuth());
    expect(currentToken()).toBe(token);
    clearToken();
    expect(getAuth()).toBeNull();
  });

  it('a token without exp is invalid', () => {
    const token = makeToken({ exp: null });
    window.localStorage.setItem('AUTH_TOKEN', token);
    expect(getAuth()).toBeNull();
    expect(storeToken(token)).toBe(false);
    expect(currentToken()).toBeUndefined();
  });

  it('a corrupt stored token reads as logged out', () => {
    window.localStorage.setItem('AUTH_TOKEN', 'eyJhbGciOiJIUzI1NiJ9.%%%notbase64.sig');
    expect(getAuth()).toBeNull();
    window.localStorage.setItem('AUTH_TOKEN', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig');
    expect(getAuth()).toBeNull();
  });

  it('expires exactly at exp (browser clock == server clock)', () => {
    vi.useFakeTimers({ now: T0 });
    storeToken(makeToken({ exp: sec(T0) + 10 }));
    vi.setSystemTime(T0 + 9_999);
    expect(getAuth()).not.toBeNull();
    vi.setSystemTime(T0 + 10_000);
    expect(getAuth()).toBeNull();
  });

  it('notifies subscribers when the token expires, and when it is stored or removed', () => {
    vi.useFakeTimers({ now: T0 });
    const listener = vi.fn();
    const off = subscribeAuth(listener);
    storeToken(makeToken({ exp: sec(T0) + 60 }));
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(59_999);
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(getAuth()).toBeNull();
    off();
  });

  it('schedules a 30-day expiry without overflowing setTimeout', () => {
    vi.useFakeTimers({ now: T0 });
    storeToken(makeToken({ exp: sec(T0) + 30 * 86_400 }));
    const listener = vi.fn();
    const off = subscribeAuth(listener);
    vi.advanceTimersByTime(1000);
    expect(listener).not.toHaveBeenCalled();
    expect(getAuth()).not.toBeNull();
    off();
  });

  it('follows other tabs (storage event)', () => {
    vi.useFakeTimers({ now: T0 });
    const listener = vi.fn();
    const off = subscribeAuth(listener);
    const token = makeToken({ userId: 9 });
    window.localStorage.setItem('AUTH_TOKEN', token);
    window.dispatchEvent(new StorageEvent('storage', { key: 'AUTH_TOKEN', newValue: token }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(getAuth()?.userId).toBe(9);
    window.localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null }));
    expect(listener).toHaveBeenCalledTimes(2);
    expect(getAuth()).toBeNull();
    off();
  });
});

describe('server clock offset', () => {
  it('is the middle of what one Date header allows (±1 s resolution)', () => {
    // Sent at T0, received 200 ms later; the server said T0 + 5 s (its clock 5 s ahead).
    recordServerDate(new Date(T0 + 5000).toUTCString(), T0, T0 + 200);
    expect(clockRange()).toEqual({ low: 4800, high: 6000 });
    expect(serverClockOffset()).toBe(5400);
  });

  it('narrows with successive answers and keeps within every measurement', () => {
    // True offset: +5300 ms. Server answers instantly (no round trip).
    const truth = 5300;
    for (const at of [T0, T0 + 250, T0 + 500, T0 + 800, T0 + 1100]) {
      const server = Math.floor((at + truth) / 1000) * 1000;
      recordServerDate(new Date(server).toUTCString(), at, at + 20);
    }
    const range = clockRange()!;
    expect(range.low).toBeLessThanOrEqual(truth);
    expect(range.high).toBeGreaterThanOrEqual(truth);
    expect(range.high - range.low).toBeLessThan(400);
    expect(Math.abs(serverClockOffset() - truth)).toBeLessThan(200);
  });

  it('starts over when the browser clock jumps (ranges do not overlap)', () => {
    recordServerDate(new Date(T0).toUTCString(), T0, T0 + 10);
    expect(Math.abs(serverClockOffset())).toBeLessThan(1000);
    // The browser clock was set back one hour.
    const browser = T0 + 60_000 - 3_600_000;
    recordServerDate(new Date(T0 + 60_000).toUTCString(), browser, browser + 10);
    expect(Math.abs(serverClockOffset() - 3_600_000)).toBeLessThan(1000);
  });

  it('ignores missing or unreadable Date headers', () => {
    recordServerDate(null, T0, T0 + 1);
    recordServerDate('yesterday-ish', T0, T0 + 1);
    expect(clockRange()).toBeUndefined();
    expect(serverClockOffset()).toBe(0);
  });

  it('keeps a token valid by the server clock though the browser clock runs ahead and says expired', () => {
    vi.useFakeTimers({ now: T0 });
    const token = makeToken({ exp: sec(T0) + 600 }); // server time T0 + 10 min
    window.localStorage.setItem('AUTH_TOKEN', token);
    // The browser clock runs 1 hour ahead.
    vi.setSystemTime(T0 + 3_600_000);
    expect(getAuth()).toBeNull();
    const listener = vi.fn();
    const off = subscribeAuth(listener);
    recordServerDate(new Date(T0).toUTCString(), Date.now(), Date.now() + 50);
    expect(listener).toHaveBeenCalled();
    expect(getAuth()?.token).toBe(token);
    // And it expires by the server's clock: 10 minutes later.
    vi.advanceTimersByTime(598_000);
    expect(getAuth()).not.toBeNull();
    vi.advanceTimersByTime(3_000);
    expect(getAuth()).toBeNull();
    off();
  });

  it('expires a token early when the browser clock runs behind the server', () => {
    vi.useFakeTimers({ now: T0 });
    storeToken(makeToken({ exp: sec(T0) + 60 }));
    // The server is 2 minutes ahead: the token is already past at the server.
    recordServerDate(new Date(T0 + 120_000).toUTCString(), T0, T0 + 10);
    expect(getAuth()).toBeNull();
  });
});

describe('answers', () => {
  it('stores a renewed token only when the request carried the current one', () => {
    vi.useFakeTimers({ now: T0 });
    const first = makeToken({ userId: 1 });
    const renewed = makeToken({ userId: 1, exp: sec(T0) + 7200 });
    storeToken(first);
    renewToken('stale-token', renewed);
    expect(currentToken()).toBe(first);
    renewToken(first, renewed);
    expect(currentToken()).toBe(renewed);
    renewToken(renewed, 'garbage');
    expect(currentToken()).toBe(renewed);
  });

  it('token rejected: logs out and ends the session once', () => {
    vi.useFakeTimers({ now: T0 });
    const ended = vi.fn();
    const off = onSessionEnded(ended);
    const token = makeToken();
    storeToken(token);
    tokenRejected(token);
    tokenRejected(token);
    expect(getAuth()).toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);
    off();
  });
});
