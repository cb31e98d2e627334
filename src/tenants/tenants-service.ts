import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { generateApiKey } from './api-keys.js';
import { type OrganizationRow, TenantsStore } from './tenants-store.js';
import { type Tier, effectiveQuota, isTier, TIERS } from './tiers.js';

/** Administration of organizations, users and keys: used by the command line (and later the console). */

export interface AdminContext {
  db: Db;
  clock: Clock;
  /** Checks a webhook URL before it is saved (SSRF rules live in the webhooks module). */
  checkWebhookUrl?: (url: string) => Promise<void>;
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
    createdAt: row.created_at,
  };
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

async function requireOrg(store: TenantsStore, slug: string): Promise<OrganizationRow> {
  const org = await store.orgBySlug(slug);
  if (!org) throw notFound(`organization "${slug}"`);
  return org;
}

export async function createOrganization(
  ctx: AdminContext,
  input: { slug: string; name: string; tier: string; quota?: number | null },
): Promise<OrganizationView> {
  const slug = input.slug.trim().toLowerCase();
  if (!SLUG.test(slug)) throw validationError('slug', 'must be 1 to 63 lower-case letters, digits and dashes');
  const name = checkName(input.name);
  const tier = checkTier(input.tier);
  const quota = checkQuota(input.quota);
  const store = new TenantsStore(ctx.db);
  if (await store.orgBySlug(slug)) throw new AppError('CONFLICT', `organization "${slug}" already exists`);
  const now = ctx.clock.now().toISOString();
  const row: OrganizationRow = {
    id: newId('org'),
    slug,
    name,
    tier,
    monthly_quota: quota,
    webhook_url: null,
    webhook_secret: null,
    webhook_paused_at: null,
    webhook_failures: 0,
    created_at: now,
    updated_at: now,
  };
  await store.insertOrg(row);
  return viewOrganization(row);
}

export async function updateOrganization(
  ctx: AdminContext,
  input: {
    org: string;
    name?: string;
    tier?: string;
    quota?: number | null;
    webhookUrl?: string | null;
    webhookSecret?: string | null;
  },
): Promise<OrganizationView> {
  const store = new TenantsStore(ctx.db);
  const org = await requireOrg(store, input.org);
  const patch: Partial<OrganizationRow> = {};
  if (input.name !== undefined) patch.name = checkName(input.name);
  if (input.tier !== undefined) patch.tier = checkTier(input.tier);
  if (input.quota !== undefined) patch.monthly_quota = checkQuota(input.quota);
  if (input.webhookUrl !== undefined) {
    if (input.webhookUrl === null || input.webhookUrl === '') {
      patch.webhook_url = null;
    } else {
      let url: URL;
      try {
        url = new URL(input.webhookUrl);
      } catch {
        throw validationError('webhook-url', 'is not a valid URL');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw validationError('webhook-url', 'must be http(s)');
      if (ctx.checkWebhookUrl) await ctx.checkWebhookUrl(url.toString());
      patch.webhook_url = url.toString();
    }
  }
  if (input.webhookSecret !== undefined) {
    if (input.webhookSecret !== null && input.webhookSecret.length < 16) {
      throw validationError('webhook-secret', 'must be at least 16 characters');
    }
    patch.webhook_secret = input.webhookSecret;
  }
  if (Object.keys(patch).length === 0) throw validationError('org', 'nothing to update: give at least one setting');
  patch.updated_at = ctx.clock.now().toISOString();
  await store.updateOrg(org.id, patch);
  return viewOrganization({ ...org, ...patch });
}

export async function listOrganizations(ctx: AdminContext): Promise<OrganizationView[]> {
  return (await new TenantsStore(ctx.db).listOrgs()).map(viewOrganization);
}

export async function getOrganization(ctx: AdminContext, slug: string): Promise<OrganizationRow> {
  return requireOrg(new TenantsStore(ctx.db), slug);
}

export async function addUser(
  ctx: AdminContext,
  input: { org: string; email: string; role?: string },
): Promise<{ userId: string; email: string; org: string; role: string; created: boolean }> {
  const email = normalizeEmail(input.email);
  const store = new TenantsStore(ctx.db);
  const org = await requireOrg(store, input.org);
  const now = ctx.clock.now().toISOString();
  const role = input.role ?? 'member';
  return ctx.db.transaction().execute(async (trx) => {
    let user = await trx.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    if (!user) {
      user = { id: newId('usr'), email, created_at: now };
      await trx.insertInto('users').values(user).execute();
    }
    const existing = await trx
      .selectFrom('memberships')
      .select('user_id')
      .where('org_id', '=', org.id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (existing) return { userId: user.id, email, org: org.slug, role, created: false };
    await trx.insertInto('memberships').values({ org_id: org.id, user_id: user.id, role, created_at: now }).execute();
    return { userId: user.id, email, org: org.slug, role, created: true };
  });
}

export async function removeUser(
  ctx: AdminContext,
  input: { org: string; email: string },
): Promise<{ email: string; org: string; removed: boolean }> {
  const email = normalizeEmail(input.email);
  const store = new TenantsStore(ctx.db);
  const org = await requireOrg(store, input.org);
  const user = await store.userByEmail(email);
  if (!user) throw notFound(`user "${email}"`);
  const result = await ctx.db
    .deleteFrom('memberships')
    .where('org_id', '=', org.id)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound(`membership of "${email}" in "${org.slug}"`);
  return { email, org: org.slug, removed: true };
}

export async function listUsers(ctx: AdminContext, orgSlug: string) {
  const org = await requireOrg(new TenantsStore(ctx.db), orgSlug);
  return ctx.db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'm.role', 'm.created_at'])
    .where('m.org_id', '=', org.id)
    .orderBy('m.created_at')
    .execute();
}

export async function createApiKey(
  ctx: AdminContext,
  input: { org: string; email: string; expiresAt?: string },
): Promise<{
  id: string;
  key: string;
  prefix: string;
  org: string;
  user: string;
  expiresAt: string | null;
  createdAt: string;
}> {
  const email = normalizeEmail(input.email);
  const store = new TenantsStore(ctx.db);
  const org = await requireOrg(store, input.org);
  const user = await store.userByEmail(email);
  if (!user) throw notFound(`user "${email}"`);
  const member = await ctx.db
    .selectFrom('memberships')
    .select('user_id')
    .where('org_id', '=', org.id)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (!member) throw validationError('user', `"${email}" is not a member of "${org.slug}"`);
  let expiresAt: string | null = null;
  if (input.expiresAt !== undefined) {
    const parsed = new Date(input.expiresAt);
    if (!/^\d{4}-\d{2}-\d{2}/.test(input.expiresAt) || Number.isNaN(parsed.getTime())) {
      throw validationError('expires-at', 'must be an ISO 8601 date or date-time');
    }
    if (parsed.getTime() <= ctx.clock.now().getTime()) throw validationError('expires-at', 'must be in the future');
    expiresAt = parsed.toISOString();
  }
  const { key, prefix, hash } = generateApiKey();
  const id = newId('key');
  const createdAt = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto('api_keys')
    .values({
      id,
      org_id: org.id,
      user_id: user.id,
      prefix,
      hash,
      created_at: createdAt,
      expires_at: expiresAt,
      revoked_at: null,
    })
    .execute();
  return { id, key, prefix, org: org.slug, user: email, expiresAt, createdAt };
}

export async function revokeApiKey(ctx: AdminContext, id: string): Promise<{ id: string; revokedAt: string }> {
  const store = new TenantsStore(ctx.db);
  const key = await store.keyById(id);
  if (!key) throw notFound(`key "${id}"`);
  if (key.revoked_at) return { id, revokedAt: key.revoked_at };
  const revokedAt = ctx.clock.now().toISOString();
  await ctx.db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).execute();
  return { id, revokedAt };
}

export async function listApiKeys(ctx: AdminContext, orgSlug: string) {
  const store = new TenantsStore(ctx.db);
  const org = await requireOrg(store, orgSlug);
  const now = ctx.clock.now().toISOString();
  return (await store.listKeys(org.id)).map((k) => ({
    id: k.id,
    prefix: k.prefix,
    user: k.email,
    createdAt: k.created_at,
    expiresAt: k.expires_at,
    revokedAt: k.revoked_at,
    status: k.revoked_at ? 'revoked' : k.expires_at && k.expires_at <= now ? 'expired' : 'active',
  }));
}
