import { annotateMatches, type DecisionRow, evaluateSuppressions, type Lapse } from '../decisions/index.js';
import type { MatchingConfig } from '../infra/config.js';
import type { Db } from '../infra/database.js';
import type { EntityType, ListSnapshot } from '../lists/index.js';
import {
  BUILT_IN_PROFILE,
  matchSubject,
  parseStoredIdentifiers,
  type ProfileResolver,
  type Screener,
  type ScreeningSubject,
} from '../screening/index.js';
import type { DueMonitor, MonitorResult } from './monitor-store.js';

/**
 * The screening of one monitor in a rescreen pass: the screening pipeline's matching step
 * (screening/screening-pipeline.ts) on the monitor's stored search, with its customer's suppressions
 * and its organization's profile, as POST /screen runs it. The pass (rescreen-service.ts) claims the
 * monitors, reads their customers' decisions in one go, and writes results and alerts.
 */

/** A monitor's screening with its matches (kept for the alert) and how many of them were suppressed. */
export interface MonitorScreening extends MonitorResult {
  matchesJson: string;
  suppressedCount: number;
  /** The entity ids of the matches that count (the matching step's index; lapses are checked against them). */
  countedEntityIds: readonly string[];
  profileId: string | null;
  profileVersion: number;
}

export interface RescreenedMonitor extends MonitorScreening {
  monitor: DueMonitor;
  /** Suppressions of this customer that lapsed since its last screening, on entities it matches now. */
  lapses: Lapse[];
  /** Lapses found now, to be written into their decisions. */
  newLapses: Lapse[];
}

export interface MonitorScreeningStep {
  snapshot: ListSnapshot<Screener>;
  matching: MatchingConfig;
  profileOf?: ProfileResolver | undefined;
  /** The decisions about this monitor's customer (suppression.ts `decisionsByCustomer`). */
  decisions: readonly DecisionRow[];
  now: Date;
  /**
   * Screenings of this pass by search, suppressed entities and profile: monitors of one search
   * share one matching step.
   */
  cache: Map<string, MonitorScreening>;
}

/** Screenings a pass keeps for other monitors of the same search; the oldest go first. */
export const PASS_CACHE_LIMIT = 10_000;

/** The stored search of a monitor as the pipeline's subject. */
export function monitorSubject(monitor: DueMonitor): ScreeningSubject {
  return {
    name: monitor.query,
    entityType: monitor.entity_type as EntityType | null,
    country: monitor.country,
    birthDate: monitor.birth_date,
    identifiers: monitor.identifiers ? parseStoredIdentifiers(monitor.identifiers) : [],
  };
}

/** Screens one monitor against the snapshot; nothing is written (the pass writes its batch at once). */
export async function screenMonitor(
  db: Db,
  monitor: DueMonitor,
  step: MonitorScreeningStep,
): Promise<RescreenedMonitor> {
  const suppressions = evaluateSuppressions([...step.decisions], {
    searchKey: monitor.search_key,
    now: step.now,
    record: (id) => step.snapshot.record(id),
  });
  const suppressed = [...suppressions.suppressed.keys()].sort();
  // Monitors keep no key: the organization's profile applies (no key id matches a key's own).
  const profile = step.profileOf ? await step.profileOf(db, monitor.org_id, '') : BUILT_IN_PROFILE;
  const profileKey = profile.id === null ? '' : `\u0000${profile.id}@${profile.version}`;
  const cacheKey =
    (suppressed.length > 0 ? `${monitor.search_key}\u0000${suppressed.join(',')}` : monitor.search_key) + profileKey;
  let screening = step.cache.get(cacheKey);
  if (!screening) {
    const matches = await matchSubject(step.snapshot, monitorSubject(monitor), {
      matching: step.matching,
      profile,
      suppressed,
    });
    screening = {
      riskScore: matches.riskScore,
      riskLevel: matches.riskLevel,
      profileId: matches.profileId,
      profileVersion: matches.profileVersion,
      sources: matches.matchedSources,
      entityId: matches.entityId,
      entityName: matches.entityName,
      matchesJson: matches.matchesJson,
      suppressedCount: matches.suppressedCount,
      countedEntityIds: matches.countedEntityIds,
    };
    // Bounded: a pass over a million monitors kept every one's screening until its end (the node
    // near 1 GB of memory at 600,000), though monitors of one search seldom sit far apart.
    if (step.cache.size >= PASS_CACHE_LIMIT) step.cache.delete(step.cache.keys().next().value!);
    step.cache.set(cacheKey, screening);
  }
  // Lapses since the last screening of this monitor, on entities matched now.
  let lapses: Lapse[] = [];
  if (suppressions.lapsed.length > 0) {
    const matched = new Set(screening.countedEntityIds);
    lapses = suppressions.lapsed.filter(
      (lapse) => matched.has(lapse.entityId) && (lapse.isNew || lapse.at >= monitor.last_screened_at),
    );
  }
  return {
    monitor,
    ...screening,
    matchesJson: annotateMatches(screening.matchesJson, suppressions),
    lapses,
    newLapses: suppressions.lapsed.filter((lapse) => lapse.isNew),
  };
}
