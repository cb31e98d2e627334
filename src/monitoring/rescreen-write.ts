/**
 * The write of a rescreened batch (rescreen-service.ts), in the transaction the caller holds: each
 * monitor's new state, its alert and the alert's webhook delivery and audit event together, so a
 * crash neither loses an alert nor raises it twice. Monitors whose result did not change are only
 * marked as screened against the lists in force.
 */

import { appendAudit, type AuditEvent } from '../audit/index.js';
import { recordLapses } from '../decisions/index.js';
import type { Db } from '../infra/database.js';
import { parseStringArray } from '../infra/json.js';
import { lapseView, raiseAlert, versionIds } from './alert-raise.js';
import { alertReasons } from './alert-rules.js';
import type { RescreenedMonitor } from './monitor-screening.js';
import { MonitorStore } from './monitor-store.js';

/** The lists a batch was screened against, as written on each monitor. */
export interface Generation {
  fingerprint: string;
  versions: string;
  at: string;
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

/** Writes `results` in `trx` (`db` is the handle outside it, for the audit chain's reads): changed monitors and alerts raised. */
export async function writeBatch(
  db: Db,
  trx: Db,
  results: RescreenedMonitor[],
  generation: Generation,
  now: Date,
): Promise<{ changed: number; alerts: number }> {
  const monitors = new MonitorStore(trx);
  const unchanged: string[] = [];
  const events: AuditEvent[] = [];
  let changed = 0;
  let alerts = 0;
  for (const result of results) {
    const monitor = result.monitor;
    if (result.newLapses.length > 0)
      events.push(...(await recordLapses(db, trx, result.newLapses, { orgId: monitor.org_id, actor: 'system' })));
    const oldSources = parseStringArray(monitor.last_sources);
    const same =
      result.riskScore === monitor.last_risk_score &&
      result.riskLevel === monitor.last_risk_level &&
      result.entityId === monitor.last_entity_id &&
      sameSet(result.sources, oldSources);
    if (same && result.entityName === monitor.entity_name && result.lapses.length === 0) {
      unchanged.push(monitor.id);
      continue;
    }
    changed++;
    // Removed since it was read (SQLite path): no alert for a monitor the user no longer has; or
    // rescreened by another node since (this one hung past its claim): no alert twice.
    if (!(await monitors.recordResult(monitor, result, generation))) continue;
    let reasons: string[] = alertReasons(
      { riskScore: monitor.last_risk_score, riskLevel: monitor.last_risk_level, sources: oldSources },
      { riskScore: result.riskScore, riskLevel: result.riskLevel, sources: result.sources },
      monitor.risk_threshold,
    );
    // A cleared match dropping out of the risk is the analyst's own doing: no alert (issue 13).
    if (result.suppressedCount > 0 && result.riskScore <= monitor.last_risk_score && !reasons.includes('source_added'))
      reasons = [];
    // A suppression that lapsed on a match alerts again, saying why.
    if (result.lapses.length > 0) reasons.push('suppression_lapsed');
    if (reasons.length === 0) continue;
    alerts++;
    const alertId = await raiseAlert(trx, result, { oldSources, reasons, versions: generation.versions, now });
    events.push({
      chain: monitor.org_id,
      event: 'alert.created',
      actor: 'system',
      subject: alertId,
      at: now.toISOString(),
      data: {
        monitorId: monitor.id,
        entityId: result.entityId ?? monitor.last_entity_id,
        oldRiskScore: monitor.last_risk_score,
        newRiskScore: result.riskScore,
        reasons,
        listVersions: versionIds(generation.versions),
        ...(result.lapses.length > 0 ? { lapsedSuppressions: lapseView(result.lapses) } : {}),
      },
    });
  }
  await monitors.markScreened(unchanged, generation);
  await appendAudit(db, trx, events);
  return { changed, alerts };
}
