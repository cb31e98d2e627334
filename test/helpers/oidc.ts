import {
  createPrivateKey,
  createPublicKey,
  createSign,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/**
 * Identity providers for the single sign-on tests (issue 33).
 *
 * `startProvider`: a real OpenID Connect provider (`oidc-provider`) on loopback, with its own signing
 * key, one confidential client per organization, and accounts whose email and groups a test can change
 * between sign-ins. Its development login page takes any account id (the password is not checked).
 *
 * `startForger`: for the refusals a real provider cannot be made to produce (an ID token for another
 * audience, one with a bad signature), a minimal issuer whose discovery document and keys are real and
 * whose token endpoint answers with an ID token the test shapes and signs with its own key. The
 * service's verifier (openid-client) is the real one either way.
 */

export interface Account {
  email: string;
  groups: string[];
  emailVerified?: boolean;
}

export interface ClientSpec {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface TestProvider {
  issuer: string;
  accounts: Map<string, Account>;
  close(): Promise<void>;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function signingKey(kid: string): { privateKey: KeyObject; publicJwk: Record<string, unknown>; privateJwk: object } {
  // Generated as PEM text and read into key objects of their own: exporting the key objects a
  // generation hands back as JWK can hang Node 20 for good (a collection during the export frees the
  // generation's job, whose destructor waits for the key's lock the export holds; seen in CI, the
  // main thread in futex_wait under ExportJWKRsaKey and ~KeyGenJob).
  const generated = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const privateKey = createPrivateKey(generated.privateKey);
  const publicKey = createPublicKey(generated.publicKey);
  return {
    privateKey,
    publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
    privateJwk: { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' },
  };
}

export async function startProvider(clients: ClientSpec[], accounts: Record<string, Account>): Promise<TestProvider> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  const issuer = await listen(server);
  const accountMap = new Map(Object.entries(accounts));
  const config: Configuration = {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: [c.redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [signingKey('idp-key').privateJwk as never] },
    cookies: {
      keys: [randomBytes(16).toString('hex')],
      // Plain http on loopback: SameSite=None cookies would need Secure, which Chromium insists on.
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    // Scope claims in the ID token itself (the service reads the groups from it).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        async claims() {
          const account = accountMap.get(id);
          return {
            sub: id,
            name: id,
            email: account?.email ?? `${id}@unknown.example`,
            email_verified: account?.emailVerified ?? true,
            groups: account?.groups ?? [],
          };
        },
      };
    },
    // Consent is given once and for all: the tests are about the service, not the provider's pages.
    async loadExistingGrant(ctx) {
      const oidc = ctx.oidc;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(oidc.client!.clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, config);
  handler = provider.callback();
  return { issuer, accounts: accountMap, close: () => closeServer(server) };
}

/** What the forger's token endpoint puts in the next ID token, besides what it copies from the request. */
export interface Forgery {
  /** Claims to set or override (aud, email, groups...). */
  claims: Record<string, unknown>;
  /** Sign with a key that is not the published one (same kid): a bad signature. */
  wrongKey?: boolean;
}

export interface Forger {
  issuer: string;
  /** The nonce of the authorization request the test read from the start page. */
  next(nonce: string, forgery: Forgery): void;
  close(): Promise<void>;
}

function base64url(value: object | Buffer): string {
  return (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString('base64url');
}

export async function startForger(clientId: string): Promise<Forger> {
  const published = signingKey('forger-key');
  const other = signingKey('forger-key');
  let pending: { nonce: string; forgery: Forgery } | undefined;
  let issuer = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/.well-known/openid-configuration')
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    if (path === '/jwks') return json(200, { keys: [published.publicJwk] });
    if (path === '/token' && req.method === 'POST') {
      req.resume();
      req.on('end', () => {
        if (!pending) return json(400, { error: 'invalid_grant' });
        const { nonce, forgery } = pending;
        pending = undefined;
        const now = Math.floor(Date.now() / 1000);
        const header = { alg: 'RS256', kid: 'forger-key', typ: 'JWT' };
        const payload = {
          iss: issuer,
          sub: 'forged-user',
          aud: clientId,
          iat: now,
          exp: now + 300,
          nonce,
          email: 'analyst@bank.example',
          email_verified: true,
          groups: ['analysts'],
          ...forgery.claims,
        };
        const input = `${base64url(header)}.${base64url(payload)}`;
        const signature = createSign('RSA-SHA256')
          .update(input)
          .sign(forgery.wrongKey ? other.privateKey : published.privateKey);
        json(200, {
          access_token: randomBytes(16).toString('hex'),
          token_type: 'Bearer',
          expires_in: 300,
          id_token: `${input}.${base64url(signature)}`,
        });
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  issuer = await listen(server);
  return {
    get issuer() {
      return issuer;
    },
    next(nonce, forgery) {
      pending = { nonce, forgery };
    },
    close: () => closeServer(server),
  };
}
