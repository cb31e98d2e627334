import { parseStringArray } from '../infra/json.js';
import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import type { AlertsTable } from '../infra/db-schema.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { normalizeEmail } from '../tenants/tenants-service.js';
import { enqueueDelivery } from '../webhooks/delivery-store.js';
import { type AlertPayload, serializeEvent } from '../webhooks/payload.js';
import { listLabels } from './alert-rules.js';

/** Alerts of an organization: listed and resolved from the command line (and later the console). */

export interface AlertsDeps {
  db: Db;
  clock: Clock;
  /** Called after an alert.resolved delivery was written. */
  onDeliveries?: () => void;
}

/** The alert object of api-v1.md 2.9 (plus oldLists/newLists, reasons and, once resolved, resolvedBy and note). */
export function alertView(
  row: AlertsTable,
  extra: { riskThreshold?: number; query?: string; resolvedByEmail?: string | null } = {},
): AlertPayload {
  const oldSources = parseStringArray(row.old_sources);
  const newSources = parseStringArray(row.new_sources);
  return {
    id: row.id,
    monitorId: row.monitor_id,
    entityId: row.entity_id,
    entityName: row.entity_name,
    oldRiskScore: row.old_risk_score,
    newRiskScore: row.new_risk_score,
    oldRiskLevel: row.old_risk_level,
    newRiskLevel: row.new_risk_level,
    oldSources,
    newSources,
    oldLists: listLabels(oldSources),
    newLists: listLabels(newSources),
    reasons: parseStringArray(row.reasons),
    ...(extra.riskThreshold !== undefined ? { riskThreshold: extra.riskThreshold } : {}),
    ...(extra.query !== undefined ? { query: extra.query } : {}),
    timestamp: row.created_at,
    resolvedAt: row.resolved_at,
    ...(row.resolved_at ? { resolvedBy: extra.resolvedByEmail ?? row.resolved_by ?? '' } : {}),
    ...(row.resolved_at && row.note !== null ? { note: row.note } : {}),
  };
}

async function orgBySlug(db: Db, slug: string) {
  const org = await db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (!org) throw notFound(`organization "${slug}"`);
  return org;
}

export async function listAlerts(
  deps: Pick<AlertsDeps, 'db'>,
  input: { org: string; unresolved?: boolean; limit?: number },
) {
  const org = await orgBySlug(deps.db, input.org);
  let query = deps.db
    .selectFrom('alerts as a')
    .innerJoin('monitors as m', 'm.id', 'a.monitor_id')
    .leftJoin('users as u', 'u.id', 'a.resolved_by')
    .selectAll('a')
    .select(['m.risk_threshold', 'm.query', 'u.email as resolved_email'])
    .where('a.org_id', '=', org.id)
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(input.limit ?? 100);
  if (input.unresolved) query = query.where('a.resolved_at', 'is', null);
  const rows = await query.execute();
  return rows.map((r) =>
    alertView(r, { riskThreshold: r.risk_threshold, query: r.query, resolvedByEmail: r.resolved_email }),
  );
}

/**
 * Resolves an alert for a member of its organization and, in the same transaction, writes the
 * alert.resolved delivery (DECISIONS.md: the alert object with resolvedAt set, plus resolvedBy and note).
 */
export async function resolveAlert(deps: AlertsDeps, input: { id: string; user: string; note?: string }) {
  const email = normalizeEmail(input.user);
  const note = input.note?.trim() || null;
  if (note !== null && note.length > 2000) throw validationError('note', 'must be at most 2000 characters');
  const alert = await deps.db.selectFrom('alerts').selectAll().where('id', '=', input.id).executeTakeFirst();
  if (!alert) throw notFound(`alert "${input.id}"`);
  const member = await deps.db
    .selectFrom('users as u')
    .innerJoin('memberships as ms', 'ms.user_id', 'u.id')
    .select(['u.id', 'u.email'])
    .where('u.email', '=', email)
    .where('ms.org_id', '=', alert.org_id)
    .executeTakeFirst();
  if (!member)
    throw new AppError('FORBIDDEN', `${email} is not a member of the organization that owns alert "${input.id}"`);
  if (alert.resolved_at)
    throw new AppError('CONFLICT', `alert "${input.id}" was already resolved at ${alert.resolved_at}`);

  const now = deps.clock.now();
  const at = now.toISOString();
  const result = await deps.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('alerts')
      .set({ resolved_at: at, resolved_by: member.id, note })
      .where('id', '=', alert.id)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      throw new AppError('CONFLICT', `alert "${input.id}" was already resolved`);
    const org = await trx
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', alert.org_id)
      .executeTakeFirstOrThrow();
    const monitor = await trx
      .selectFrom('monitors')
      .select(['risk_threshold', 'query'])
      .where('id', '=', alert.monitor_id)
      .executeTakeFirst();
    const view = alertView(
      { ...alert, resolved_at: at, resolved_by: member.id, note },
      {
        ...(monitor ? { riskThreshold: monitor.risk_threshold, query: monitor.query } : {}),
        resolvedByEmail: member.email,
      },
    );
    let deliveryId: string | null = null;
    if (org.webhook_url) {
      const payload = serializeEvent('alert.resolved', at, org, view);
      deliveryId = await enqueueDelivery(trx, {
        orgId: org.id,
        alertId: alert.id,
        event: 'alert.resolved',
        payload,
        isTest: false,
        now,
      });
    }
    return { alert: view, deliveryId };
  });
  if (result.deliveryId) deps.onDeliveries?.();
  return result;
}
