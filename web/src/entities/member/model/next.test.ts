import { describe, expect, it } from 'vitest';
import { loginPath, NEXT_MAX_CHARS, safeNext } from './next';

describe('safeNext', () => {
  it.each([
    // Paths of this site, normalised as the browser resolves them.
    ['/portfolio?tab=1#x', '/portfolio?tab=1#x'],
    ['/settings/account', '/settings/account'],
    ['/', '/'],
    ['/stocks/KRX%3A005930', '/stocks/KRX%3A005930'],
    ['/u/%EA%B0%9C%EB%AF%B8', '/u/%EA%B0%9C%EB%AF%B8'],
    ['/./settings', '/settings'],
    ['/a/../settings', '/settings'],
    ['/%2e%2e/%2E%2e/settings', '/settings'],
    ['/x?next=//evil.example', '/x?next=//evil.example'],
    ['/x#//evil.example', '/x#//evil.example'],
    ['/%252f%252fevil.example', '/%252f%252fevil.example'],
    ['/javascript:alert(1)', '/javascript:alert(1)'],
    // Protocol-relative once resolved or decoded.
    ['/.//evil.example', '/'],
    ['/x/..//evil.example', '/'],
    ['/%2e%2e//evil.example', '/'],
    ['/%2E%2E//evil.example', '/'],
    ['/.%2e//evil.example', '/'],
    ['/a/b/../../..//evil.example', '/'],
    ['/%2f/evil.example', '/'],
    ['/%2F%2Fevil.example', '/'],
    ['/x/..%2f%2fevil.example', '/'],
    ['/%5cevil.example', '/'],
    ['/%5C%5Cevil.example', '/'],
    ['//evil.com', '/'],
    ['//evil.com/path', '/'],
    ['///evil.example', '/'],
    ['/\\evil', '/'],
    ['/\\\\evil.com', '/'],
    ['/x\\y', '/'],
    ['\\\\evil.com', '/'],
    // Control characters, raw or encoded; broken escapes.
    ['/x\nSet-Cookie', '/'],
    ['/\t/evil.example', '/'],
    ['/x\r\nSet-Cookie: a=b', '/'],
    ['/a%0Ab', '/'],
    ['/a%09b', '/'],
    ['/%zz', '/'],
    ['/%ff', '/'],
    // Not a path.
    ['https://evil.com', '/'],
    ['http:/evil.example', '/'],
    ['javascript:alert(1)', '/'],
    [' /x', '/'],
    ['evil.com', '/'],
    ['', '/'],
    [null, '/'],
    [undefined, '/'],
    // Back to a log-in page would loop.
    ['/login?next=/x', '/'],
    ['/signup', '/'],
    ['/%6Cogin', '/'],
  ])('%j → %j', (raw, expected) => {
    expect(safeNext(raw)).toBe(expected);
  });

  it('refuses an overlong next', () => {
    expect(safeNext(`/${'a'.repeat(NEXT_MAX_CHARS)}`)).toBe('/');
  });

  it('builds the log-in path with next', () => {
    expect(loginPath('/settings/account?x=1')).toBe('/login?next=%2Fsettings%2Faccount%3Fx%3D1');
    expect(loginPath('//evil.com')).toBe('/login');
    expect(loginPath('/.//evil.example')).toBe('/login');
  });
});
