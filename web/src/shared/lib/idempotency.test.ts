import { afterEach, describe, expect, it, vi } from 'vitest';
import { newIdempotencyKey } from './idempotency';

/** What the server accepts: 1–255 visible ASCII characters. */
const VALID = /^[\x21-\x7e]{1,255}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('idempotency keys', () => {
  it('uses crypto.randomUUID where there is one', () => {
    vi.stubGlobal('crypto', { randomUUID: () => '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed' });
    expect(newIdempotencyKey()).toBe('1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed');
  });

  it('builds a UUID from getRandomValues without randomUUID (plain HTTP, older WebViews)', () => {
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => a.fill(0xab) });
    const key = newIdempotencyKey();
    expect(key).toMatch(UUID_V4);
    expect(key).toBe('abababab-abab-4bab-abab-abababababab');
  });

  it('still makes valid, distinct keys without any crypto', () => {
    vi.stubGlobal('crypto', undefined);
    const keys = new Set(Array.from({ length: 200 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(UUID_V4);
      expect(key).toMatch(VALID);
    }
  });
});
