import { describe, expect, it } from 'vitest';
import { loginPath, safeNext } from './next';

describe('safeNext', () => {
  it.each([
    ['/portfolio?tab=1#x', '/portfolio?tab=1#x'],
    ['/settings/account', '/settings/account'],
    ['//evil.com', '/'],
    ['//evil.com/path', '/'],
    ['https://evil.com', '/'],
    ['/\\evil', '/'],
    ['/\\\\evil.com', '/'],
    ['\\\\evil.com', '/'],
    ['javascript:alert(1)', '/'],
    [' /x', '/'],
    ['/x\nSet-Cookie', '/'],
    ['evil.com', '/'],
    ['', '/'],
    [null, '/'],
    [undefined, '/'],
    ['/login?next=/x', '/'],
    ['/signup', '/'],
  ])('%j → %j', (raw, expected) => {
    expect(safeNext(raw)).toBe(expected);
  });

  it('builds the log-in path with next', () => {
    expect(loginPath('/settings/account?x=1')).toBe('/login?next=%2Fsettings%2Faccount%3Fx%3D1');
    expect(loginPath('//evil.com')).toBe('/login');
  });
});
