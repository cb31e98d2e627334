import { type AuditEvent, appendAudit } from '../audit/index.js';
import type { Call, Context } from '../infra/context.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { generateApiKey } from './api-keys.js';
import { checkRole } from './roles.js';
import { newOrganizationRow, type OrganizationRow, TenantsStore } from './tenants-store.js';
import { type Tier, effectiveQuota, isTier, TIERS } from './tiers.js';

/** Administration of organizations, users and keys: used by the command line (and later the console). */

export interface TenantsDeps {
  /** Checks a webhook URL before it is saved (the SSRF rules live in the webhooks domain). */
  checkWebhookUrl?: (url: string) => Promise<void>;
  /** Encrypts a webhook secret before it is stored (infra/secrets.ts; as it is without SECRET_KEY). */
  sealSecret?: (plain: string) => string;
}

export interface OrganizationView {
  id: string;
  slug: string;
  name: string;
  tier: Tier;
  monthlyQuota: number | null;
  effectiveQuota: number | null;
  webhookUrl: string | null;
  webhookSecretSet: boolean;
  webhookPaused: boolean;
  /** The webhook also gets `lists.changed` when list versions come into force (issue 30). */
  webhookListsChanged: boolean;
  fourEyes: string;
  reviewDays: number;
  createdAt: string;
}

export function viewOrganization(row: OrganizationRow): OrganizationView {
  const tier = row.tier as Tier;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    tier,
    monthlyQuota: row.monthly_quota,
    effectiveQuota: effectiveQuota(tier, row.monthly_quota),
    webhookUrl: row.webhook_url,
    webhookSecretSet: row.webhook_secret !== null,
    webhookPaused: row.webhook_paused_at !== null,
    webhookListsChanged: row.webhook_lists_changed === 1,
    fourEyes: row.four_eyes,
    reviewDays: row.review_days,
    createdAt: row.created_at,
  };
}

export interface CreateOrganizationInput {
  slug: string;
  name: string;
  tier: string;
  quota?: number | null;
}

export interface UpdateOrganizationInput {
  org: string;
  name?: string;
  tier?: string;
  quota?: number | null;
  webhookUrl?: string | null;
  webhookSecret?: string | null;
  /** Opt in to (true) or out of the `lists.changed` webhook event (issue 30). */
  listsChanged?: boolean;
  /** Four-eyes for false positives (issue 13): off, high or all. */
  fourEyes?: string;
  /** Days until a suppression lapses for review (issue 13). */
  reviewDays?: number;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkTier(value: string): Tier {
  if (!isTier(value)) throw validationError('tier', `must be one of ${TIERS.join(', ')}`);
  return value;
}

function checkQuota(value: number | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value) || value < 0) throw validationError('quota', 'must be a whole number >= 0');
  return value;
}

function checkName(value: string): string {
  const name = value.trim();
  if (name.length < 1 || name.length > 200) throw validationError('name', 'must be 1 to 200 characters');
  return name;
}

export function normalizeEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 320) throw validationError('email', `"${value}" is not an email address`);
  return email;
}

/** The organization with this slug, or NOT_FOUND naming it. */
export async function requireOrg(store: TenantsStore, slug: string): Promise<OrganizationRow> {
  const org = await store.orgBySlug(slug);
  if (!org) throw notFound(`organization "${slug}"`);
  return org;
}

/** Runs `write` on a store in a transaction that also appends the audit entry it returns. */
async function audited<T>(
  ctx: Context,
  write: (store: TenantsStore) => Promise<{ result: T; event: Omit<AuditEvent, 'actor' | 'at'> }>,
): Promise<T> {
  const at = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const { result, event } = await write(new TenantsStore(trx));
    await appendAudit(ctx.db, trx, [{ ...event, actor: 'operator', at }]);
    return result;
  });
}

export const FOUR_EYES_MODES = ['off', 'high', 'all'] as const;

export type TenantsService = ReturnType<typeof tenantsService>;

export function tenantsService(deps: TenantsDeps = {}) {
  async function webhookUrlPatch(raw: string | null): Promise<string | null> {
    if (raw === null || raw === '') return null;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw validationError('webhook-url', 'is not a valid URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw validationError('webhook-url', 'must be http(s)');
    if (deps.checkWebhookUrl) await deps.checkWebhookUrl(url.toString());
    return url.toString();
  }

  return {
    async createOrganization({ ctx, input }: Call<CreateOrganizationInput>): Promise<OrganizationView> {
      const slug = input.slug.trim().toLowerCase();
      if (!SLUG.test(slug)) throw validationError('slug', 'must be 1 to 63 lower-case letters, digits and dashes');
      const name = checkName(input.name);
      const tier = checkTier(input.tier);
      const quota = checkQuota(input.quota);
      const store = new TenantsStore(ctx.db);
      if (await store.orgBySlug(slug)) throw new AppError('CONFLICT', `organization "${slug}" already exists`);
      const now = ctx.clock.now();
      const row = newOrganizationRow({ id: newId('org', now), slug, name, tier, quota, at: now });
      await audited(ctx, async (trx) => {
        await trx.insertOrg(row);
        return {
          result: undefined,
          event: { chain: row.id, event: 'org.created', subject: row.id, data: { slug, name, tier, quota } },
        };
      });
      return viewOrganization(row);
    },

    async updateOrganization({ ctx, input }: Call<UpdateOrganizationInput>): Promise<OrganizationView> {
      const store = new TenantsStore(ctx.db);
      const org = await requireOrg(store, input.org);
      const patch: Partial<OrganizationRow> = {};
      if (input.name !== undefined) patch.name = checkName(input.name);
      if (input.tier !== undefined) patch.tier = checkTier(input.tier);
      if (input.quota !== undefined) patch.monthly_quota = checkQuota(input.quota);
      if (input.webhookUrl !== undefined) patch.webhook_url = await webhookUrlPatch(input.webhookUrl);
      if (input.webhookSecret !== undefined) {
        if (input.webhookSecret !== null && input.webhookSecret.length < 16) {
          throw validationError('webhook-secret', 'must be at least 16 characters');
        }
        patch.webhook_secret =
          input.webhookSecret !== null && deps.sealSecret ? deps.sealSecret(input.webhookSecret) : input.webhookSecret;
      }
      if (input.listsChanged !== undefined) patch.webhook_lists_changed = input.listsChanged ? 1 : 0;
      if (input.fourEyes !== undefined) {
        if (!(FOUR_EYES_MODES as readonly string[]).includes(input.fourEyes))
          throw validationError('four-eyes', `must be one of ${FOUR_EYES_MODES.join(', ')}`);
        patch.four_eyes = input.fourEyes;
      }
      if (input.reviewDays !== undefined) {
        if (!Number.isInteger(input.reviewDays) || input.reviewDays < 1 || input.reviewDays > 3650)
          throw validationError('review-days', 'must be a whole number of days from 1 to 3650');
        patch.review_days = input.reviewDays;
      }
      if (Object.keys(patch).length === 0) throw validationError('org', 'nothing to update: give at least one setting');
      // The audit entry names the settings changed, never the webhook secret itself.
      const changed = Object.fromEntries(
        Object.entries(patch).map(([k, v]) => [k, k === 'webhook_secret' ? (v === null ? null : '(set)') : v]),
      );
      patch.updated_at = ctx.clock.now().toISOString();
      await audited(ctx, async (trx) => {
        await trx.updateOrg(org.id, patch);
        return { result: undefined, event: { chain: org.id, event: 'org.updated', subject: org.id, data: changed } };
      });
      return viewOrganization({ ...org, ...patch });
    },

    async listOrganizations({ ctx }: Call): Promise<OrganizationView[]> {
      return (await new TenantsStore(ctx.db).listOrgs()).map(viewOrganization);
    },

    /**
     * Adds a member with a role (roles.ts). Without one, the organization's first member becomes its
     * admin (someone must be able to manage it from the console) and later ones analysts.
     */
    async addUser({ ctx, input }: Call<{ org: string; email: string; role?: string }>) {
      const email = normalizeEmail(input.email);
      const given = input.role !== undefined ? checkRole(input.role) : undefined;
      const org = await requireOrg(new TenantsStore(ctx.db), input.org);
      const now = ctx.clock.now();
      return ctx.db.transaction().execute(async (trx) => {
        const store = new TenantsStore(trx);
        const role = given ?? ((await store.countMembers(org.id)) === 0 ? 'admin' : 'analyst');
        let user = await store.userByEmail(email);
        if (!user) {
          user = { id: newId('usr', now), email, created_at: now.toISOString() };
          await store.insertUser(user);
        }
        const current = await store.roleOf(org.id, user.id);
        if (current !== undefined) {
          // An existing member keeps their role unless one is given.
          if (given !== undefined && given !== current) await store.setRole(org.id, user.id, given);
          return { userId: user.id, email, org: org.slug, role: given ?? current, created: false };
        }
        await store.insertMembership({ org_id: org.id, user_id: user.id, role, created_at: now.toISOString() });
        await appendAudit(ctx.db, trx, [
          {
            chain: org.id,
            event: 'user.added',
            actor: 'operator',
            subject: user.id,
            at: now.toISOString(),
            data: { email, role },
          },
        ]);
        return { userId: user.id, email, org: org.slug, role, created: true };
      });
    },

    async removeUser({ ctx, input }: Call<{ org: string; email: string }>) {
      const email = normalizeEmail(input.email);
      const store = new TenantsStore(ctx.db);
      const org = await requireOrg(store, input.org);
      const user = await store.userByEmail(email);
      if (!user) throw notFound(`user "${email}"`);
      const removed = await audited(ctx, async (trx) => ({
        result: await trx.deleteMembership(org.id, user.id),
        event: { chain: org.id, event: 'user.removed', subject: user.id, data: { email } },
      }));
      if (!removed) throw notFound(`membership of "${email}" in "${org.slug}"`);
      return { email, org: org.slug, removed: true };
    },

    async setRole({ ctx, input }: Call<{ org: string; email: string; role: string }>) {
      const role = checkRole(input.role);
      const email = normalizeEmail(input.email);
      const store = new TenantsStore(ctx.db);
      const org = await requireOrg(store, input.org);
      const user = await store.userByEmail(email);
      if (!user || !(await store.setRole(org.id, user.id, role)))
        throw notFound(`membership of "${email}" in "${org.slug}"`);
      return { email, org: org.slug, role };
    },

    async listUsers({ ctx, input }: Call<{ org: string }>) {
      const store = new TenantsStore(ctx.db);
      return store.listMembers((await requireOrg(store, input.org)).id);
    },

    async createApiKey({ ctx, input }: Call<{ org: string; email: string; expiresAt?: string }>) {
      const email = normalizeEmail(input.email);
      const store = new TenantsStore(ctx.db);
      const org = await requireOrg(store, input.org);
      const user = await store.userByEmail(email);
      if (!user) throw notFound(`user "${email}"`);
      if (!(await store.isMember(org.id, user.id)))
        throw validationError('user', `"${email}" is not a member of "${org.slug}"`);
      const now = ctx.clock.now();
      let expiresAt: string | null = null;
      if (input.expiresAt !== undefined) {
        const parsed = new Date(input.expiresAt);
        if (!/^\d{4}-\d{2}-\d{2}/.test(input.expiresAt) || Number.isNaN(parsed.getTime())) {
          throw validationError('expires-at', 'must be an ISO 8601 date or date-time');
        }
        if (parsed.getTime() <= now.getTime()) throw validationError('expires-at', 'must be in the future');
        expiresAt = parsed.toISOString();
      }
      const { key, prefix, hash } = generateApiKey();
      const id = newId('key', now);
      const createdAt = now.toISOString();
      await audited(ctx, async (trx) => {
        await trx.insertKey({
          id,
          org_id: org.id,
          user_id: user.id,
          prefix,
          hash,
          created_at: createdAt,
          expires_at: expiresAt,
          revoked_at: null,
        });
        return {
          result: undefined,
          event: { chain: org.id, event: 'key.created', subject: id, data: { prefix, user: email, expiresAt } },
        };
      });
      return { id, key, prefix, org: org.slug, user: email, expiresAt, createdAt };
    },

    /** With `orgId`, a key of another organization is NOT_FOUND (the console acts for one organization). */
    async revokeApiKey({
      ctx,
      input,
    }: Call<{ id: string; orgId?: string }>): Promise<{ id: string; revokedAt: string }> {
      const store = new TenantsStore(ctx.db);
      const key = await store.keyById(input.id);
      if (!key || (input.orgId !== undefined && key.org_id !== input.orgId)) throw notFound(`key "${input.id}"`);
      if (key.revoked_at) return { id: input.id, revokedAt: key.revoked_at };
      const revokedAt = ctx.clock.now().toISOString();
      await audited(ctx, async (trx) => {
        await trx.revokeKey(input.id, revokedAt);
        return {
          result: undefined,
          event: { chain: key.org_id, event: 'key.revoked', subject: input.id, data: { prefix: key.prefix } },
        };
      });
      return { id: input.id, revokedAt };
    },

    async listApiKeys({ ctx, input }: Call<{ org: string }>) {
      const store = new TenantsStore(ctx.db);
      const org = await requireOrg(store, input.org);
      const now = ctx.clock.now().toISOString();
      return (await store.listKeys(org.id)).map((k) => ({
        id: k.id,
        prefix: k.prefix,
        user: k.email,
        createdAt: k.created_at,
        expiresAt: k.expires_at,
        revokedAt: k.revoked_at,
        lastUsedAt: k.last_used_at ?? null,
        status: k.revoked_at ? 'revoked' : k.expires_at && k.expires_at <= now ? 'expired' : 'active',
      }));
    },
  };
}
