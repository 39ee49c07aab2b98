/** Unsigned test JWTs (`header.payload.sig`): the browser only decodes them. */
function b64url(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let bin = '';
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface TestTokenOptions {
  /** Expiry in seconds; `null` leaves it out. Default: one hour from `Date.now()`. */
  exp?: number | null;
  userId?: number;
  nickname?: string;
  chatUserId?: string;
}

export function makeToken({ exp, userId = 1, nickname = '개미', chatUserId = 'c0ffee00-0000-4000-8000-000000000001' }: TestTokenOptions = {}): string {
  const payload: Record<string, unknown> = {
    iat: Math.floor(Date.now() / 1000),
    jti: `jti-${Math.random()}`,
    data: { user_id: userId, nickname, chat_user_id: chatUserId },
  };
  const e = exp === undefined ? Math.floor(Date.now() / 1000) + 3600 : exp;
  if (e !== null) payload.exp = e;
  return `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.c2lnbmF0dXJl`;
}
