import { sql } from 'kysely';
import type { DatabaseHandle, Db } from '../infra/database.js';
import type { BatchRowsTable, BatchesTable } from '../infra/db-schema.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';

/**
 * The batches and batch_rows tables: no other module writes SQL against them. A row's key is its
 * batch and line; a row is claimed (claimed_by, claimed_until) before it runs, and its 'done' mark is
 * written in the transaction of its screening (markDone), only while the claim is still its node's.
 */

export type BatchRow = BatchesTable;
export type BatchLine = BatchRowsTable;

export interface RowOutcome {
  screeningId: string;
  riskLevel: string;
  riskScore: number;
  entityId: string | null;
  entityName: string | null;
  matchedSources: string;
  /** The screening profile the row's screening ran under (docs/profiles.md). */
  profileId: string | null;
  profileVersion: number | null;
}

export interface RowFailure {
  code: string;
  field: string | null;
  message: string;
}

export interface BatchTally {
  queued: number;
  done: number;
  error: number;
  cancelled: number;
  low: number;
  medium: number;
  high: number;
}

/** A row that is claimed and about to run. */
export type ClaimedLine = Pick<BatchLine, 'batch_id' | 'line' | 'input'>;

// On every row's path: built and compiled once per database.
const queries = preparedFor((db) => ({
  markDone: prepareQuery(db, (db, p: RowOutcome & { batchId: string; line: number; nodeId: string }) =>
    db
      .updateTable('batch_rows')
      .set({
        state: 'done',
        screening_id: p.screeningId,
        risk_level: p.riskLevel,
        risk_score: p.riskScore,
        entity_id: p.entityId,
        entity_name: p.entityName,
        matched_sources: p.matchedSources,
        profile_id: p.profileId,
        profile_version: p.profileVersion,
        claimed_until: null,
      })
      .where('batch_id', '=', p.batchId)
      .where('line', '=', p.line)
      .where('state', '=', 'queued')
      .where('claimed_by', '=', p.nodeId),
  ),
}));

export class BatchStore {
  constructor(private readonly db: Db) {}

  async insertBatch(row: BatchRow): Promise<void> {
    await this.db.insertInto('batches').values(row).execute();
  }

  /** One chunk of rows, in one statement. */
  async insertLines(rows: BatchLine[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('batch_rows').values(rows).execute();
  }

  async setStatus(id: string, from: string[], patch: Partial<BatchRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('batches')
      .set(patch)
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** A batch that was refused or broke off while it was being received: nothing of it stays. */
  async deleteBatch(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('batch_rows').where('batch_id', '=', id).execute();
      await trx.deleteFrom('batches').where('id', '=', id).execute();
    });
  }

  /** Batches left 'receiving' by a node that died during an upload, older than `before`. */
  async staleReceiving(before: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('batches')
      .select('id')
      .where('status', '=', 'receiving')
      .where('created_at', '<', before)
      .execute();
    return rows.map((r) => r.id);
  }

  byId(orgId: string, id: string): Promise<BatchRow | undefined> {
    return this.db
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .where('status', '!=', 'receiving')
      .executeTakeFirst();
  }

  async page(orgId: string, page: { page: number; pageSize: number }) {
    const base = this.db.selectFrom('batches').where('org_id', '=', orgId).where('status', '!=', 'receiving');
    const total = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute();
    return { rows, total: Number(total?.n ?? 0) };
  }

  /** Rows per state and screened rows per risk level. */
  async tally(batchId: string): Promise<BatchTally> {
    const rows = await this.db
      .selectFrom('batch_rows')
      .select(['state', 'risk_level', (eb) => eb.fn.countAll().as('n')])
      .where('batch_id', '=', batchId)
      .groupBy(['state', 'risk_level'])
      .execute();
    const tally: BatchTally = { queued: 0, done: 0, error: 0, cancelled: 0, low: 0, medium: 0, high: 0 };
    for (const row of rows) {
      const count = Number(row.n);
      if (row.state in tally) tally[row.state as keyof BatchTally] += count;
      if (row.state === 'done' && row.risk_level && row.risk_level in tally)
        tally[row.risk_level as keyof BatchTally] += count;
    }
    return tally;
  }

  errors(batchId: string, limit: number) {
    return this.db
      .selectFrom('batch_rows')
      .select(['line', 'error_code', 'error_field', 'error_message'])
      .where('batch_id', '=', batchId)
      .where('state', '=', 'error')
      .orderBy('line')
      .limit(limit)
      .execute();
  }

  /** Rows in file order after `afterLine`, or by risk (highest first) from `offset`. */
  results(batchId: string, input: { sort: 'line' | 'risk'; afterLine?: number; offset?: number; limit: number }) {
    let query = this.db.selectFrom('batch_rows').selectAll().where('batch_id', '=', batchId);
    if (input.sort === 'line') {
      if (input.afterLine !== undefined) query = query.where('line', '>', input.afterLine);
      query = query.orderBy('line');
    } else {
      query = query
        .orderBy(sql`case state when 'done' then 0 when 'error' then 1 else 2 end`)
        .orderBy(sql`coalesce(risk_score, 0)`, 'desc')
        .orderBy('line');
    }
    if (input.offset) query = query.offset(input.offset);
    return query.limit(input.limit).execute();
  }

  /**
   * Claims up to `limit` queued rows of the oldest runnable batch that has any, in file order. The
   * rows are found through the (batch_id, state, line) index, so a claim costs the same at the start
   * and at the end of a batch of 100,000 rows. On PostgreSQL the candidates are locked FOR UPDATE
   * SKIP LOCKED, so nodes claiming at once take different rows, in a materialized CTE: as a subquery
   * of the UPDATE the planner may run them again for each row it updates, and each run skips the
   * rows this very statement has just claimed and locks the next ones, so that one claim took every
   * row of the batch. On SQLite one statement is atomic and its subquery runs once.
   */
  static async claim(
    database: DatabaseHandle,
    input: { now: string; until: string; nodeId: string; limit: number; batchId?: string },
  ): Promise<ClaimedLine[]> {
    let query = database.db.selectFrom('batches').select('id').where('status', 'in', ['queued', 'running']);
    if (input.batchId !== undefined) query = query.where('id', '=', input.batchId);
    const open = await query.orderBy('created_at').orderBy('id').limit(100).execute();
    for (const { id } of open) {
      const candidates = sql`
          select line from batch_rows
          where batch_id = ${id} and state = 'queued'
            and (claimed_until is null or claimed_until < ${input.now})
          order by line
          limit ${input.limit}`;
      const claim = sql`update batch_rows set claimed_until = ${input.until}, claimed_by = ${input.nodeId}`;
      const result = await (
        database.engine === 'postgres'
          ? sql<ClaimedLine>`
        with picked as materialized (${candidates} for update skip locked)
        ${claim}
        where batch_id = ${id} and line in (select line from picked)
        returning batch_id, line, input`
          : sql<ClaimedLine>`
        ${claim}
        where batch_id = ${id} and line in (${candidates})
        returning batch_id, line, input`
      ).execute(database.db);
      if (result.rows.length > 0) return result.rows.sort((a, b) => a.line - b.line);
    }
    return [];
  }

  /** Gives claims back (this node stops, or the lists are not loaded). */
  async release(nodeId: string, lines: { batch_id: string; line: number }[]): Promise<void> {
    for (const line of lines) {
      await this.db
        .updateTable('batch_rows')
        .set({ claimed_until: null, claimed_by: null })
        .where('batch_id', '=', line.batch_id)
        .where('line', '=', line.line)
        .where('claimed_by', '=', nodeId)
        .where('state', '=', 'queued')
        .execute();
    }
  }

  /** Every claim (SQLite: one process, so a claim found at start-up is a dead process's). */
  async releaseAll(): Promise<void> {
    await this.db
      .updateTable('batch_rows')
      .set({ claimed_until: null, claimed_by: null })
      .where('state', '=', 'queued')
      .where('claimed_by', 'is not', null)
      .execute();
  }

  /**
   * The row's 'done' mark, in its screening's transaction `trx` (this store is on the database): only
   * while the row is still queued and claimed by this node (else it throws, and the screening is not
   * stored).
   */
  async markDone(
    line: { batch_id: string; line: number },
    nodeId: string,
    outcome: RowOutcome,
    trx: Db = this.db,
  ): Promise<void> {
    const updated = await queries(this.db).markDone.affectedRows(
      { ...outcome, batchId: line.batch_id, line: line.line, nodeId },
      trx,
    );
    if (updated === 0) throw new Error(`batch row ${line.batch_id}:${line.line} is no longer ours`);
  }

  async markError(line: { batch_id: string; line: number }, failure: RowFailure, nodeId?: string): Promise<void> {
    let query = this.db
      .updateTable('batch_rows')
      .set({
        state: 'error',
        error_code: failure.code,
        error_field: failure.field,
        error_message: failure.message,
        claimed_until: null,
      })
      .where('batch_id', '=', line.batch_id)
      .where('line', '=', line.line)
      .where('state', '=', 'queued');
    if (nodeId !== undefined) query = query.where('claimed_by', '=', nodeId);
    await query.execute();
  }

  /** Queued rows not claimed by a live node will not run: cancelled. Rows in flight finish. */
  async cancelQueued(batchId: string, now: string): Promise<void> {
    await this.db
      .updateTable('batch_rows')
      .set({ state: 'cancelled' })
      .where('batch_id', '=', batchId)
      .where('state', '=', 'queued')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .execute();
  }

  async hasQueued(batchId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('batch_rows')
      .select('line')
      .where('batch_id', '=', batchId)
      .where('state', '=', 'queued')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Queued rows on the whole database (the ops hook). */
  async queuedRows(): Promise<number> {
    const row = await this.db
      .selectFrom('batch_rows as r')
      .innerJoin('batches as b', 'b.id', 'r.batch_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('r.state', '=', 'queued')
      .where('b.status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Batches whose rows have all run but that are still open (their last row ran on some node). */
  async finishedOpen(): Promise<BatchRow[]> {
    return this.db
      .selectFrom('batches as b')
      .selectAll('b')
      .where('b.status', 'in', ['queued', 'running'])
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('batch_rows as r')
              .select('r.line')
              .whereRef('r.batch_id', '=', 'b.id')
              .where('r.state', '=', 'queued'),
          ),
        ),
      )
      .execute();
  }
}
