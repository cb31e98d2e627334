import type { Db } from '../infra/database.js';
import type { ScreeningProfileVersionsTable, ScreeningProfilesTable } from '../infra/db-schema.js';

/**
 * The screening_profiles and screening_profile_versions tables. A version is written once with its
 * settings; its state moves forward only (draft -> pending -> active -> retired, or draft ->
 * discarded), each move checked against the state it expects, so two admins cannot both move it.
 * No other module writes SQL against these tables.
 */

export type ProfileRow = ScreeningProfilesTable;
export type ProfileVersionRow = ScreeningProfileVersionsTable;

/** The settings in force for each of an organization's profiles (what a screening reads). */
export interface ActiveRow {
  id: string;
  org_id: string;
  key_id: string | null;
  version: number;
  settings: string;
}

export class ProfileStore {
  constructor(private readonly db: Db) {}

  async insertProfile(row: ProfileRow, trx: Db = this.db): Promise<void> {
    await trx.insertInto('screening_profiles').values(row).execute();
  }

  async insertVersion(row: ProfileVersionRow, trx: Db = this.db): Promise<void> {
    await trx.insertInto('screening_profile_versions').values(row).execute();
  }

  byId(orgId: string, id: string): Promise<ProfileRow | undefined> {
    return this.db
      .selectFrom('screening_profiles')
      .selectAll()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
  }

  ofOrg(orgId: string): Promise<ProfileRow[]> {
    return this.db
      .selectFrom('screening_profiles')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  versions(profileId: string): Promise<ProfileVersionRow[]> {
    return this.db
      .selectFrom('screening_profile_versions')
      .selectAll()
      .where('profile_id', '=', profileId)
      .orderBy('version')
      .execute();
  }

  version(profileId: string, version: number): Promise<ProfileVersionRow | undefined> {
    return this.db
      .selectFrom('screening_profile_versions')
      .selectAll()
      .where('profile_id', '=', profileId)
      .where('version', '=', version)
      .executeTakeFirst();
  }

  /** The version waiting to become active (a draft, or one pending approval), if any. */
  open(profileId: string): Promise<ProfileVersionRow | undefined> {
    return this.db
      .selectFrom('screening_profile_versions')
      .selectAll()
      .where('profile_id', '=', profileId)
      .where('state', 'in', ['draft', 'pending'])
      .executeTakeFirst();
  }

  /** Active settings of one organization's profiles, or of every organization's (a cache in this process). */
  active(orgId?: string): Promise<ActiveRow[]> {
    let query = this.db
      .selectFrom('screening_profiles as p')
      .innerJoin('screening_profile_versions as v', (join) =>
        join.onRef('v.profile_id', '=', 'p.id').onRef('v.version', '=', 'p.active_version'),
      )
      .select(['p.id', 'p.org_id', 'p.key_id', 'v.version', 'v.settings']);
    if (orgId !== undefined) query = query.where('p.org_id', '=', orgId);
    return query.execute();
  }

  /** Moves a version from one state to the next; false when it was not in `from` (another admin moved it). */
  async move(
    profileId: string,
    version: number,
    from: readonly string[],
    set: Partial<ProfileVersionRow>,
    trx: Db = this.db,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('screening_profile_versions')
      .set(set)
      .where('profile_id', '=', profileId)
      .where('version', '=', version)
      .where('state', 'in', [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setActive(profileId: string, version: number, trx: Db): Promise<void> {
    await trx
      .updateTable('screening_profile_versions')
      .set({ state: 'retired' })
      .where('profile_id', '=', profileId)
      .where('state', '=', 'active')
      .execute();
    await trx.updateTable('screening_profiles').set({ active_version: version }).where('id', '=', profileId).execute();
  }

  /** The last backtest of a draft, kept with it. */
  async saveBacktest(profileId: string, version: number, json: string, at: string): Promise<void> {
    await this.db
      .updateTable('screening_profile_versions')
      .set({ backtest: json, backtested_at: at })
      .where('profile_id', '=', profileId)
      .where('version', '=', version)
      .execute();
  }
}
