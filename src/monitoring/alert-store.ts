import type { Db } from '../infra/database.js';
import type { AlertsTable } from '../infra/db-schema.js';

/**
 * The alerts table. An alert is history: written once by a rescreen; only its resolution (when, by
 * whom, why) is set later, once. No other module writes SQL against it.
 */

export type AlertRow = AlertsTable;

export class AlertStore {
  /** `db` is the database, or the transaction an alert is written in with its webhook delivery. */
  constructor(private readonly db: Db) {}

  async insert(row: AlertRow): Promise<void> {
    await this.db.insertInto('alerts').values(row).execute();
  }

  byId(id: string): Promise<AlertRow | undefined> {
    return this.db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** An organization's alerts, newest first, with the threshold and search of their monitors. */
  list(orgId: string, filter: { unresolved: boolean; limit: number }) {
    let query = this.db
      .selectFrom('alerts as a')
      .innerJoin('monitors as m', 'm.id', 'a.monitor_id')
      .selectAll('a')
      .select(['m.risk_threshold', 'm.query', 'm.search_key', 'm.external_id'])
      .where('a.org_id', '=', orgId)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(filter.limit);
    if (filter.unresolved) query = query.where('a.resolved_at', 'is', null);
    return query.execute();
  }

  /** Sets the resolution of an unresolved alert; false when it was resolved meanwhile. */
  async resolve(id: string, resolution: { at: string; by: string; note: string | null }): Promise<boolean> {
    const updated = await this.db
      .updateTable('alerts')
      .set({ resolved_at: resolution.at, resolved_by: resolution.by, note: resolution.note })
      .where('id', '=', id)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }
}
