/** A throw-away origin that relative paths are resolved against. */
const BASE = 'https://moat.invalid';

/** Longest `next` kept, in characters (as the server's `NEXT_MAX_BYTES`). */
export const NEXT_MAX_CHARS = 1024;

/** Control characters and backslashes (browsers read `\` as `/`). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const UNSAFE = /[\\\u0000-\u001f\u007f]/;

/** `/` followed by anything but `/` or `\` (or by nothing). */
function oneLeadingSlash(path: string): boolean {
  return /^\/(?![/\\])/.test(path);
}

/**
 * Where to go after logging in: `next` when it is a path of this site, normalised as
 * the browser resolves it (dot segments, `%2e` among them, removed); else `/`.
 *
 * Refused: control characters or backslashes anywhere, and any value whose resolved
 * path, or that path decoded once (`%2f` → `/`, `%5c` → `\`) and resolved again, does
 * not start with one `/` followed by something other than `/` or `\` — such a value
 * could become protocol-relative (`//host`). The server's `sanitize_next`
 * (crates/moat-server/src/accounts/oidc.rs) applies the same rule. Log-in pages are
 * refused too (going back to one would loop).
 */
export function safeNext(raw: string | null | undefined): string {
  if (!raw || raw.length > NEXT_MAX_CHARS || !oneLeadingSlash(raw) || UNSAFE.test(raw)) return '/';
  try {
    const url = new URL(raw, BASE);
    if (url.origin !== BASE || !oneLeadingSlash(url.pathname)) return '/';
    const decoded = decodeURIComponent(url.pathname);
    if (UNSAFE.test(decoded)) return '/';
    const again = new URL(decoded, BASE);
    if (again.origin !== BASE || !oneLeadingSlash(again.pathname)) return '/';
    const loginPage = /^\/(login|signup|auth)(\/|$)/;
    if (loginPage.test(url.pathname) || loginPage.test(again.pathname)) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    // decodeURIComponent: a broken escape or bytes that are not UTF-8.
    return '/';
  }
}

/** `/login?next=…` for the page at `path` (path and query). */
export function loginPath(path: string): string {
  const next = safeNext(path);
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}
