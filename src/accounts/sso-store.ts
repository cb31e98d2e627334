import type { Db } from '../infra/database.js';
import type { OrgSsoTable, SsoLoginsTable } from '../infra/db-schema.js';

/**
 * Single sign-on tables (issue 33): each organization's provider settings and the sign-ins under way.
 * No other module writes SQL against them. Made on the database, or on a transaction.
 */

export type SsoSettingsRow = OrgSsoTable;
export type SsoLoginRow = SsoLoginsTable;

export class SsoStore {
  constructor(private readonly db: Db) {}

  settings(orgId: string): Promise<SsoSettingsRow | undefined> {
    return this.db.selectFrom('org_sso').selectAll().where('org_id', '=', orgId).executeTakeFirst();
  }

  async saveSettings(row: SsoSettingsRow): Promise<void> {
    const { org_id: _orgId, ...rest } = row;
    await this.db
      .insertInto('org_sso')
      .values(row)
      .onConflict((oc) => oc.column('org_id').doUpdateSet(rest))
      .execute();
  }

  async deleteSettings(orgId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('org_sso').where('org_id', '=', orgId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Of these organizations, the ones whose members may not sign in with a password. */
  async passwordLoginOff(orgIds: string[]): Promise<Set<string>> {
    if (orgIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('org_sso')
      .select('org_id')
      .where('org_id', 'in', orgIds)
      .where('password_login', '=', 0)
      .execute();
    return new Set(rows.map((r) => r.org_id));
  }

  async insertLogin(row: SsoLoginRow): Promise<void> {
    await this.db.insertInto('sso_logins').values(row).execute();
  }

  login(stateHash: string): Promise<SsoLoginRow | undefined> {
    return this.db.selectFrom('sso_logins').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
  }

  /** Marks a sign-in used; false when it was used already (a replayed answer, or two at once). */
  async useLogin(stateHash: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sso_logins')
      .set({ used_at: at })
      .where('state_hash', '=', stateHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Sign-ins that expired a day ago go; younger used ones stay, so a replay is named as one. */
  async pruneLogins(before: string): Promise<void> {
    await this.db.deleteFrom('sso_logins').where('expires_at', '<=', before).execute();
  }

  /** Ends a user's sessions in one organization; how many there were. */
  async endSessions(userId: string, orgId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('console_sessions')
      .where('user_id', '=', userId)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Ends the password sessions of an organization (password sign-in was turned off). */
  async endPasswordSessions(orgId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('console_sessions')
      .where('org_id', '=', orgId)
      .where('method', '=', 'password')
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
