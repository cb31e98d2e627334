import type { ConsoleConfig } from '../infra/config.js';
import type { Call } from '../infra/context.js';
import { AppError, notFound } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { effectiveQuota, type TenantsService, TenantsStore, type Tier } from '../tenants/index.js';
import { AccountsStore } from './accounts-store.js';
import { checkPassword, decoyHash, hashPassword, newToken, tokenHash, verifyPassword } from './passwords.js';
import { SsoStore } from './sso-store.js';

/**
 * Sign-in for the web console (issue 16): invitation and reset links, passwords, sessions and the
 * limits on failed sign-ins. The console's pages call it; the command line prints the links.
 */

export interface AccountsDeps {
  config: ConsoleConfig;
  tenants: TenantsService;
}

/** A signed-in user acting for one organization, as each console request sees it. */
export interface SessionView {
  tokenHash: string;
  userId: string;
  email: string;
  orgId: string;
  orgSlug: string;
  orgName: string;
  tier: Tier;
  quota: number | null;
  role: string;
  csrfToken: string;
  expiresAt: string;
  /** `password`, or `sso`: signed in through the organization's identity provider (acts for it only). */
  method: string;
}

export interface Invitation {
  url: string;
  email: string;
  org: string;
  role: string;
  /** `invite` for a user without a password, `reset` for one who has one. */
  purpose: 'invite' | 'reset';
  expiresAt: string;
  /** True when the user was made a member by this invitation. */
  newMember: boolean;
}

/** Whole-minute throttle on last-seen writes: idle expiry is judged to the minute, not every request writes. */
const TOUCH_EVERY_MS = 60_000;

const invalidLink = () =>
  new AppError('NOT_FOUND', 'this link is not valid: it has expired, was already used or was replaced by a newer one');

export type AccountsService = ReturnType<typeof accountsService>;

export function accountsService(deps: AccountsDeps) {
  const { config } = deps;

  async function liveInvitation(store: AccountsStore, token: string, now: Date) {
    const row = await store.invitation(tokenHash(token));
    if (!row || row.used_at !== null || row.expires_at <= now.toISOString()) throw invalidLink();
    return row;
  }

  return {
    /**
     * `sanctions users invite`: makes the user a member when they are not one yet, and prints a
     * single-use link to set a password; for a user who has a password already it is a reset link.
     * A new link withdraws the user's earlier unused ones.
     */
    async invite({ ctx, input }: Call<{ org: string; email: string; role?: string }>): Promise<Invitation> {
      // A link for an existing member leaves their role as it is (roles change with `users add --role` or in the console).
      const tenants = new TenantsStore(ctx.db);
      const [known, target] = await Promise.all([
        tenants.userByEmail(input.email.trim().toLowerCase()),
        tenants.orgBySlug(input.org),
      ]);
      const isMember = known && target ? (await tenants.roleOf(target.id, known.id)) !== undefined : false;
      const member = await deps.tenants.addUser({
        ctx,
        input: {
          org: input.org,
          email: input.email,
          ...(input.role !== undefined && !isMember ? { role: input.role } : {}),
        },
      });
      const store = new AccountsStore(ctx.db);
      const org = await tenants.orgBySlug(member.org);
      if (!org) throw notFound(`organization "${input.org}"`);
      const now = ctx.clock.now();
      const token = newToken();
      const purpose = (await store.passwordHash(member.userId)) === undefined ? 'invite' : 'reset';
      const expiresAt = new Date(now.getTime() + config.invitationTtlMs).toISOString();
      await ctx.db.transaction().execute(async (trx) => {
        const inTrx = new AccountsStore(trx);
        await inTrx.withdrawInvitations(member.userId, now.toISOString());
        await inTrx.insertInvitation({
          token_hash: tokenHash(token),
          user_id: member.userId,
          org_id: org.id,
          purpose,
          created_at: now.toISOString(),
          expires_at: expiresAt,
          used_at: null,
        });
      });
      return {
        url: `${config.publicUrl}/console/invitations/${token}`,
        email: member.email,
        org: org.slug,
        role: member.role,
        purpose,
        expiresAt,
        newMember: member.created,
      };
    },

    /** What an invitation link is for, or NOT_FOUND when it cannot be used. */
    async invitation({ ctx, input }: Call<{ token: string }>) {
      const row = await liveInvitation(new AccountsStore(ctx.db), input.token, ctx.clock.now());
      const tenants = new TenantsStore(ctx.db);
      const [user, org] = await Promise.all([tenants.userById(row.user_id), tenants.orgById(row.org_id)]);
      if (!user || !org) throw invalidLink();
      return { email: user.email, orgName: org.name, purpose: row.purpose as 'invite' | 'reset' };
    },

    /** Sets the password from a link, uses the link up and ends the user's sessions. */
    async acceptInvitation({ ctx, input }: Call<{ token: string; password: string }>) {
      const password = checkPassword(input.password);
      const now = ctx.clock.now();
      const row = await liveInvitation(new AccountsStore(ctx.db), input.token, now);
      const hash = await hashPassword(password);
      await ctx.db.transaction().execute(async (trx) => {
        const store = new AccountsStore(trx);
        if (!(await store.useInvitation(row.token_hash, now.toISOString()))) throw invalidLink();
        await store.setPassword(row.user_id, hash, now.toISOString());
        await store.deleteSessionsOf(row.user_id);
      });
      const user = await new TenantsStore(ctx.db).userById(row.user_id);
      return { email: user?.email ?? '' };
    },

    /**
     * Email and password to a session in the user's first organization. Failed attempts are counted
     * per account and per client address in the database (shared by every node); once either reaches
     * its limit within the window, sign-in is refused, right password or not, until the oldest
     * counted failure leaves the window. Unknown emails count and take as long as known ones.
     */
    async signIn({ ctx, input }: Call<{ email: string; password: string; address: string }>) {
      const now = ctx.clock.now();
      const email = input.email.trim().toLowerCase().slice(0, 320);
      const store = new AccountsStore(ctx.db);
      const windowStart = new Date(now.getTime() - config.signInWindowMs).toISOString();
      const failures = await store.failuresSince(email, input.address, windowStart);
      if (failures.account >= config.signInAccountLimit || failures.address >= config.signInAddressLimit) {
        const oldest = await store.oldestFailureSince(email, input.address, windowStart);
        const lifts = oldest ? new Date(oldest).getTime() + config.signInWindowMs : now.getTime();
        const seconds = Math.max(1, Math.ceil((lifts - now.getTime()) / 1000));
        throw new AppError(
          'RATE_LIMITED',
          `too many failed sign-ins; try again in ${Math.ceil(seconds / 60)} minutes`,
          {
            headers: { 'Retry-After': String(seconds) },
          },
        );
      }
      const tenants = new TenantsStore(ctx.db);
      const user = await tenants.userByEmail(email);
      const stored = user ? await store.passwordHash(user.id) : undefined;
      const ok = await verifyPassword(input.password, stored ?? (await decoyHash()));
      const memberOf = user && ok && stored ? await tenants.membershipsOf(user.id) : [];
      if (!user || !ok || !stored || memberOf.length === 0) {
        await store.pruneFailures(windowStart);
        await store.recordFailure({ id: newId('sif', now), email, address: input.address, at: now.toISOString() });
        throw new AppError('UNAUTHORIZED', 'wrong email or password');
      }
      // Organizations that turned password sign-in off (issue 33) are reached through their provider only.
      const ssoOnly = await new SsoStore(ctx.db).passwordLoginOff(memberOf.map((o) => o.id));
      const orgs = memberOf.filter((o) => !ssoOnly.has(o.id));
      const first = orgs[0];
      if (!first) {
        await store.clearAccountFailures(email);
        throw new AppError(
          'UNAUTHORIZED',
          'your organization signs in through its identity provider: use "Continue with single sign-on" below',
        );
      }
      await store.clearAccountFailures(email);
      const token = newToken();
      const at = now.toISOString();
      await store.deleteExpiredSessions(at, new Date(now.getTime() - config.sessionIdleMs).toISOString());
      await store.insertSession({
        token_hash: tokenHash(token),
        user_id: user.id,
        org_id: first.id,
        csrf_token: newToken(),
        created_at: at,
        last_seen_at: at,
        expires_at: new Date(now.getTime() + config.sessionMaxMs).toISOString(),
        address: input.address,
        method: 'password',
      });
      return { token, organizations: orgs.length };
    },

    /** The session of a cookie, or undefined when it is unknown, expired (idle or absolute) or its member was removed. */
    async session({ ctx, input }: Call<{ token: string }>): Promise<SessionView | undefined> {
      const now = ctx.clock.now();
      const store = new AccountsStore(ctx.db);
      const hash = tokenHash(input.token);
      const row = await store.session(hash);
      if (!row) return undefined;
      const idleEnd = new Date(row.last_seen_at).getTime() + config.sessionIdleMs;
      if (row.expires_at <= now.toISOString() || idleEnd <= now.getTime()) {
        await store.deleteSession(hash);
        return undefined;
      }
      const tenants = new TenantsStore(ctx.db);
      const [user, org, role] = await Promise.all([
        tenants.userById(row.user_id),
        tenants.orgById(row.org_id),
        tenants.roleOf(row.org_id, row.user_id),
      ]);
      if (!user || !org || role === undefined) {
        await store.deleteSession(hash);
        return undefined;
      }
      if (now.getTime() - new Date(row.last_seen_at).getTime() >= TOUCH_EVERY_MS)
        await store.touchSession(hash, now.toISOString());
      const tier = org.tier as Tier;
      return {
        tokenHash: hash,
        userId: user.id,
        email: user.email,
        orgId: org.id,
        orgSlug: org.slug,
        orgName: org.name,
        tier,
        quota: effectiveQuota(tier, org.monthly_quota),
        role,
        csrfToken: row.csrf_token,
        expiresAt: row.expires_at,
        method: row.method,
      };
    },

    /** The organizations a signed-in user can switch between. */
    async organizations({ ctx, input }: Call<{ userId: string }>) {
      return new TenantsStore(ctx.db).membershipsOf(input.userId);
    },

    async switchOrganization({ ctx, input }: Call<{ session: SessionView; orgSlug: string }>) {
      const orgs = await new TenantsStore(ctx.db).membershipsOf(input.session.userId);
      const target = orgs.find((o) => o.slug === input.orgSlug);
      if (!target) throw notFound(`organization "${input.orgSlug}"`);
      // A session from one organization's identity provider acts for that organization only; a password
      // session does not reach an organization that signs in through its provider only.
      if (target.id !== input.session.orgId && input.session.method === 'sso')
        throw new AppError(
          'FORBIDDEN',
          `you signed in through ${input.session.orgName}'s identity provider, which vouches for that organization only; sign out and sign in to ${target.name} on its own`,
        );
      if ((await new SsoStore(ctx.db).passwordLoginOff([target.id])).has(target.id))
        throw new AppError(
          'FORBIDDEN',
          `${target.name} signs in through its identity provider only; sign out and use single sign-on`,
        );
      await new AccountsStore(ctx.db).setSessionOrg(input.session.tokenHash, target.id);
      return { org: target.slug };
    },

    /** Ends the session on the server: the cookie is worthless afterwards. */
    async signOut({ ctx, input }: Call<{ tokenHash: string }>) {
      await new AccountsStore(ctx.db).deleteSession(input.tokenHash);
    },
  };
}
