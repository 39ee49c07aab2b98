import { afterEach, describe, expect, it } from 'vitest';
import { describeError, installErrorFilter } from './error-filter';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Stands in for the client's `window.onerror` / `onunhandledrejection`: a non-capturing window listener. */
function clientListener(type: 'error' | 'unhandledrejection') {
  const seen: Event[] = [];
  const listener = (event: Event) => seen.push(event);
  window.addEventListener(type, listener);
  cleanups.push(() => window.removeEventListener(type, listener));
  return seen;
}

function rejection(reason: unknown): Event {
  const event = new Event('unhandledrejection');
  Object.defineProperty(event, 'reason', { value: reason });
  return event;
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('error filter', () => {
  it('stops dropped uncaught errors and lets the others through', () => {
    cleanups.push(installErrorFilter(window, UA));
    const seen = clientListener('error');
    window.dispatchEvent(new ErrorEvent('error', { message: 'Uncaught TypeError: Failed to fetch', error: new TypeError('Failed to fetch') }));
    window.dispatchEvent(new ErrorEvent('error', { message: 'ResizeObserver loop limit exceeded' }));
    const kept = new ErrorEvent('error', { message: 'Uncaught TypeError: x is undefined', error: new TypeError('x is undefined') });
    window.dispatchEvent(kept);
    expect(seen).toEqual([kept]);
  });

  it('drops errors thrown from a browser extension, by their stack', () => {
    cleanups.push(installErrorFilter(window, UA));
    const seen = clientListener('error');
    const error = new TypeError('x is null');
    error.stack = 'TypeError: x is null\n    at inject (chrome-extension://abcdef/content.js:1:20)';
    window.dispatchEvent(new ErrorEvent('error', { message: 'Uncaught TypeError: x is null', error }));
    window.dispatchEvent(new ErrorEvent('error', { message: 'Script error', filename: 'moz-extension://id/x.js' }));
    expect(seen).toEqual([]);
  });

  it('stops dropped unhandled rejections', () => {
    cleanups.push(installErrorFilter(window, UA));
    const seen = clientListener('unhandledrejection');
    window.dispatchEvent(rejection(new DOMException('The user aborted a request.', 'AbortError')));
    window.dispatchEvent(rejection('IS_FOCUSED_FROM_APP=TRUE'));
    const kept = rejection(new Error('portfolio 12 not found'));
    window.dispatchEvent(kept);
    expect(seen).toEqual([kept]);
  });

  it('stops everything from a crawler', () => {
    cleanups.push(installErrorFilter(window, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'));
    const seen = clientListener('error');
    window.dispatchEvent(new ErrorEvent('error', { message: 'Uncaught TypeError: x is undefined' }));
    expect(seen).toEqual([]);
  });

  it('leaves resource errors (images, scripts) to their elements', () => {
    cleanups.push(installErrorFilter(window, UA));
    const img = document.createElement('img');
    document.body.append(img);
    const seen: Event[] = [];
    img.addEventListener('error', (event) => seen.push(event));
    img.dispatchEvent(new Event('error'));
    img.remove();
    expect(seen).toHaveLength(1);
  });

  it('can be removed', () => {
    installErrorFilter(window, UA)();
    const seen = clientListener('error');
    window.dispatchEvent(new ErrorEvent('error', { message: 'Failed to fetch' }));
    expect(seen).toHaveLength(1);
  });
});

describe('describeError', () => {
  it('names the error type with the message', () => {
    expect(describeError(new TypeError('Failed to fetch'))).toMatchObject({ message: 'TypeError: Failed to fetch' });
    expect(describeError(new DOMException('The user aborted a request.', 'AbortError')).message).toBe(
      'AbortError: The user aborted a request.',
    );
  });

  it('reads strings, objects and nothing', () => {
    expect(describeError('cancelled')).toEqual({ message: 'cancelled' });
    expect(describeError({ type: 'LOADING', payload: { visible: true } })).toEqual({
      message: '{"type":"LOADING","payload":{"visible":true}}',
    });
    expect(describeError(undefined, 'fallback')).toEqual({ message: 'fallback' });
    expect(describeError({ message: 'plain object' }).message).toBe('plain object');
  });

  it('survives values that cannot be serialised', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeError(cyclic).message).toBe('[object Object]');
  });
});
