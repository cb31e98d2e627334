import * as oidc from 'openid-client';

/**
 * The relying party's side of OpenID Connect, on `openid-client`: discovery of the provider, the
 * authorization request (code flow with PKCE S256, state and nonce) and the code exchange, with the ID
 * token's signature checked against the provider's published keys (`enableNonRepudiationChecks`: the
 * library otherwise trusts a token received over TLS from the token endpoint without checking its
 * signature, which OpenID Connect Core 3.1.3.7 allows; this service checks it anyway) and its issuer,
 * audience, expiry and nonce checked by the library.
 */

export interface ProviderClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accept an http issuer (loopback provider in tests). */
  allowHttp: boolean;
}

export interface AuthorizationRequest {
  redirectUri: string;
  scopes: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A refusal of the provider's answer, with a sentence for the person who tried to sign in. */
export class OidcRefusal extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'OidcRefusal';
  }
}

const DISCOVERY_TIMEOUT_S = 10;

async function configuration(client: ProviderClient): Promise<oidc.Configuration> {
  try {
    return await oidc.discovery(new URL(client.issuer), client.clientId, client.clientSecret, undefined, {
      execute: [oidc.enableNonRepudiationChecks, ...(client.allowHttp ? [oidc.allowInsecureRequests] : [])],
      timeout: DISCOVERY_TIMEOUT_S,
    });
  } catch (error) {
    throw new OidcRefusal(
      'provider_unreachable',
      `the identity provider at ${client.issuer} could not be reached or did not describe itself (${(error as Error).message})`,
    );
  }
}

export function newVerifier(): { state: string; nonce: string; codeVerifier: string } {
  return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
}

/** The provider's authorization address for this sign-in. */
export async function authorizationUrl(client: ProviderClient, request: AuthorizationRequest): Promise<URL> {
  const config = await configuration(client);
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: request.redirectUri,
    scope: request.scopes,
    response_type: 'code',
    state: request.state,
    nonce: request.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
    code_challenge_method: 'S256',
  });
}

/** Why an answer was refused, in words a user and an auditor can act on. */
function refusalOf(error: unknown): OidcRefusal {
  if (error instanceof OidcRefusal) return error;
  if (error instanceof oidc.AuthorizationResponseError) {
    const said = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
    return new OidcRefusal('provider_error', `the identity provider did not sign you in (${said})`);
  }
  if (error instanceof oidc.ResponseBodyError) {
    const said = error.error_description ? `${error.error}: ${error.error_description}` : error.error;
    return new OidcRefusal('token_refused', `the identity provider refused to exchange the sign-in code (${said})`);
  }
  // openid-client wraps the check that failed (oauth4webapi's) as the cause of a general error.
  const chain: { message?: unknown; code?: unknown; cause?: unknown }[] = [];
  for (let e: unknown = error; e && typeof e === 'object' && chain.length < 5; e = (e as { cause?: unknown }).cause)
    chain.push(e as { message?: unknown; code?: unknown });
  const message = chain.map((e) => String(e.message ?? '')).join(': ') || String(error);
  const code = chain.map((e) => String(e.code ?? '')).join(' ');
  if (/"aud"|"azp"/.test(message))
    return new OidcRefusal(
      'wrong_audience',
      'the ID token was issued for another application (its audience is not this organization’s client id)',
    );
  if (/signature verification failed/i.test(message) || code.includes('OAUTH_KEY_SELECTION_FAILED'))
    return new OidcRefusal(
      'bad_signature',
      'the ID token’s signature does not verify against the identity provider’s published keys',
    );
  if (/"iss"/.test(message))
    return new OidcRefusal('wrong_issuer', 'the ID token was issued by another identity provider');
  if (/"nonce"/.test(message))
    return new OidcRefusal('wrong_nonce', 'the ID token belongs to another sign-in (its nonce does not match)');
  if (/"exp"|"iat"|"nbf"|timestamp/i.test(message))
    return new OidcRefusal('expired_token', 'the ID token is expired or not valid yet');
  return new OidcRefusal('invalid_response', `the identity provider’s answer could not be verified (${message})`);
}

/**
 * Exchanges the code of a callback for tokens and returns the ID token's verified claims; throws
 * OidcRefusal saying why an answer is not accepted.
 */
export async function verifiedClaims(
  client: ProviderClient,
  callback: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<Record<string, unknown>> {
  try {
    const config = await configuration(client);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      pkceCodeVerifier: expected.codeVerifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new OidcRefusal('no_id_token', 'the identity provider sent no ID token');
    return claims as Record<string, unknown>;
  } catch (error) {
    throw refusalOf(error);
  }
}
