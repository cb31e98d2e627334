import { sql } from 'kysely';
import type { Db, InsertPart } from '../infra/database.js';
import type { ScreeningsTable } from '../infra/db-schema.js';
import { type PreparedQuery, prepareQuery, preparedFor } from '../infra/prepared-query.js';
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

/** Every column of a stored screening, in the order of the insert. */
const COLUMNS = [
  'id',
  'org_id',
  'key_id',
  'query',
  'search_key',
  'entity_type',
  'country',
  'birth_date',
  'group_by_cluster',
  'risk_score',
  'risk_level',
  'confidence',
  'entity_id',
  'entity_name',
  'matched_sources',
  'used_sources',
  'list_versions',
  'match_details',
  'external_id',
  'engine_version',
  'created_at',
  'identifiers',
  'warnings',
  'profile_id',
  'profile_version',
] as const satisfies readonly (keyof ScreeningsTable)[];

/**
 * Rows in one insert at most: 25 parameters each, 800 in all, under the 999 that SQLite builds
 * before 3.32 allow in a statement (infra/chunks.ts).
 */
const ROWS_PER_INSERT = 32;

/** The parameters of an insert of several rows: row `i`'s column `c` is named `${i}.${c}`. */
type RowsParams = Record<string, unknown>;

/**
 * On the POST /screen path, built and compiled once per database and number of rows: a group commit
 * stores its screenings with one statement, not one each (a round trip each on PostgreSQL).
 */
const inserts = preparedFor((db) => {
  const bySize = new Map<number, PreparedQuery<RowsParams, unknown>>();
  return (size: number) => {
    let query = bySize.get(size);
    if (!query) {
      query = prepareQuery(db, (db, p: RowsParams) =>
        db.insertInto('screenings').values(
          Array.from({ length: size }, (_, i) => {
            const row: Record<string, unknown> = {};
            for (const column of COLUMNS) row[column] = p[`${i}.${column}`];
            return row as unknown as ScreeningsTable;
          }),
        ),
      );
      bySize.set(size, query);
    }
    return query;
  };
});

/** Screenings as one insert of a statement made of several (infra/database.ts `InsertPart`). */
export function screeningsInsert(db: Db, rows: readonly ScreeningRow[]): InsertPart<'screenings'> {
  return db.insertInto('screenings').values([...rows]);
}

export class ScreeningStore {
  /** `db` is the database; a write may name a transaction of it to run in. */
  constructor(private readonly db: Db) {}

  async insert(row: ScreeningRow, trx: Db = this.db): Promise<void> {
    await this.insertMany([row], trx);
  }

  /** Stores screenings with one statement for up to ROWS_PER_INSERT of them. */
  async insertMany(rows: readonly ScreeningRow[], trx: Db = this.db): Promise<void> {
    for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
      const chunk = rows.slice(at, at + ROWS_PER_INSERT);
      const params: RowsParams = {};
      chunk.forEach((row, i) => {
        for (const column of COLUMNS) params[`${i}.${column}`] = row[column];
      });
      await inserts(this.db)(chunk.length).execute(params, trx);
    }
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
