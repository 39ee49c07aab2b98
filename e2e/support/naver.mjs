/**
 * A local provider speaking Naver Login's protocol (docs/accounts.md, "Naver"), for the
 * browser tests: Moat's `naver` preset pointed at it with `authorize_url`, `token_url`
 * and `profile_url`.
 *
 * - `GET /oauth2.0/authorize?response_type=code&client_id&redirect_uri&state` shows a
 *   consent page ("동의하기" / "취소"); agreeing redirects to `redirect_uri?code&state`,
 *   cancelling to `redirect_uri?state&error=access_denied&error_description=…`.
 * - `POST /oauth2.0/token` (form; GET with a query works too) answers
 *   `{access_token, refresh_token, token_type: "bearer", expires_in: "3600"}` or, for a
 *   bad code, client or state, `{error, error_description}` with HTTP 200, as Naver does.
 * - `GET /v1/nid/me` with `Authorization: Bearer` answers
 *   `{resultcode: "00", message: "success", response: {id, email, nickname, name}}`, or
 *   HTTP 401 `{resultcode: "024", message: "Authentication failed"}`.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';

export const NAVER_PROVIDER_ID = 'naver';
export const NAVER_PROVIDER_NAME = '네이버';
const CLIENT_ID = 'moat-e2e-naver';
const CLIENT_SECRET = 'moat-e2e-naver-secret-0123456789';

/** @param {{ person: { id: string, email?: string, nickname?: string } }} options the Naver member who logs in */
export async function startNaverProvider({ person }) {
  /** code → { state, redirectUri } */
  const codes = new Map();
  /** access token → person */
  const tokens = new Map();
  /** How many token and profile requests arrived. */
  const calls = { token: 0, profile: 0 };

  const json = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const readBody = (req) =>
    new Promise((resolve) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => resolve(data));
    });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/oauth2.0/authorize') {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      const state = q.get('state');
      if (q.get('response_type') !== 'code' || q.get('client_id') !== CLIENT_ID || !redirectUri || !state) {
        res.writeHead(400, { 'content-type': 'text/plain;charset=utf-8' });
        res.end('invalid request');
        return;
      }
      const code = randomBytes(8).toString('hex');
      codes.set(code, { state, redirectUri });
      const agree = new URL(redirectUri);
      agree.searchParams.set('code', code);
      agree.searchParams.set('state', state);
      const cancel = new URL(redirectUri);
      cancel.searchParams.set('state', state);
      cancel.searchParams.set('error', 'access_denied');
      cancel.searchParams.set('error_description', 'Canceled By User');
      res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
      res.end(`<!doctype html><html lang="ko"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>네이버 로그인</title></head>
<body><main><h1>네이버 로그인</h1><p>Moat에 정보 제공을 동의하시겠습니까?</p>
<a href="${agree.href.replaceAll('&', '&amp;')}" role="button">동의하기</a>
<a href="${cancel.href.replaceAll('&', '&amp;')}" role="button">취소</a></main></body></html>`);
      return;
    }
    if (url.pathname === '/oauth2.0/token') {
      calls.token += 1;
      const f = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : url.searchParams;
      const refused = (error, description) => json(res, 200, { error, error_description: description });
      if (f.get('grant_type') !== 'authorization_code' || f.get('client_id') !== CLIENT_ID || f.get('client_secret') !== CLIENT_SECRET) {
        refused('invalid_client', 'client authentication failed');
        return;
      }
      const pending = codes.get(f.get('code') ?? '');
      codes.delete(f.get('code') ?? '');
      if (!pending || pending.state !== f.get('state')) {
        refused('invalid_request', 'no valid data in session');
        return;
      }
      const accessToken = randomBytes(16).toString('base64url');
      tokens.set(accessToken, person);
      json(res, 200, { access_token: accessToken, refresh_token: 'refresh', token_type: 'bearer', expires_in: '3600' });
      return;
    }
    if (url.pathname === '/v1/nid/me') {
      calls.profile += 1;
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const who = tokens.get(token);
      if (!who) {
        json(res, 401, { resultcode: '024', message: 'Authentication failed' });
        return;
      }
      json(res, 200, { resultcode: '00', message: 'success', response: { ...who, name: '김개미' } });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;

  return {
    id: NAVER_PROVIDER_ID,
    name: NAVER_PROVIDER_NAME,
    base,
    calls,
    /** The provider entry of Moat's TOML configuration. */
    tomlEntry() {
      return [
        '[[accounts.oidc]]',
        `id = "${NAVER_PROVIDER_ID}"`,
        `name = "${NAVER_PROVIDER_NAME}"`,
        'preset = "naver"',
        `client_id = "${CLIENT_ID}"`,
        `client_secret = "${CLIENT_SECRET}"`,
        `authorize_url = "${base}/oauth2.0/authorize"`,
        `token_url = "${base}/oauth2.0/token"`,
        `profile_url = "${base}/v1/nid/me"`,
        '',
      ].join('\n');
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
