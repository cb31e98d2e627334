import type { Db } from '../infra/database.js';
import { newId } from '../infra/ids.js';
import { listLabels } from '../lists/index.js';
import type { Lapse } from '../decisions/index.js';
import { enqueueDelivery, serializeEvent } from '../webhooks/index.js';
import { AlertStore } from './alert-store.js';
import type { RescreenedMonitor } from './monitor-screening.js';

/**
 * What a rescreen (rescreen-service.ts) found for a monitor, and the alert it raises: its row and,
 * when the organization has a webhook, its alert.created delivery.
 */

export function lapseView(lapses: Lapse[]) {
  return lapses.map((l) => ({ decisionId: l.decisionId, entityId: l.entityId, reason: l.reason }));
}

export function versionIds(versionsJson: string): string[] {
  return (JSON.parse(versionsJson) as { source: string; version: string }[]).map((v) => `${v.source}:${v.version}`);
}

/** Writes the alert of a changed monitor and, when its organization has a webhook, the alert.created delivery. */
export async function raiseAlert(
  trx: Db,
  r: RescreenedMonitor,
  change: { oldSources: string[]; reasons: string[]; versions: string; now: Date },
): Promise<string> {
  const monitor = r.monitor;
  const at = change.now.toISOString();
  const id = newId('alt', change.now);
  // A party that drops off the lists has no new top entity: the alert names the one it had.
  const entityId = r.entityId ?? monitor.last_entity_id;
  const entityName = r.entityName ?? monitor.entity_name;
  await new AlertStore(trx).insert({
    id,
    org_id: monitor.org_id,
    monitor_id: monitor.id,
    entity_id: entityId,
    entity_name: entityName,
    old_risk_score: monitor.last_risk_score,
    new_risk_score: r.riskScore,
    old_risk_level: monitor.last_risk_level,
    new_risk_level: r.riskLevel,
    old_sources: JSON.stringify(change.oldSources),
    new_sources: JSON.stringify(r.sources),
    reasons: JSON.stringify(change.reasons),
    list_versions: change.versions,
    created_at: at,
    resolved_at: null,
    resolved_by: null,
    note: null,
    match_details: r.matchesJson,
    lapses: r.lapses.length > 0 ? JSON.stringify(lapseView(r.lapses)) : null,
    profile_id: r.profileId,
    profile_version: r.profileVersion,
  });
  if (!monitor.webhook_url) return id;
  const payload = serializeEvent(
    'alert.created',
    at,
    { id: monitor.org_id, slug: monitor.org_slug, name: monitor.org_name },
    {
      id,
      monitorId: monitor.id,
      entityId,
      entityName,
      oldRiskScore: monitor.last_risk_score,
      newRiskScore: r.riskScore,
      oldRiskLevel: monitor.last_risk_level,
      newRiskLevel: r.riskLevel,
      oldSources: change.oldSources,
      newSources: r.sources,
      oldLists: listLabels(change.oldSources),
      newLists: listLabels(r.sources),
      reasons: change.reasons,
      riskThreshold: monitor.risk_threshold,
      query: monitor.query,
      timestamp: at,
      resolvedAt: null,
      ...(r.lapses.length > 0 ? { lapsedSuppressions: lapseView(r.lapses) } : {}),
    },
  );
  await enqueueDelivery(trx, {
    orgId: monitor.org_id,
    alertId: id,
    event: 'alert.created',
    payload,
    isTest: false,
    now: change.now,
  });
  return id;
}
