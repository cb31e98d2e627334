import { appendAudit } from '../audit/index.js';
import type { Call } from '../infra/context.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import type { Db } from '../infra/database.js';
import { parseJsonArray, parseStringArray } from '../infra/json.js';
import {
  customerKeyOf,
  DecisionsStore,
  type DecisionTarget,
  type DecisionView,
  decisionViews,
  entityIdsOf,
} from '../decisions/index.js';
import { listLabels } from '../lists/index.js';
import { normalizeEmail, requireOrg, TenantsStore } from '../tenants/index.js';
import { type AlertPayload, enqueueDelivery, serializeEvent } from '../webhooks/index.js';
import { type AlertRow, AlertStore } from './alert-store.js';
import { MonitorStore } from './monitor-store.js';

/** Alerts of an organization: listed and resolved from the command line (and later the console). */

export interface AlertsDeps {
  /** Called after an alert.resolved delivery was written, so the delivery job sends it at once. */
  onDeliveries?: () => void;
}

/** DECISIONS.md leaves the note's length open: long enough for a reason, short enough for a payload. */
const MAX_NOTE_LENGTH = 2000;

/** The alert object of api-v1.md 2.9 (plus oldLists/newLists, reasons and, once resolved, resolvedBy and note). */
export function alertView(
  row: AlertRow,
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

/** Customer key -> entity id -> the latest decision, for the customers of some alerts. */
async function latestByCustomer(db: Db, orgId: string, keys: string[]) {
  const rows = await new DecisionsStore(db).allForCustomers(orgId, [...new Set(keys)]);
  const views = await decisionViews(db, rows);
  const out = new Map<string, Map<string, DecisionView>>();
  rows.forEach((row, i) => {
    const byEntity = out.get(row.customer_key) ?? new Map<string, DecisionView>();
    byEntity.set(row.entity_id, views[i]!);
    out.set(row.customer_key, byEntity);
  });
  return out;
}

/** An alert of the organization as the target of a decision: the matches of its rescreen, its monitor's customer. */
export async function alertDecisionTarget(db: Db, orgId: string, alertId: string): Promise<DecisionTarget | undefined> {
  const alert = await new AlertStore(db).byId(alertId);
  if (!alert || alert.org_id !== orgId) return undefined;
  const monitor = await new MonitorStore(db).byId(alert.monitor_id);
  if (!monitor) return undefined;
  return {
    screeningId: null,
    alertId: alert.id,
    matchesJson: alert.match_details ?? '[]',
    externalId: monitor.external_id,
    searchKey: monitor.search_key,
  };
}

export type AlertsService = ReturnType<typeof alertsService>;

export function alertsService(deps: AlertsDeps = {}) {
  return {
    async listAlerts({ ctx, input }: Call<{ org: string; unresolved?: boolean; limit?: number }>) {
      const tenants = new TenantsStore(ctx.db);
      const org = await requireOrg(tenants, input.org);
      const rows = await new AlertStore(ctx.db).list(org.id, {
        unresolved: input.unresolved ?? false,
        limit: input.limit ?? 100,
      });
      const emails = await tenants.emailsOf([...new Set(rows.flatMap((r) => (r.resolved_by ? [r.resolved_by] : [])))]);
      const decisions = await latestByCustomer(
        ctx.db,
        org.id,
        rows.map((r) => customerKeyOf(r.external_id, r.search_key)),
      );
      return rows.map((r) => {
        const view = alertView(r, {
          riskThreshold: r.risk_threshold,
          query: r.query,
          resolvedByEmail: r.resolved_by ? (emails.get(r.resolved_by) ?? null) : null,
        });
        // Issue 13: the latest decision on each of the alert's matches, and the suppressions that lapsed in it.
        const latest = decisions.get(customerKeyOf(r.external_id, r.search_key));
        const matched = new Set([
          ...(r.entity_id ? [r.entity_id] : []),
          ...parseJsonArray<{ entity?: { id?: string } }>(r.match_details).flatMap((m) => entityIdsOf(m)),
        ]);
        const onMatches = latest ? [...matched].flatMap((id) => (latest.has(id) ? [latest.get(id)!] : [])) : [];
        return {
          ...view,
          decisions: onMatches,
          ...(r.lapses ? { lapsedSuppressions: parseJsonArray(r.lapses) as AlertPayload['lapsedSuppressions'] } : {}),
        };
      });
    },

    /**
     * Resolves an alert for a member of its organization and, in the same transaction, writes the
     * alert.resolved delivery (DECISIONS.md: the alert object with resolvedAt set, plus resolvedBy and note).
     */
    async resolveAlert({ ctx, input }: Call<{ id: string; user: string; note?: string; orgId?: string }>) {
      const email = normalizeEmail(input.user);
      const note = input.note?.trim() || null;
      if (note !== null && note.length > MAX_NOTE_LENGTH)
        throw validationError('note', `must be at most ${MAX_NOTE_LENGTH} characters`);
      const alert = await new AlertStore(ctx.db).byId(input.id);
      // With orgId (the console acts for one organization), another organization's alert is not found.
      if (!alert || (input.orgId !== undefined && alert.org_id !== input.orgId)) throw notFound(`alert "${input.id}"`);
      const member = await new TenantsStore(ctx.db).memberByEmail(alert.org_id, email);
      if (!member)
        throw new AppError('FORBIDDEN', `${email} is not a member of the organization that owns alert "${input.id}"`);
      if (alert.resolved_at)
        throw new AppError('CONFLICT', `alert "${input.id}" was already resolved at ${alert.resolved_at}`);

      const now = ctx.clock.now();
      const at = now.toISOString();
      const result = await ctx.db.transaction().execute(async (trx) => {
        if (!(await new AlertStore(trx).resolve(alert.id, { at, by: member.id, note })))
          throw new AppError('CONFLICT', `alert "${input.id}" was already resolved`);
        await appendAudit(ctx.db, trx, [
          {
            chain: alert.org_id,
            event: 'alert.resolved',
            actor: member.id,
            subject: alert.id,
            at,
            data: { monitorId: alert.monitor_id, entityId: alert.entity_id, note },
          },
        ]);
        const org = await new TenantsStore(trx).orgById(alert.org_id);
        const monitor = await new MonitorStore(trx).byId(alert.monitor_id);
        const view = alertView(
          { ...alert, resolved_at: at, resolved_by: member.id, note },
          {
            ...(monitor ? { riskThreshold: monitor.risk_threshold, query: monitor.query } : {}),
            resolvedByEmail: member.email,
          },
        );
        let deliveryId: string | null = null;
        if (org?.webhook_url) {
          deliveryId = await enqueueDelivery(trx, {
            orgId: org.id,
            alertId: alert.id,
            event: 'alert.resolved',
            payload: serializeEvent('alert.resolved', at, org, view),
            isTest: false,
            now,
          });
        }
        return { alert: view, deliveryId };
      });
      if (result.deliveryId) deps.onDeliveries?.();
      return result;
    },
  };
}
