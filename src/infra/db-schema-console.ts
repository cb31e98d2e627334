/** Table types of the console sign-in (accounts/): passwords, invitations, sessions, SSO, failed sign-ins. */
export interface UserPasswordsTable {
  user_id: string;
  /** scrypt, with its parameters and salt (accounts/passwords.ts). */
  password_hash: string;
  updated_at: string;
}

export interface ConsoleInvitationsTable {
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  user_id: string;
  org_id: string;
  /** `invite` or `reset`. */
  purpose: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ConsoleSessionsTable {
  /** SHA-256 of the cookie's token, hex. */
  token_hash: string;
  user_id: string;
  org_id: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end; the idle end is last_seen_at plus the idle time. */
  expires_at: string;
  address: string | null;
  /** How the user signed in: `password`, or `sso` (through the session's organization's provider). */
  method: string;
}

/** An organization's OpenID Connect sign-in (issue 33); the client secret is sealed (infra/secrets.ts). */
export interface OrgSsoTable {
  org_id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  /** JSON array of the allowed email domains, lower case. */
  domains: string;
  /** Space-separated scopes asked for. */
  scopes: string;
  /** The ID token claim holding the user's groups (a string or an array of strings). */
  role_claim: string;
  admin_group: string | null;
  analyst_group: string | null;
  auditor_group: string | null;
  /** 1: members may also sign in with a password; 0: only through the provider. */
  password_login: number;
  updated_at: string;
}

/** A sign-in sent to a provider and not back yet: single use, bound to the browser that started it. */
export interface SsoLoginsTable {
  /** SHA-256 of the `state` parameter, hex. */
  state_hash: string;
  org_id: string;
  /** SHA-256 of the browser's sign-in cookie, hex. */
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface SignInFailuresTable {
  id: string;
  email: string;
  address: string;
  at: string;
}
