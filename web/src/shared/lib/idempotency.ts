/**
 * `Idempotency-Key` (docs/portfolio.md, "Transactions"): a request that may reach the
 * server twice — a double tap, a retry after a timeout on a flaky mobile connection —
 * carries a key, and the server answers a repeat of the same key and body with the
 * first answer instead of recording it again (kept 24 h; the same key with another body
 * is refused with 409 `idempotency_key_reused`).
 *
 * Callers keep one key per content they send: the same key while they resend the same
 * body, a new one once the body changes or the request succeeded.
 */

/** The request header. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The 409 code of a key sent again with another body: send again with a new key. */
export const IDEMPOTENCY_KEY_REUSED = 'idempotency_key_reused';

/** A version-4 UUID from 16 random bytes. */
function uuidFromBytes(bytes: Uint8Array): string {
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A new key: a random UUID. `crypto.randomUUID` exists only in secure contexts (HTTPS,
 * localhost) and recent browsers, so an app opened over plain HTTP on a LAN address or
 * in an older WebView builds one from `crypto.getRandomValues`, and, failing that, from
 * `Math.random` and the clock (unique enough for one member's requests within a day).
 */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof c?.getRandomValues === 'function') {
    c.getRandomValues(bytes);
  } else {
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
    // The clock in the first bytes: two keys made in different milliseconds never collide.
    let now = Date.now();
    for (let i = 5; i >= 0; i--) {
      bytes[i] = now % 256;
      now = Math.floor(now / 256);
    }
  }
  return uuidFromBytes(bytes);
}
