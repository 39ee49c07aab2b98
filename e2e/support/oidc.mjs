/**
 * A real OpenID Connect provider for the log-in tests: the maintained `oidc-provider`
 * package (certified implementation), on a free local port, with its development
 * log-in screen (any login name and password are accepted; the login name becomes the
 * subject, and `<login>@example.test` the verified email unless the login is an email).
 *
 * The provider must know Moat's callback URL and Moat must know the provider's issuer,
 * so the listening socket comes first, then Moat, then the provider behind the socket:
 *
 *   const idp = await startOidcProvider();
 *   const moat = await startServer({ env: { MOAT_CONFIG: await idp.moatConfig(dir) } });
 *   idp.allowRedirect(`${moat.url}/api/auth/oidc/${idp.id}/callback`);
 */
import http from 'node:http';
import Provider from 'oidc-provider';

export const OIDC_PROVIDER_ID = 'testid';
export const OIDC_PROVIDER_NAME = 'Test ID';
const CLIENT_ID = 'moat-e2e';
const CLIENT_SECRET = 'moat-e2e-client-secret-0123456789';

export async function startOidcProvider() {
  /** @type {http.RequestListener} */
  let handler = (_req, res) => {
    res.statusCode = 503;
    res.end('provider not configured yet');
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  /** Every login name that completed a log-in, in order. */
  const logins = [];

  return {
    id: OIDC_PROVIDER_ID,
    name: OIDC_PROVIDER_NAME,
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    logins,
    /** The provider entry of Moat's TOML configuration. */
    tomlEntry() {
      return [
        '[[auth.oidc]]',
        `id = "${OIDC_PROVIDER_ID}"`,
        `name = "${OIDC_PROVIDER_NAME}"`,
        `issuer = "${issuer}"`,
        `client_id = "${CLIENT_ID}"`,
        `client_secret = "${CLIENT_SECRET}"`,
        'scopes = ["openid", "email", "profile"]',
        '',
      ].join('\n');
    },
    /** Starts answering, with Moat's callback as the client's only redirect URI. */
    allowRedirect(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT_ID,
            client_secret: CLIENT_SECRET,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        pkce: { required: () => true },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'nickname'] },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx, accountId) {
          return {
            accountId,
            async claims() {
              logins.push(accountId);
              const email = accountId.includes('@') ? accountId : `${accountId}@example.test`;
              return { sub: accountId, email, email_verified: true, name: accountId, nickname: accountId };
            },
          };
        },
      });
      handler = provider.callback();
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
