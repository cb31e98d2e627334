import type { Db } from '../infra/database.js';
import type { ApiKeysTable, OrganizationsTable } from '../infra/db-schema.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';

export type OrganizationRow = OrganizationsTable;
export type ApiKeyRow = ApiKeysTable;

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

  userByEmail(email: string) {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** The key, its organization and whether its owner is still a member, in one query. */
  authByHash(hash: string): Promise<KeyAuthRow | undefined> {
    return queries(this.db).authByHash.first({ hash });
  }

  listKeys(orgId: string) {
    return this.db
      .selectFrom('api_keys as k')
      .innerJoin('users as u', 'u.id', 'k.user_id')
      .select(['k.id', 'k.prefix', 'u.email', 'k.created_at', 'k.expires_at', 'k.revoked_at'])
      .where('k.org_id', '=', orgId)
      .orderBy('k.created_at')
      .orderBy('k.id')
      .execute();
  }

  keyById(id: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
