import { type AuditEvent, appendAudit, appendAuditNow } from '../audit/index.js';
import type { ConsoleConfig } from '../infra/config.js';
import type { Call, Context } from '../infra/context.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { TenantsStore } from '../tenants/index.js';
import { AccountsStore } from './accounts-store.js';
import { authorizationUrl, newVerifier, OidcRefusal, type ProviderClient, verifiedClaims } from './oidc-client.js';
import { newToken, tokenHash } from './passwords.js';
import { checkClaimName, checkIssuer, emailDomainAllowed, parseDomains, roleFromClaims } from './sso-mapping.js';
import { type SsoSettingsRow, SsoStore } from './sso-store.js';

/**
 * Console sign-in through an organization's OpenID Connect provider (issue 33). Each organization
 * has its own provider, client and role mapping; a sign-in started for one organization is finished
 * with that organization's settings only (the sign-in row names it), and the session it makes acts
 * for that organization only. Every sign-in, refusal and change of the settings is an audit entry in
 * the organization's chain.
 */

export interface SsoDeps {
  config: ConsoleConfig;
  /** Seals the client secret at rest and opens it again (infra/secrets.ts; as it is without SECRET_KEY). */
  secrets: { seal(plain: string): string; open(stored: string): string };
}

export interface SsoSettingsInput {
  org: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  domains?: string | string[];
  scopes?: string;
  roleClaim?: string;
  /** '' removes the group of that role. */
  adminGroup?: string;
  analystGroup?: string;
  auditorGroup?: string;
  passwordLogin?: boolean;
}

export interface SsoSettingsView {
  org: string;
  issuer: string;
  clientId: string;
  clientSecretSet: true;
  domains: string[];
  scopes: string;
  roleClaim: string;
  adminGroup: string | null;
  analystGroup: string | null;
  auditorGroup: string | null;
  passwordLogin: boolean;
  /** The address to register at the provider as the client's redirect URI. */
  redirectUri: string;
  updatedAt: string;
}

/** A sign-in refused: `reason` is a stable word for the audit entry, the message says why to the user. */
export class SsoRefused extends AppError {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super('FORBIDDEN', message);
  }
}

export const DEFAULT_SCOPES = 'openid email profile';
export const CALLBACK_PATH = '/console/sso/callback';

/** Sign-ins whose row expired this long ago are deleted; younger ones stay, so a replay is named as one. */
const KEEP_USED_LOGINS_MS = 24 * 3_600_000;

function trimmed(field: string, value: string, max = 500): string {
  const text = value.trim();
  if (text.length === 0 || text.length > max) throw validationError(field, `must be 1 to ${max} characters`);
  return text;
}

function group(value: string | undefined, current: string | null): string | null {
  if (value === undefined) return current;
  const text = value.trim();
  if (text.length > 500) throw validationError('group', 'must be at most 500 characters');
  return text === '' ? null : text;
}

function checkScopes(value: string): string {
  const scopes = value.trim().split(/\s+/).filter(Boolean);
  if (!scopes.includes('openid')) throw validationError('scopes', 'must include openid');
  if (scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(s)))
    throw validationError('scopes', 'must be scope names separated by spaces');
  return scopes.join(' ');
}

export type SsoService = ReturnType<typeof ssoService>;

export function ssoService(deps: SsoDeps) {
  const { config } = deps;
  const redirectUriFor = (origin: string) => `${origin}${CALLBACK_PATH}`;

  function view(slug: string, row: SsoSettingsRow, origin: string): SsoSettingsView {
    return {
      org: slug,
      issuer: row.issuer,
      clientId: row.client_id,
      clientSecretSet: true,
      domains: JSON.parse(row.domains) as string[],
      scopes: row.scopes,
      roleClaim: row.role_claim,
      adminGroup: row.admin_group,
      analystGroup: row.analyst_group,
      auditorGroup: row.auditor_group,
      passwordLogin: row.password_login === 1,
      redirectUri: redirectUriFor(origin),
      updatedAt: row.updated_at,
    };
  }

  async function requireOrg(ctx: Context, slug: string) {
    const org = await new TenantsStore(ctx.db).orgBySlug(slug);
    if (!org) throw notFound(`organization "${slug}"`);
    return org;
  }

  async function refuse(
    ctx: Context,
    orgId: string,
    reason: string,
    message: string,
    data: Record<string, unknown> = {},
  ): Promise<never> {
    await appendAuditNow(ctx.db, [
      {
        chain: orgId,
        event: 'sso.refused',
        actor: typeof data.userId === 'string' ? data.userId : 'anonymous',
        subject: orgId,
        at: ctx.clock.now().toISOString(),
        data: { reason, message, ...data },
      },
    ]);
    throw new SsoRefused(reason, message);
  }

  return {
    /**
     * `sanctions orgs sso set` and the Settings page: creates or changes an organization's provider
     * settings. The first setting needs issuer, client id and secret, domains and one group at least;
     * later ones change what they name. The audit entry names what changed, never the secret.
     */
    async configure({ ctx, input, actor }: Call<SsoSettingsInput> & { actor: string }): Promise<SsoSettingsView> {
      const org = await requireOrg(ctx, input.org);
      const store = new SsoStore(ctx.db);
      const current = await store.settings(org.id);
      const need = (field: string, value: string | undefined, existing: string | undefined) => {
        if (value !== undefined && value.trim() !== '') return value;
        if (existing !== undefined) return existing;
        throw validationError(field, 'is required to set up single sign-on');
      };
      const issuer = checkIssuer(need('issuer', input.issuer, current?.issuer), config.ssoAllowHttp);
      const clientId = trimmed('client-id', need('client-id', input.clientId, current?.client_id));
      const secret =
        input.clientSecret !== undefined && input.clientSecret !== ''
          ? trimmed('client-secret', input.clientSecret, 2000)
          : undefined;
      if (secret === undefined && !current)
        throw validationError('client-secret', 'is required to set up single sign-on');
      const domains =
        input.domains !== undefined
          ? parseDomains(input.domains)
          : current
            ? (JSON.parse(current.domains) as string[])
            : parseDomains('');
      const row: SsoSettingsRow = {
        org_id: org.id,
        issuer,
        client_id: clientId,
        client_secret: secret !== undefined ? deps.secrets.seal(secret) : (current?.client_secret ?? ''),
        domains: JSON.stringify(domains),
        scopes: checkScopes(input.scopes ?? current?.scopes ?? DEFAULT_SCOPES),
        role_claim: checkClaimName(input.roleClaim ?? current?.role_claim ?? 'groups'),
        admin_group: group(input.adminGroup, current?.admin_group ?? null),
        analyst_group: group(input.analystGroup, current?.analyst_group ?? null),
        auditor_group: group(input.auditorGroup, current?.auditor_group ?? null),
        password_login:
          input.passwordLogin === undefined ? (current?.password_login ?? 1) : input.passwordLogin ? 1 : 0,
        updated_at: ctx.clock.now().toISOString(),
      };
      if (row.admin_group === null && row.analyst_group === null && row.auditor_group === null)
        throw validationError('analyst-group', 'map at least one group to a role (admin, analyst or auditor)');
      const changed: Record<string, unknown> = {};
      for (const key of Object.keys(row) as (keyof SsoSettingsRow)[]) {
        if (key === 'updated_at' || key === 'org_id') continue;
        if (key === 'client_secret') {
          if (secret !== undefined) changed.client_secret = '(set)';
        } else if (!current || current[key] !== row[key]) changed[key] = key === 'domains' ? domains : row[key];
      }
      await ctx.db.transaction().execute(async (trx) => {
        const inTrx = new SsoStore(trx);
        await inTrx.saveSettings(row);
        // Turning password sign-in off ends the password sessions at once, not at their expiry.
        const ended = row.password_login === 0 ? await inTrx.endPasswordSessions(org.id) : 0;
        await appendAudit(ctx.db, trx, [
          {
            chain: org.id,
            event: current ? 'sso.updated' : 'sso.configured',
            actor,
            subject: org.id,
            at: row.updated_at,
            data: { ...changed, ...(ended > 0 ? { passwordSessionsEnded: ended } : {}) },
          },
        ]);
      });
      return view(org.slug, row, config.publicUrl);
    },

    async show({ ctx, input }: Call<{ org: string }>): Promise<SsoSettingsView | null> {
      const org = await requireOrg(ctx, input.org);
      const row = await new SsoStore(ctx.db).settings(org.id);
      return row ? view(org.slug, row, config.publicUrl) : null;
    },

    /** Removes single sign-on: members sign in with passwords again. */
    async remove({ ctx, input, actor }: Call<{ org: string }> & { actor: string }) {
      const org = await requireOrg(ctx, input.org);
      await ctx.db.transaction().execute(async (trx) => {
        if (!(await new SsoStore(trx).deleteSettings(org.id)))
          throw notFound(`single sign-on of organization "${org.slug}"`);
        await appendAudit(ctx.db, trx, [
          { chain: org.id, event: 'sso.removed', actor, subject: org.id, at: ctx.clock.now().toISOString(), data: {} },
        ]);
      });
      return { org: org.slug, removed: true };
    },

    /**
     * Starts a sign-in: the provider's address to send the browser to. The sign-in row holds the
     * state (hashed), nonce and PKCE verifier, names the organization, and is bound to the browser by
     * a cookie token, so the answer is accepted once, in that browser, for that organization.
     */
    async start({ ctx, input }: Call<{ org: string; origin: string; browserToken: string }>) {
      const slug = input.org.trim().toLowerCase();
      const org = slug ? await new TenantsStore(ctx.db).orgBySlug(slug) : undefined;
      const settings = org ? await new SsoStore(ctx.db).settings(org.id) : undefined;
      // The same answer for an unknown organization and one without single sign-on: slugs are not probed.
      if (!org || !settings)
        throw new AppError('NOT_FOUND', `no single sign-on is set up for organization "${input.org.trim()}"`);
      const now = ctx.clock.now();
      const verifier = newVerifier();
      const redirectUri = redirectUriFor(input.origin);
      let url: URL;
      try {
        url = await authorizationUrl(client(settings), { redirectUri, scopes: settings.scopes, ...verifier });
      } catch (error) {
        if (error instanceof OidcRefusal) return refuse(ctx, org.id, error.reason, error.message);
        throw error;
      }
      const store = new SsoStore(ctx.db);
      await store.pruneLogins(new Date(now.getTime() - KEEP_USED_LOGINS_MS).toISOString());
      await store.insertLogin({
        state_hash: tokenHash(verifier.state),
        org_id: org.id,
        browser_hash: tokenHash(input.browserToken),
        nonce: verifier.nonce,
        code_verifier: verifier.codeVerifier,
        redirect_uri: redirectUri,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + config.ssoLoginTtlMs).toISOString(),
        used_at: null,
      });
      return { url: url.href };
    },

    /**
     * Finishes a sign-in from the provider's answer (the callback's query): checks the state (known,
     * unused, unexpired, this browser's), exchanges the code, verifies the ID token, the email's
     * domain and the role mapping, then makes or updates the membership and opens a session. A user
     * whose groups no longer map to a role loses the membership and their sessions in the organization.
     */
    async finish({ ctx, input }: Call<{ query: URLSearchParams; browserToken: string; address: string }>) {
      const now = ctx.clock.now();
      const state = input.query.get('state') ?? '';
      const store = new SsoStore(ctx.db);
      const login = state ? await store.login(tokenHash(state)) : undefined;
      if (!login)
        throw new SsoRefused('unknown_state', 'this sign-in answer belongs to no sign-in started here; start again');
      if (login.used_at !== null)
        return refuse(ctx, login.org_id, 'replayed_state', 'this sign-in answer was already used (replayed state)');
      if (login.expires_at <= now.toISOString())
        return refuse(ctx, login.org_id, 'expired_state', 'the sign-in took too long and has expired; start again');
      if (!input.browserToken || tokenHash(input.browserToken) !== login.browser_hash)
        return refuse(ctx, login.org_id, 'other_browser', 'this sign-in was started in another browser; start again');
      if (!(await store.useLogin(login.state_hash, now.toISOString())))
        return refuse(ctx, login.org_id, 'replayed_state', 'this sign-in answer was already used (replayed state)');
      const settings = await store.settings(login.org_id);
      if (!settings)
        return refuse(ctx, login.org_id, 'sso_removed', 'single sign-on was turned off for this organization');

      const callback = new URL(login.redirect_uri);
      callback.search = input.query.toString();
      let claims: Record<string, unknown>;
      try {
        claims = await verifiedClaims(client(settings), callback, {
          state,
          nonce: login.nonce,
          codeVerifier: login.code_verifier,
        });
      } catch (error) {
        if (error instanceof OidcRefusal) return refuse(ctx, login.org_id, error.reason, error.message);
        throw error;
      }

      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
      const subject = typeof claims.sub === 'string' ? claims.sub : '';
      if (!email)
        return refuse(ctx, login.org_id, 'no_email', 'the identity provider sent no email address', { subject });
      if (claims.email_verified === false)
        return refuse(ctx, login.org_id, 'email_unverified', `the email address ${email} is not verified`, { email });
      const domains = JSON.parse(settings.domains) as string[];
      if (!emailDomainAllowed(email, domains))
        return refuse(
          ctx,
          login.org_id,
          'domain_not_allowed',
          `the email address ${email} is outside the domains this organization accepts (${domains.join(', ')})`,
          { email },
        );
      const role = roleFromClaims(claims, {
        claim: settings.role_claim,
        admin: settings.admin_group,
        analyst: settings.analyst_group,
        auditor: settings.auditor_group,
      });
      const tenants = new TenantsStore(ctx.db);
      if (role === undefined) {
        const user = await tenants.userByEmail(email);
        let sessionsEnded = 0;
        let membershipRemoved = false;
        if (user) {
          await ctx.db.transaction().execute(async (trx) => {
            sessionsEnded = await new SsoStore(trx).endSessions(user.id, login.org_id);
            membershipRemoved = await new TenantsStore(trx).deleteMembership(login.org_id, user.id);
          });
        }
        return refuse(
          ctx,
          login.org_id,
          'no_role',
          `none of your groups in the "${settings.role_claim}" claim gives a role in this organization; ask your administrator`,
          { email, ...(user ? { userId: user.id } : {}), membershipRemoved, sessionsEnded },
        );
      }

      const at = now.toISOString();
      const token = newToken();
      const org = await tenants.orgById(login.org_id);
      const result = await ctx.db.transaction().execute(async (trx) => {
        const inTrx = new TenantsStore(trx);
        const events: AuditEvent[] = [];
        let user = await inTrx.userByEmail(email);
        if (!user) {
          user = { id: newId('usr', now), email, created_at: at };
          await inTrx.insertUser(user);
        }
        const previous = await inTrx.roleOf(login.org_id, user.id);
        if (previous === undefined) {
          await inTrx.insertMembership({ org_id: login.org_id, user_id: user.id, role, created_at: at });
          events.push({
            chain: login.org_id,
            event: 'user.added',
            actor: 'sso',
            subject: user.id,
            at,
            data: { email, role, via: 'sso' },
          });
        } else if (previous !== role) await inTrx.setRole(login.org_id, user.id, role);
        await new AccountsStore(trx).insertSession({
          token_hash: tokenHash(token),
          user_id: user.id,
          org_id: login.org_id,
          csrf_token: newToken(),
          created_at: at,
          last_seen_at: at,
          expires_at: new Date(now.getTime() + config.sessionMaxMs).toISOString(),
          address: input.address,
          method: 'sso',
        });
        events.push({
          chain: login.org_id,
          event: 'sso.signed_in',
          actor: user.id,
          subject: user.id,
          at,
          data: {
            email,
            subject,
            issuer: settings.issuer,
            role,
            ...(previous !== undefined && previous !== role ? { previousRole: previous } : {}),
            newMember: previous === undefined,
          },
        });
        await appendAudit(ctx.db, trx, events);
        return { userId: user.id, previous };
      });
      return { token, org: org?.slug ?? '', email, role, previousRole: result.previous ?? null };
    },
  };

  function client(settings: SsoSettingsRow): ProviderClient {
    return {
      issuer: settings.issuer,
      clientId: settings.client_id,
      clientSecret: deps.secrets.open(settings.client_secret),
      allowHttp: config.ssoAllowHttp,
    };
  }
}
