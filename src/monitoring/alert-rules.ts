/** DECISIONS.md ("Monitors"): the alert threshold when POST /monitors gives none. */
export const DEFAULT_RISK_THRESHOLD = 55;

/** The state of a monitored search that alerts compare: before and after a rescreen. */
export interface MonitorState {
  riskScore: number;
  riskLevel: string;
  sources: string[];
}

export type AlertReason = 'risk_level_changed' | 'threshold_crossed' | 'source_added';

/**
 * DECISIONS.md ("Alerts and webhooks"): an alert when the risk level changes, the threshold is crossed
 * in either direction (old < T <= new, or old >= T > new), or a source is added to the matched sources.
 * A source dropping out alone is no alert: the level or threshold rules catch what matters of it.
 */
export function alertReasons(before: MonitorState, after: MonitorState, threshold: number): AlertReason[] {
  const reasons: AlertReason[] = [];
  if (before.riskLevel !== after.riskLevel) reasons.push('risk_level_changed');
  const up = before.riskScore < threshold && threshold <= after.riskScore;
  const down = before.riskScore >= threshold && threshold > after.riskScore;
  if (up || down) reasons.push('threshold_crossed');
  const old = new Set(before.sources);
  if (after.sources.some((s) => !old.has(s))) reasons.push('source_added');
  return reasons;
}
