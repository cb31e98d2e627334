import type { Db } from '../infra/database.js';
import type { DecisionsTable } from '../infra/db-schema.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';
import { chunksOf } from '../infra/chunks.js';

/**
 * The decisions table (issue 13) and the suppression review's bookkeeping (decision_list_reviews).
 * A decision is history: what was decided, by whom, on which listing, is written once; only its
 * approval (four-eyes) and its lapse (suppression.ts) are set later, once each. No other module
 * writes SQL against these tables. The suppression review reads the lists domain's list_versions and
 * list_records (which versions were activated, and whether one held a listing) in its own statements.
 */

export type DecisionRow = DecisionsTable;

export interface DecisionFilter {
  page: number;
  pageSize: number;
  screeningId?: string;
  alertId?: string;
  entityId?: string;
  decision?: string;
  status?: string;
  externalId?: string;
  from?: string;
  to?: string;
}

// On the POST /screen path: built and compiled once per database.
const queries = preparedFor((db) => ({
  forCustomer: prepareQuery(db, (db, p: { orgId: string; customerKey: string }) =>
    db
      .selectFrom('decisions')
      .selectAll()
      .where('org_id', '=', p.orgId)
      .where('customer_key', '=', p.customerKey)
      .where('status', '=', 'effective')
      .orderBy('created_at')
      .orderBy('id'),
  ),
  lapse: prepareQuery(db, (db, p: { id: string; at: string; reason: string }) =>
    db
      .updateTable('decisions')
      .set({ lapsed_at: p.at, lapse_reason: p.reason })
      .where('id', '=', p.id)
      .where('lapsed_at', 'is', null),
  ),
}));

export class DecisionsStore {
  /** `db` is the database; a write may name a transaction of it to run in. */
  constructor(private readonly db: Db) {}

  async insert(row: DecisionRow, trx: Db = this.db): Promise<void> {
    await trx.insertInto('decisions').values(row).execute();
  }

  byId(orgId: string, id: string): Promise<DecisionRow | undefined> {
    return this.db
      .selectFrom('decisions')
      .selectAll()
      .where('id', '=', id)
      .where('org_id', '=', orgId)
      .executeTakeFirst();
  }

  async byIds(ids: string[]): Promise<DecisionRow[]> {
    const out: DecisionRow[] = [];
    for (const chunk of chunksOf(ids))
      out.push(...(await this.db.selectFrom('decisions').selectAll().where('id', 'in', chunk).execute()));
    return out;
  }

  /** Effective decisions about one customer, oldest first (the last per entity is the one in force). */
  forCustomer(orgId: string, customerKey: string): Promise<DecisionRow[]> {
    return queries(this.db)
      .forCustomer.execute({ orgId, customerKey })
      .then((r) => r.rows);
  }

  /** Organizations with at least one effective decision. */
  async orgsWithEffective(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('decisions')
      .select('org_id')
      .distinct()
      .where('status', '=', 'effective')
      .execute();
    return new Set(rows.map((r) => r.org_id));
  }

  /** Every decision (any status) about these customers of an organization, oldest first. */
  async allForCustomers(orgId: string, customerKeys: string[]): Promise<DecisionRow[]> {
    if (customerKeys.length === 0) return [];
    return this.db
      .selectFrom('decisions')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('customer_key', 'in', customerKeys)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Every decision of an organization of these kinds, oldest first (a profile's backtest). */
  ofKinds(orgId: string, kinds: readonly string[]): Promise<DecisionRow[]> {
    return this.db
      .selectFrom('decisions')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('decision', 'in', [...kinds])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Effective decisions about any of these customers, of any organization, oldest first (rescreen batches). */
  async effectiveForCustomers(customerKeys: string[]): Promise<DecisionRow[]> {
    if (customerKeys.length === 0) return [];
    const out: DecisionRow[] = [];
    for (const chunk of chunksOf(customerKeys)) {
      out.push(
        ...(await this.db
          .selectFrom('decisions')
          .selectAll()
          .where('customer_key', 'in', chunk)
          .where('status', '=', 'effective')
          .orderBy('created_at')
          .orderBy('id')
          .execute()),
      );
    }
    return out;
  }

  /** Marks a decision lapsed (first lapse wins); false when it had lapsed already. */
  async lapse(id: string, at: string, reason: string, trx: Db = this.db): Promise<boolean> {
    return (await queries(this.db).lapse.affectedRows({ id, at, reason }, trx)) > 0;
  }

  /** Approves a pending decision; false when it was not pending any more. */
  async approve(id: string, by: string, at: string, reviewAt: string, trx: Db = this.db): Promise<boolean> {
    const result = await trx
      .updateTable('decisions')
      .set({ status: 'effective', approved_by: by, approved_at: at, review_at: reviewAt })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** One page of an organization's decisions, newest first, and how many match in all. */
  async page(orgId: string, filter: DecisionFilter) {
    let query = this.db.selectFrom('decisions').where('org_id', '=', orgId);
    if (filter.screeningId !== undefined) query = query.where('screening_id', '=', filter.screeningId);
    if (filter.alertId !== undefined) query = query.where('alert_id', '=', filter.alertId);
    if (filter.entityId !== undefined) query = query.where('entity_id', '=', filter.entityId);
    if (filter.decision !== undefined) query = query.where('decision', '=', filter.decision);
    if (filter.externalId !== undefined) query = query.where('external_id', '=', filter.externalId);
    if (filter.status === 'lapsed') query = query.where('lapsed_at', 'is not', null);
    else if (filter.status !== undefined)
      query = query.where('status', '=', filter.status).where('lapsed_at', 'is', null);
    if (filter.from) query = query.where('created_at', '>=', filter.from);
    if (filter.to) query = query.where('created_at', '<', filter.to);
    const totalRow = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rows = await query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute();
    return { rows, total: Number(totalRow?.n ?? 0) };
  }

  /** Live false positives (effective, not lapsed, not delisted) on entities of a source, decided on versions before `before`. */
  liveOnSource(source: string, before: string) {
    return (
      this.db
        .selectFrom('decisions')
        .select(['id', 'entity_id'])
        .where('decision', '=', 'false_positive')
        .where('lapsed_at', 'is', null)
        .where('delisted_at', 'is', null)
        // Entity ids of the source: `<source>:...`; ';' is the character after ':'.
        .where('entity_id', '>=', `${source}:`)
        .where('entity_id', '<', `${source};`)
        .where('listed_since', '<', before)
        .execute()
    );
  }

  async markDelisted(ids: string[], at: string, trx: Db = this.db): Promise<void> {
    for (const chunk of chunksOf(ids)) {
      await trx
        .updateTable('decisions')
        .set({ delisted_at: at })
        .where('id', 'in', chunk)
        .where('delisted_at', 'is', null)
        .execute();
    }
  }

  /** Activated list versions the suppression review has not looked at yet, oldest first. */
  unreviewedVersions() {
    return this.db
      .selectFrom('list_versions as v')
      .leftJoin('decision_list_reviews as r', 'r.version_id', 'v.id')
      .select(['v.id', 'v.source', 'v.activated_at', 'v.record_count'])
      .where('r.version_id', 'is', null)
      .where('v.activated_at', 'is not', null)
      .where('v.status', 'in', ['active', 'superseded'])
      .orderBy('v.activated_at')
      .orderBy('v.id')
      .execute();
  }

  /** Which of these record ids a list version holds; null when the version's records were pruned. */
  async recordsPresent(versionId: string, recordIds: string[], expected: number): Promise<Set<string> | null> {
    const present = new Set<string>();
    for (const chunk of chunksOf(recordIds)) {
      const rows = await this.db
        .selectFrom('list_records')
        .select('record_id')
        .where('version_id', '=', versionId)
        .where('record_id', 'in', chunk)
        .execute();
      for (const row of rows) present.add(row.record_id);
    }
    if (present.size === 0 && expected > 0) {
      const any = await this.db
        .selectFrom('list_records')
        .select('seq')
        .where('version_id', '=', versionId)
        .limit(1)
        .executeTakeFirst();
      if (!any) return null;
    }
    return present;
  }

  async markReviewed(versionId: string, at: string, trx: Db = this.db): Promise<void> {
    await trx
      .insertInto('decision_list_reviews')
      .values({ version_id: versionId, reviewed_at: at })
      .onConflict((oc) => oc.column('version_id').doNothing())
      .execute();
  }

  /** The activation time of a list version (a decision's `listed_since`). */
  async activatedAt(versionId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('list_versions')
      .select('activated_at')
      .where('id', '=', versionId)
      .executeTakeFirst();
    return row?.activated_at ?? null;
  }
}
