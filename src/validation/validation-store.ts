import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from '../infra/database.js';
import type { Database, ValidationRunsTable } from '../infra/db-schema.js';

export type ValidationRunRow = Selectable<ValidationRunsTable>;

/** Columns of a run without its report texts (lists and status reads). */
const LIGHT = [
  'id',
  'org_id',
  'kind',
  'status',
  'options',
  'created_by',
  'created_at',
  'started_at',
  'finished_at',
  'phase',
  'done',
  'total',
  'claimed_by',
  'claimed_until',
  'error',
  'passed',
  'summary',
] as const;

export type ValidationRunHead = Omit<ValidationRunRow, 'report_json' | 'report_html'>;

/** The row of a run just queued: nothing run, nothing claimed, no report. */
export function queuedRun(
  fields: Pick<ValidationRunRow, 'id' | 'org_id' | 'kind' | 'options' | 'created_by' | 'created_at'>,
): ValidationRunRow {
  return {
    ...fields,
    status: 'queued',
    started_at: null,
    finished_at: null,
    phase: null,
    done: 0,
    total: 0,
    claimed_by: null,
    claimed_until: null,
    error: null,
    passed: null,
    summary: null,
    report_json: null,
    report_html: null,
  };
}

export class ValidationStore {
  constructor(private readonly db: Db) {}

  /**
   * The runs an organization sees: its own, and the deployment's activation runs (org_id null: they
   * validate the lists every organization screens against and carry nothing of any organization).
   */
  private scope(orgId: string | null) {
    return (eb: ExpressionBuilder<Database, 'validation_runs'>) =>
      orgId === null ? eb('org_id', 'is', null) : eb.or([eb('org_id', '=', orgId), eb('org_id', 'is', null)]);
  }

  async insert(row: ValidationRunRow): Promise<void> {
    await this.db.insertInto('validation_runs').values(row).execute();
  }

  /** Inserts the run unless one with its id exists; true when this call inserted it. */
  async insertOnce(row: ValidationRunRow): Promise<boolean> {
    const result = await this.db
      .insertInto('validation_runs')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async get(id: string, orgId: string | null): Promise<ValidationRunHead | undefined> {
    return this.db
      .selectFrom('validation_runs')
      .select(LIGHT)
      .where('id', '=', id)
      .where(this.scope(orgId))
      .executeTakeFirst();
  }

  async report(id: string, orgId: string | null): Promise<{ json: string | null; html: string | null } | undefined> {
    const row = await this.db
      .selectFrom('validation_runs')
      .select(['report_json', 'report_html'])
      .where('id', '=', id)
      .where(this.scope(orgId))
      .executeTakeFirst();
    return row ? { json: row.report_json, html: row.report_html } : undefined;
  }

  async page(
    orgId: string | null,
    page: number,
    pageSize: number,
  ): Promise<{ items: ValidationRunHead[]; total: number }> {
    const base = () => this.db.selectFrom('validation_runs').where(this.scope(orgId));
    const items = await base()
      .select(LIGHT)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const count = await base()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return { items, total: Number(count?.n ?? 0) };
  }

  /** A run of the organization that has not finished (queued or running), if any. */
  async unfinished(orgId: string): Promise<ValidationRunHead | undefined> {
    return this.db
      .selectFrom('validation_runs')
      .select(LIGHT)
      .where('org_id', '=', orgId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
  }

  /**
   * Claims the oldest queued run, or a running one whose claim ran out (its node died), for `nodeId`
   * until `until`; undefined when there is none or another node claimed it first.
   */
  async claim(nodeId: string, now: string, until: string): Promise<ValidationRunHead | undefined> {
    const candidate = await this.db
      .selectFrom('validation_runs')
      .select(['id', 'claimed_until'])
      .where((eb) =>
        eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('claimed_until', '<', now)])]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    if (!candidate) return undefined;
    let update = this.db
      .updateTable('validation_runs')
      .set({ status: 'running', claimed_by: nodeId, claimed_until: until, started_at: now, done: 0, total: 0 })
      .where('id', '=', candidate.id);
    update =
      candidate.claimed_until === null
        ? update.where('claimed_until', 'is', null)
        : update.where('claimed_until', '=', candidate.claimed_until);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return this.db.selectFrom('validation_runs').select(LIGHT).where('id', '=', candidate.id).executeTakeFirst();
  }

  /** Progress of a run this node holds, and its claim extended; false when the node no longer holds it. */
  async progress(
    id: string,
    nodeId: string,
    set: { phase: string; done: number; total: number; claimed_until: string },
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('validation_runs')
      .set(set)
      .where('id', '=', id)
      .where('claimed_by', '=', nodeId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async finish(
    id: string,
    nodeId: string,
    set: Pick<
      ValidationRunRow,
      'status' | 'finished_at' | 'error' | 'passed' | 'summary' | 'report_json' | 'report_html'
    >,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('validation_runs')
      .set({ ...set, claimed_until: null })
      .where('id', '=', id)
      .where('claimed_by', '=', nodeId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The newest completed run of any organization or of the deployment (for /metrics). */
  async latestCompleted(): Promise<ValidationRunHead | undefined> {
    return this.db
      .selectFrom('validation_runs')
      .select(LIGHT)
      .where('status', '=', 'completed')
      .orderBy('finished_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }
}
