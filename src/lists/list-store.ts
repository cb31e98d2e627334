import { SYSTEM_CHAIN, appendAudit } from '../audit/index.js';
import type { Db } from '../infra/database.js';
import type { ListVersionsTable } from '../infra/db-schema.js';
import { type JsonShelf, ShelfFilling } from '../infra/json-shelf.js';
import { diffVersions } from './list-changes.js';
import type { ListRecord, SourceId } from './model.js';

/**
 * List versions and their records. A version becomes visible to screening only when it is marked
 * `active`, in the same transaction that writes all its records and retires the previous one, so a
 * node never reads a half-written list.
 *
 * Version statuses: active (in force), superseded (was in force), rejected (failed download, parse or
 * sanity guard; never in force), unchanged (a sync that found the same input as the active version).
 */
export type VersionStatus = 'active' | 'superseded' | 'rejected' | 'unchanged';
export type ListVersionRow = ListVersionsTable;

const INSERT_BATCH = 500;

export class ListStore {
  constructor(private readonly db: Db) {}

  activeVersions(): Promise<ListVersionRow[]> {
    return this.db.selectFrom('list_versions').selectAll().where('status', '=', 'active').orderBy('source').execute();
  }

  activeVersion(source: SourceId): Promise<ListVersionRow | undefined> {
    return this.db
      .selectFrom('list_versions')
      .selectAll()
      .where('source', '=', source)
      .where('status', '=', 'active')
      .executeTakeFirst();
  }

  /** The latest sync attempt of every source, whatever its outcome. */
  async latestAttempts(): Promise<Map<string, ListVersionRow>> {
    const rows = await this.db
      .selectFrom('list_versions')
      .selectAll()
      .where('fetched_at', '=', (eb) =>
        eb
          .selectFrom('list_versions as v2')
          .select((e) => e.fn.max('v2.fetched_at').as('m'))
          .whereRef('v2.source', '=', 'list_versions.source'),
      )
      .execute();
    return new Map(rows.map((r) => [r.source, r]));
  }

  /** When each source last had a good sync (a new active version or an unchanged re-check). */
  async lastGoodSync(): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('list_versions')
      .select(['source', (eb) => eb.fn.max('fetched_at').as('at')])
      .where('status', 'in', ['active', 'superseded', 'unchanged'])
      .groupBy('source')
      .execute();
    return new Map(rows.map((r) => [r.source, String(r.at)]));
  }

  async recordAttempt(row: ListVersionRow): Promise<void> {
    await this.db.insertInto('list_versions').values(row).execute();
  }

  /** Records a sync that was refused (download, parse or sanity guard); nothing goes in force. */
  async recordRejected(
    source: string,
    attempt: { id: string; fetchedAt: string; reason: string; tookMs: number },
    extra: Partial<ListVersionRow> = {},
  ): Promise<void> {
    await this.recordAttempt({
      id: attempt.id,
      source,
      status: 'rejected',
      fetched_at: attempt.fetchedAt,
      published_at: null,
      sha256: null,
      record_count: 0,
      format: null,
      files: '[]',
      message: attempt.reason,
      took_ms: attempt.tookMs,
      activated_at: null,
      ...extra,
    });
  }

  /**
   * Writes a new version with all its records and puts it in force, atomically, with its change feed:
   * the per-entity difference from the version it replaces (none for a source's first version).
   * Returns how many entities changed.
   */
  async activate(row: ListVersionRow, records: ListRecord[]): Promise<{ changes: number }> {
    const previous = await this.activeVersion(row.source as SourceId);
    const changes = previous ? diffVersions(await this.records(previous.id), records) : [];
    const activatedAt = row.activated_at ?? row.fetched_at;
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('list_versions')
        .set({ status: 'superseded' })
        .where('source', '=', row.source)
        .where('status', '=', 'active')
        .execute();
      await trx
        .insertInto('list_versions')
        .values({ ...row, status: 'active' })
        .execute();
      // The audit log's system chain records every version put in force (issue 13).
      await appendAudit(this.db, trx, [
        {
          chain: SYSTEM_CHAIN,
          event: 'list.activated',
          actor: 'system',
          subject: row.id,
          at: row.activated_at ?? row.fetched_at,
          data: {
            source: row.source,
            version: row.id,
            publishedAt: row.published_at,
            records: row.record_count,
            sha256: row.sha256,
            format: row.format,
          },
        },
      ]);
      for (let i = 0; i < records.length; i += INSERT_BATCH) {
        const batch = records.slice(i, i + INSERT_BATCH).map((record, j) => ({
          version_id: row.id,
          seq: i + j,
          record_id: record.id,
          data: JSON.stringify(record),
        }));
        await trx.insertInto('list_records').values(batch).execute();
      }
      for (let i = 0; i < changes.length; i += INSERT_BATCH) {
        const batch = changes.slice(i, i + INSERT_BATCH).map((c, j) => ({
          version_id: row.id,
          seq: i + j,
          source: row.source,
          record_id: c.recordId,
          kind: c.kind,
          major: c.major ? 1 : 0,
          name: c.name,
          entity_type: c.entityType,
          fields: JSON.stringify(c.fields),
          detail: JSON.stringify(c.detail),
          activated_at: activatedAt,
        }));
        await trx.insertInto('list_changes').values(batch).execute();
      }
    });
    return { changes: changes.length };
  }

  async records(versionId: string): Promise<ListRecord[]> {
    const out: ListRecord[] = [];
    for await (const rows of this.storedRecords(versionId))
      for (const row of rows) out.push(JSON.parse(row.data) as ListRecord);
    return out;
  }

  /** The records of a version on a shelf, as stored: not one of them is parsed (infra/json-shelf.ts). */
  async shelf(versionId: string): Promise<JsonShelf<ListRecord>> {
    const filling = new ShelfFilling<ListRecord>();
    for await (const rows of this.storedRecords(versionId))
      for (const row of rows) filling.add(row.record_id, row.data);
    return filling.done();
  }

  /**
   * A version's stored records, page after page, in order. The pages are small enough that each is
   * garbage before the next young collection: none of the text read lives long enough to be moved to
   * the old generation of the thread that reads it (the HTTP thread keeps that small).
   */
  private async *storedRecords(versionId: string) {
    const PAGE = 1000;
    for (let from = 0; ; from += PAGE) {
      const rows = await this.db
        .selectFrom('list_records')
        .select(['record_id', 'data'])
        .where('version_id', '=', versionId)
        .where('seq', '>=', from)
        .where('seq', '<', from + PAGE)
        .orderBy('seq')
        .execute();
      yield rows;
      // Sequence numbers are contiguous from 0, so a short page is the last one.
      if (rows.length < PAGE) break;
    }
  }

  /** Keeps the records of the active version and the `keep` most recent superseded ones per source. */
  async pruneRecords(keep: number): Promise<void> {
    const superseded = await this.db
      .selectFrom('list_versions')
      .select(['id', 'source', 'fetched_at'])
      .where('status', '=', 'superseded')
      .orderBy('source')
      .orderBy('fetched_at', 'desc')
      .execute();
    const seen = new Map<string, number>();
    const drop: string[] = [];
    for (const version of superseded) {
      const seenCount = (seen.get(version.source) ?? 0) + 1;
      seen.set(version.source, seenCount);
      if (seenCount > keep) drop.push(version.id);
    }
    for (const id of drop) await this.db.deleteFrom('list_records').where('version_id', '=', id).execute();
  }
}
