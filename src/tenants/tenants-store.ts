import type { Db } from '../infra/database.js';
import type { ApiKeysTable, OrganizationsTable, UsersTable } from '../infra/db-schema.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';

/**
 * The tenants tables: organizations (with their webhook settings and its pause state), users,
 * memberships and API keys. No other module writes SQL against them; the webhooks domain reads and
 * updates an organization's webhook columns through the methods at the end.
 *
 * Made on the database, or on a transaction when its writes must commit with others.
 */

export type OrganizationRow = OrganizationsTable;

/** A new organization's row: no webhook, four-eyes off, the default review period. */
export function newOrganizationRow(fields: {
  id: string;
  slug: string;
  name: string;
  tier: string;
  quota: number | null;
  at: Date;
}): OrganizationRow {
  const at = fields.at.toISOString();
  return {
    id: fields.id,
    slug: fields.slug,
    name: fields.name,
    tier: fields.tier,
    monthly_quota: fields.quota,
    webhook_url: null,
    webhook_secret: null,
    webhook_paused_at: null,
    webhook_failures: 0,
    four_eyes: 'off',
    review_days: 365,
    created_at: at,
    updated_at: at,
  };
}
export type ApiKeyRow = ApiKeysTable;
export type UserRow = UsersTable;

export interface KeyAuthRow {
  key_id: string;
  key_user_id: string;
  expires_at: string | null;
  revoked_at: string | null;
  org_id: string;
  org_slug: string;
  org_name: string;
  tier: string;
  monthly_quota: number | null;
  is_member: number;
}

/** Where an organization's events go and how they are signed. */
export interface WebhookTarget {
  webhook_url: string | null;
  webhook_secret: string | null;
}

/** The tables `authByHash` reads: a cache of its rows watches them (auth.ts). */
export const KEY_AUTH_TABLES = ['api_keys', 'organizations', 'memberships'] as const;

// Run on every request: built and compiled once per database.
const queries = preparedFor((db) => ({
  authByHash: prepareQuery(db, (db, p: { hash: string }) =>
    db
      .selectFrom('api_keys as k')
      .innerJoin('organizations as o', 'o.id', 'k.org_id')
      .leftJoin('memberships as m', (join) =>
        join.onRef('m.org_id', '=', 'k.org_id').onRef('m.user_id', '=', 'k.user_id'),
      )
      .select((eb) => [
        'k.id as key_id',
        'k.user_id as key_user_id',
        'k.expires_at',
        'k.revoked_at',
        'o.id as org_id',
        'o.slug as org_slug',
        'o.name as org_name',
        'o.tier',
        'o.monthly_quota',
        eb.case().when('m.user_id', 'is not', null).then(1).else(0).end().as('is_member'),
      ])
      .where('k.hash', '=', p.hash),
  ),
}));

export class TenantsStore {
  constructor(private readonly db: Db) {}

  orgBySlug(slug: string): Promise<OrganizationRow | undefined> {
    return this.db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
  }

  orgById(id: string): Promise<OrganizationRow | undefined> {
    return this.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listOrgs(): Promise<OrganizationRow[]> {
    return this.db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async insertOrg(row: OrganizationRow): Promise<void> {
    await this.db.insertInto('organizations').values(row).execute();
  }

  async updateOrg(id: string, patch: Partial<OrganizationRow>): Promise<void> {
    await this.db.updateTable('organizations').set(patch).where('id', '=', id).execute();
  }

  userByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** Email addresses of users by id (alerts name who resolved them). */
  async emailsOf(userIds: string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).execute();
    return new Map(rows.map((r) => [r.id, r.email]));
  }

  async insertUser(row: UserRow): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  async isMember(orgId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('memberships')
      .select('user_id')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The member of an organization with this email, if there is one. */
  memberByEmail(orgId: string, email: string): Promise<{ id: string; email: string } | undefined> {
    return this.db
      .selectFrom('users as u')
      .innerJoin('memberships as ms', 'ms.user_id', 'u.id')
      .select(['u.id', 'u.email'])
      .where('u.email', '=', email)
      .where('ms.org_id', '=', orgId)
      .executeTakeFirst();
  }

  /** The role of a user in an organization, or undefined when not a member. */
  async roleOf(orgId: string, userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('memberships')
      .select('role')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role;
  }

  /** The organizations a user belongs to, oldest membership first. */
  membershipsOf(userId: string) {
    return this.db
      .selectFrom('memberships as m')
      .innerJoin('organizations as o', 'o.id', 'm.org_id')
      .select(['o.id', 'o.slug', 'o.name', 'm.role'])
      .where('m.user_id', '=', userId)
      .orderBy('m.created_at')
      .orderBy('o.slug')
      .execute();
  }

  async countMembers(orgId: string): Promise<number> {
    const row = await this.db
      .selectFrom('memberships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** True when the membership existed. */
  async setRole(orgId: string, userId: string, role: string): Promise<boolean> {
    const result = await this.db
      .updateTable('memberships')
      .set({ role })
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  userById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insertMembership(row: { org_id: string; user_id: string; role: string; created_at: string }): Promise<void> {
    await this.db.insertInto('memberships').values(row).execute();
  }

  /** True when a membership was removed. */
  async deleteMembership(orgId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('memberships')
      .where('org_id', '=', orgId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  listMembers(orgId: string) {
    return this.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email', 'm.role', 'm.created_at'])
      .where('m.org_id', '=', orgId)
      .orderBy('m.created_at')
      .execute();
  }

  /** The key, its organization and whether its owner is still a member, in one query. */
  authByHash(hash: string): Promise<KeyAuthRow | undefined> {
    return queries(this.db).authByHash.first({ hash });
  }

  async insertKey(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  listKeys(orgId: string) {
    return this.db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .leftJoin('api_key_usage as ku', 'ku.key_id', 'k.id')
      .select(['k.id', 'k.prefix', 'u.email', 'k.created_at', 'k.expires_at', 'k.revoked_at', 'ku.last_used_at'])
      .where('k.org_id', '=', orgId)
      .orderBy('k.created_at')
      .orderBy('k.id')
      .execute();
  }

  keyById(id: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Records that a key was used (api_key_usage, a table of its own: a write to api_keys would drop
   * the key cache of auth.ts on every use). Never moves the time backwards.
   */
  async touchKeys(uses: { keyId: string; at: string }[]): Promise<void> {
    if (uses.length === 0) return;
    await this.db
      .insertInto('api_key_usage')
      .values(uses.map((u) => ({ key_id: u.keyId, last_used_at: u.at })))
      .onConflict((oc) =>
        oc
          .column('key_id')
          .doUpdateSet((eb) => ({ last_used_at: eb.ref('excluded.last_used_at') }))
          .whereRef('api_key_usage.last_used_at', '<', 'excluded.last_used_at'),
      )
      .execute();
  }

  async revokeKey(id: string, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).execute();
  }

  // The organization's webhook state, for the webhooks domain.

  webhookTarget(orgId: string): Promise<WebhookTarget | undefined> {
    return this.db
      .selectFrom('organizations')
      .select(['webhook_url', 'webhook_secret'])
      .where('id', '=', orgId)
      .executeTakeFirst();
  }

  /** A delivery succeeded: the run of consecutive failures starts again from zero. */
  async clearWebhookFailures(orgId: string): Promise<void> {
    await this.db.updateTable('organizations').set({ webhook_failures: 0 }).where('id', '=', orgId).execute();
  }

  /**
   * Counts one more failed attempt in a row and pauses the webhook when the run reaches
   * `pauseAfter`; true when this call paused it.
   */
  async countWebhookFailure(orgId: string, pauseAfter: number, at: string): Promise<boolean> {
    const org = await this.db
      .updateTable('organizations')
      .set((eb) => ({ webhook_failures: eb('webhook_failures', '+', 1) }))
      .where('id', '=', orgId)
      .returning(['webhook_failures', 'webhook_paused_at'])
      .executeTakeFirst();
    if (!org || org.webhook_paused_at !== null || org.webhook_failures < pauseAfter) return false;
    const paused = await this.db
      .updateTable('organizations')
      .set({ webhook_paused_at: at })
      .where('id', '=', orgId)
      .where('webhook_paused_at', 'is', null)
      .executeTakeFirst();
    return Number(paused.numUpdatedRows) > 0;
  }

  /** Clears the pause and the run of failures. */
  async resumeWebhook(orgId: string, at: string): Promise<void> {
    await this.db
      .updateTable('organizations')
      .set({ webhook_paused_at: null, webhook_failures: 0, updated_at: at })
      .where('id', '=', orgId)
      .execute();
  }
}
