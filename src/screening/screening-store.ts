import { sql } from 'kysely';
import type { Db } from '../infra/database.js';
import type { ScreeningsTable } from '../infra/db-schema.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';
import { chunksOf } from '../infra/chunks.js';

/**
 * The screenings table: stored screenings are history, written once and never edited (STYLE.md,
 * "Data"). No other module writes SQL against it; monitoring reads a screening through `byId`.
 */

export type ScreeningRow = ScreeningsTable;

export interface ScreeningPageFilter {
  page: number;
  pageSize: number;
  riskLevel?: string;
  /** ISO timestamps; `toInclusive` says whether `to` itself is in the range. */
  from?: string;
  to?: string;
  toInclusive?: boolean;
  search?: string;
  externalId?: string;
}

// On the POST /screen path: built and compiled once per database.
const queries = preparedFor((db) => ({
  insert: prepareQuery(db, (db, p: ScreeningsTable) =>
    db.insertInto('screenings').values({
      id: p.id,
      org_id: p.org_id,
      key_id: p.key_id,
      query: p.query,
      search_key: p.search_key,
      entity_type: p.entity_type,
      country: p.country,
      birth_date: p.birth_date,
      group_by_cluster: p.group_by_cluster,
      risk_score: p.risk_score,
      risk_level: p.risk_level,
      confidence: p.confidence,
      entity_id: p.entity_id,
      entity_name: p.entity_name,
      matched_sources: p.matched_sources,
      used_sources: p.used_sources,
      list_versions: p.list_versions,
      match_details: p.match_details,
      external_id: p.external_id,
      engine_version: p.engine_version,
      created_at: p.created_at,
      identifiers: p.identifiers,
      warnings: p.warnings,
      profile_id: p.profile_id,
      profile_version: p.profile_version,
    }),
  ),
}));

export class ScreeningStore {
  /** `db` is the database; a write may name a transaction of it to run in. */
  constructor(private readonly db: Db) {}

  async insert(row: ScreeningRow, trx: Db = this.db): Promise<void> {
    await queries(this.db).insert.execute(row, trx);
  }

  /** The screening of this organization with this id; another organization's is never found. */
  byId(orgId: string, id: string): Promise<ScreeningRow | undefined> {
    return this.db
      .selectFrom('screenings')
      .selectAll()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
  }

  /** Screenings by id, of any organization (the audit log's check of what its entries recorded). */
  async byIds(ids: string[]): Promise<ScreeningRow[]> {
    const out: ScreeningRow[] = [];
    for (const chunk of chunksOf(ids))
      out.push(...(await this.db.selectFrom('screenings').selectAll().where('id', 'in', chunk).execute()));
    return out;
  }

  /**
   * What a backtest replays (profiles/backtest.ts): the searches of an organization's screenings from
   * `from` on, newest first, `limit` at a time after the cursor (the last row of the previous page).
   */
  replayPage(
    orgId: string,
    q: { from: string; to: string; limit: number; after?: { created_at: string; id: string } },
  ) {
    let query = this.db
      .selectFrom('screenings')
      .select([
        'id',
        'query',
        'search_key',
        'entity_type',
        'country',
        'birth_date',
        'identifiers',
        'group_by_cluster',
        'external_id',
        'risk_level',
        'created_at',
      ])
      .where('org_id', '=', orgId)
      .where('created_at', '>=', q.from)
      .where('created_at', '<=', q.to);
    const after = q.after;
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.created_at),
          eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)]),
        ]),
      );
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
  }

  /** One page of an organization's screenings, newest first, and how many match the filter in all. */
  async page(orgId: string, filter: ScreeningPageFilter) {
    let query = this.db.selectFrom('screenings').where('org_id', '=', orgId);
    if (filter.riskLevel) query = query.where('risk_level', '=', filter.riskLevel);
    if (filter.from) query = query.where('created_at', '>=', filter.from);
    if (filter.to) query = query.where('created_at', filter.toInclusive ? '<=' : '<', filter.to);
    if (filter.externalId !== undefined) query = query.where('external_id', '=', filter.externalId);
    const search = filter.search?.trim();
    if (search) {
      const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb(sql`lower(query)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(coalesce(entity_name, ''))`, 'like', sql`${pattern} escape '\\'`),
        ]),
      );
    }
    const totalRow = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await query
      .select([
        'id',
        'entity_id',
        'entity_name',
        'query',
        'risk_score',
        'risk_level',
        'matched_sources',
        'search_key',
        'external_id',
        'created_at',
      ])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute();
    return { rows, total: Number(totalRow?.n ?? 0) };
  }
}
