/** Where to go after logging in: `next` when it is a path of this site, else `/`. */
export function safeNext(raw: string | null | undefined): string {
  // One leading slash; no `//host` or `/\host` (browsers read `\` as `/`), no control
  // characters or backslashes anywhere.
  if (!raw || !/^\/(?![/\\])/.test(raw) || /[\\\u0000-\u001f\u007f]/.test(raw)) return '/';
  try {
    const base = 'https://moat.invalid';
    const url = new URL(raw, base);
    if (url.origin !== base) return '/';
    // Back to a log-in page would loop.
    if (/^\/(login|signup|auth)(\/|$)/.test(url.pathname)) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}

/** `/login?next=…` for the page at `path` (path and query). */
export function loginPath(path: string): string {
  const next = safeNext(path);
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}
