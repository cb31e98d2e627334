import type { Db } from '../infra/database.js';
import type { MonitorsTable } from '../infra/db-schema.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';
import { chunksOf } from '../infra/chunks.js';

/**
 * The monitors table. No other module writes SQL against it; screening asks whether a search is
 * monitored through `isMonitored` and `monitoredAmong` (the MonitoredSearches of screening-service.ts).
 */

export type MonitorRow = MonitorsTable;

/** A monitor due for a rescreen, with what its alert's webhook needs of its organization. */
export type DueMonitor = MonitorRow & { org_slug: string; org_name: string; webhook_url: string | null };

/** What a rescreen found for one monitor. */
export interface MonitorResult {
  riskScore: number;
  riskLevel: string;
  sources: string[];
  entityId: string | null;
  entityName: string | null;
}

// On the POST /screen path: built and compiled once per database.
const queries = preparedFor((db) => ({
  monitored: prepareQuery(db, (db, p: { orgId: string; key: string }) =>
    db
      .selectFrom('monitors')
      .select('id')
      .where('org_id', '=', p.orgId)
      .where('search_key', '=', p.key)
      .where('removed_at', 'is', null),
  ),
  anyLive: prepareQuery(db, (db, p: { orgId: string }) =>
    db.selectFrom('monitors').select('id').where('org_id', '=', p.orgId).where('removed_at', 'is', null).limit(1),
  ),
}));

export class MonitorStore {
  /** `db` is the database, or a transaction whose writes must commit with others. */
  constructor(private readonly db: Db) {}

  /** Run on the database, not a transaction: the statement is prepared once on it. */
  async isMonitored(orgId: string, key: string): Promise<boolean> {
    return (await queries(this.db).monitored.first({ orgId, key })) !== undefined;
  }

  /** Whether the organization has any live monitor (one row of the live-search index at most). */
  async monitorsAny(orgId: string): Promise<boolean> {
    return (await queries(this.db).anyLive.first({ orgId })) !== undefined;
  }

  async monitoredAmong(orgId: string, keys: string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('monitors')
      .select('search_key')
      .where('org_id', '=', orgId)
      .where('removed_at', 'is', null)
      .where('search_key', 'in', keys)
      .execute();
    return new Set(rows.map((r) => r.search_key));
  }

  byId(id: string): Promise<MonitorRow | undefined> {
    return this.db.selectFrom('monitors').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: MonitorRow): Promise<void> {
    await this.db.insertInto('monitors').values(row).execute();
  }

  /** One page of an organization's live monitors, newest first, and how many there are. */
  async page(orgId: string, page: { page: number; pageSize: number }) {
    const base = this.db.selectFrom('monitors').where('org_id', '=', orgId).where('removed_at', 'is', null);
    const totalRow = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute();
    return { rows, total: Number(totalRow?.n ?? 0) };
  }

  /** Marks a live monitor of the organization removed (the row stays: alerts point at it); false if there was none. */
  async remove(orgId: string, id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('monitors')
      .set({ removed_at: at, is_active: 0 })
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .where('removed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The next batch of monitors due for a rescreen, after `cursor` in id order: last screened against
   * other list versions than `fingerprint`, or before `cutoff`. The join reads the organization's
   * tier (monitors of organizations below Starter are kept but not rescreened, DECISIONS.md
   * "Monitors") and what its webhook needs, in the same statement that claims the rows: on
   * PostgreSQL (`lock`) they are locked FOR UPDATE SKIP LOCKED, so another node skips them.
   *
   * A full pass looks only at the `window` monitors that follow the cursor (windowEnd says where
   * that window ends): each batch then reads a bounded stretch of the primary key, whatever the
   * planner believes. Asked for the due rows after the cursor with no bound, PostgreSQL without
   * statistics on a freshly loaded table (a bulk import, autovacuum off or behind) took the partial
   * index of live monitors as very selective and read all of it for every batch: at 1,000,000
   * monitors 1.6 s a batch, a full pass at 130 monitors a second.
   */
  async due(filter: {
    fingerprint: string;
    cursor: string;
    cutoff: string;
    limit: number;
    lock: boolean;
    /** Only these monitors (a delta pass). */
    ids?: string[];
    /** Only among the next `window` monitors after the cursor, due or not (a full pass). */
    window?: number;
  }) {
    let query = this.db
      .selectFrom('monitors as m')
      .innerJoin('organizations as o', 'o.id', 'm.org_id')
      .selectAll('m')
      .select(['o.slug as org_slug', 'o.name as org_name', 'o.webhook_url'])
      .where('m.removed_at', 'is', null)
      .where('m.is_active', '=', 1)
      .where('o.tier', '!=', 'free')
      .where('m.id', '>', filter.cursor)
      .where((eb) =>
        eb.or([
          eb('m.rescreen_generation', 'is', null),
          eb('m.rescreen_generation', '!=', filter.fingerprint),
          eb('m.last_screened_at', '<', filter.cutoff),
        ]),
      )
      .orderBy('m.id')
      .limit(filter.limit);
    if (filter.ids) query = query.where('m.id', 'in', filter.ids.length > 0 ? filter.ids : ['']);
    if (filter.window !== undefined) {
      const { cursor, window } = filter;
      query = query.where('m.id', 'in', (eb) =>
        eb.selectFrom('monitors').select('id').where('id', '>', cursor).orderBy('id').limit(window),
      );
    }
    if (filter.lock) query = query.forUpdate('m').skipLocked();
    return (await query.execute()) as DueMonitor[];
  }

  /** The id of the `window`-th monitor after `cursor` in id order (removed or not); undefined past the last. */
  async windowEnd(cursor: string, window: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('monitors')
      .select('id')
      .where('id', '>', cursor)
      .orderBy('id')
      .offset(window - 1)
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * The searches of the given monitors that a rescreen would reach (live, of organizations with
   * access), in id order: what a delta pass screens against the changed entities.
   */
  searchesOf(ids: readonly string[]) {
    return this.db
      .selectFrom('monitors as m')
      .innerJoin('organizations as o', 'o.id', 'm.org_id')
      .select([
        'm.id',
        'm.search_key',
        'm.query',
        'm.entity_type',
        'm.country',
        'm.birth_date',
        'm.identifiers',
        'm.last_entity_id',
      ])
      .where('m.removed_at', 'is', null)
      .where('m.is_active', '=', 1)
      .where('o.tier', '!=', 'free')
      .where('m.id', 'in', ids.length > 0 ? [...ids] : [''])
      .orderBy('m.id')
      .execute();
  }

  /** Monitors whose terms are not written yet (monitor-terms.ts), in id order. */
  unkeyed(limit: number) {
    return this.db
      .selectFrom('monitors')
      .select(['id', 'query', 'entity_type', 'identifiers'])
      .where('terms_at', 'is', null)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Writes the terms of monitors and marks them keyed. */
  async saveTerms(keyed: { id: string; terms: string[] }[], at: string): Promise<void> {
    const rows = keyed.flatMap((k) => k.terms.map((term) => ({ term, monitor_id: k.id })));
    // Two columns a row: well under both engines' limits on bound parameters per statement.
    for (const chunk of chunksOf(rows, 400)) {
      await this.db
        .insertInto('monitor_terms')
        .values(chunk)
        .onConflict((oc) => oc.columns(['term', 'monitor_id']).doNothing())
        .execute();
    }
    for (const chunk of chunksOf(keyed.map((k) => k.id))) {
      await this.db.updateTable('monitors').set({ terms_at: at }).where('id', 'in', chunk).execute();
    }
  }

  /** Ids of the monitors stored under any of the terms (removed ones too: searchesOf leaves them out). */
  async withTerms(terms: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const chunk of chunksOf(terms)) {
      const rows = await this.db.selectFrom('monitor_terms').select('monitor_id').where('term', 'in', chunk).execute();
      for (const row of rows) out.add(row.monitor_id);
    }
    return out;
  }

  /** Ids of the live monitors whose last top match is one of the entities (`<source>:<record id>`). */
  async withLastEntity(entityIds: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const chunk of chunksOf(entityIds)) {
      const rows = await this.db
        .selectFrom('monitors')
        .select('id')
        .where('last_entity_id', 'in', chunk)
        .where('removed_at', 'is', null)
        .execute();
      for (const row of rows) out.add(row.id);
    }
    return out;
  }

  /** Records a changed result; false when the monitor was removed, or rescreened elsewhere, since it was read. */
  async recordResult(
    read: { id: string; last_screened_at: string; rescreen_generation: string | null },
    result: MonitorResult,
    generation: { fingerprint: string; versions: string; at: string },
  ): Promise<boolean> {
    const updated = await this.db
      .updateTable('monitors')
      .set({
        last_risk_score: result.riskScore,
        last_risk_level: result.riskLevel,
        last_sources: JSON.stringify(result.sources),
        last_entity_id: result.entityId,
        entity_name: result.entityName,
        last_list_versions: generation.versions,
        last_screened_at: generation.at,
        rescreen_generation: generation.fingerprint,
      })
      .where('id', '=', read.id)
      .where('removed_at', 'is', null)
      // Unchanged since it was read: a node that hung past its claim and wakes after another node
      // rescreened the monitor writes nothing (and raises no alert twice).
      .where('last_screened_at', '=', read.last_screened_at)
      .where((eb) =>
        read.rescreen_generation === null
          ? eb('rescreen_generation', 'is', null)
          : eb('rescreen_generation', '=', read.rescreen_generation),
      )
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /** Monitors whose result did not change only move to the new generation, in bulk. */
  async markScreened(ids: string[], generation: { fingerprint: string; versions: string; at: string }): Promise<void> {
    for (const chunk of chunksOf(ids)) {
      await this.db
        .updateTable('monitors')
        .set({
          last_screened_at: generation.at,
          last_list_versions: generation.versions,
          rescreen_generation: generation.fingerprint,
        })
        .where('id', 'in', chunk)
        .execute();
    }
  }
}
