import { describe, expect, it } from 'vitest';
import { hostMode, isScreenPath, screen, screensReducer } from './screens';

describe('the host page’s screen stack', () => {
  it('pushes on NAVIGATE, replaces the top on NAVIGATE with replace, pops but never the root, resets on a tab', () => {
    let stack = [screen('/settings')];
    stack = [...screensReducer(stack, { type: 'push', path: '/stocks/KRX:005930' })];
    expect(stack.map((s) => s.path)).toEqual(['/settings', '/stocks/KRX:005930']);
    stack = [...screensReducer(stack, { type: 'push', path: '/login', replace: true })];
    expect(stack.map((s) => s.path)).toEqual(['/settings', '/login']);
    stack = [...screensReducer(stack, { type: 'pop' })];
    expect(stack.map((s) => s.path)).toEqual(['/settings']);
    expect(screensReducer(stack, { type: 'pop' })).toBe(stack);
    expect(screensReducer(stack, { type: 'reset', path: '/' }).map((s) => s.path)).toEqual(['/']);
    expect(new Set(screensReducer(stack, { type: 'push', path: '/settings' }).map((s) => s.id)).size).toBe(2);
  });

  it('reads the mode from the URL: the app with its chrome by default', () => {
    expect(hostMode('')).toEqual({ bridge: true, chrome: 'native' });
    expect(hostMode('?chrome=web')).toEqual({ bridge: true, chrome: 'web' });
    expect(hostMode('?bridge=off')).toEqual({ bridge: false, chrome: 'web' });
  });

  it('opens only same-origin paths as screens', () => {
    expect(isScreenPath('/stocks/KRX:005930?tab=news')).toBe(true);
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', '', null, 42]) expect(isScreenPath(bad)).toBe(false);
  });
});
