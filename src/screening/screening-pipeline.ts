import type { MatchingConfig } from '../infra/config.js';
import type { EntityType, ListSnapshot, LoadedVersion } from '../lists/index.js';
import type { MatchQuery, ScreenSummary } from '../matching/index.js';
import { type AppliedProfile, profileLevel } from './applied-profile.js';
import type { Suppressions } from '../decisions/index.js';
import { type IdentifierWarning, matchIdentifiers, type SearchIdentifier } from './identifiers-input.js';
import type { MatchIndex, Screener, ScreenHints } from './screener.js';

/**
 * The matching step of every screening (POST /screen, console, batch rows, monitor rescreens): the
 * subject's query run against the lists in force under the caller's profile, with the customer's
 * cleared matches suppressed. What is around it (suppression read, storage, alerts) is each caller's.
 */

/** What is screened: a validated request (screen-input.ts), or the stored search of a monitor. */
export interface ScreeningSubject {
  name: string;
  entityType: EntityType | null;
  country: string | null;
  birthDate: string | null;
  /** Checked and normalized; empty when there are none. */
  identifiers: readonly SearchIdentifier[];
}

/** How the subject is matched. */
export interface MatchingStep {
  matching: MatchingConfig;
  profile: AppliedProfile;
  /** Entity ids cleared for this customer (suppression.ts): reported last, counting for nothing. */
  suppressed: readonly string[];
  /** Given by the request or its profile; left out (rescreens), the profile's options and the engine decide. */
  groupByCluster?: boolean;
  hints?: ScreenHints;
}

/**
 * The engine's answer (the matching thread's summary: score, level, top match, the matches as JSON
 * text, stored and sent as they are), its risk level read under the profile, with the small index of
 * its matches.
 */
export interface ScreeningMatches extends ScreenSummary {
  /** How many of the matches are suppressed. */
  suppressedCount: number;
  /** The entity ids of the matches that count (suppression lapses are checked against them). */
  countedEntityIds: readonly string[];
  profileId: string | null;
  profileVersion: number;
}

/**
 * A screening's typed result, stored (`screeningId`): what POST /screen answers (the route builds its
 * envelope, screening-response.ts), and what the console and batch rows read.
 */
export interface ScreeningOutcome extends ScreeningMatches {
  replayed: false;
  screeningId: string;
  /** The matches as stored: suppressed ones with the decision that clears them, lapsed ones marked. */
  matchesJson: string;
  /** The customer's suppressions in force, and those found lapsed (suppression.ts). */
  suppressions: Suppressions;
  /** Identifiers screened as written although they fail their check; empty when none. */
  warnings: readonly IdentifierWarning[];
  /** The lists screened against. */
  listVersions: readonly LoadedVersion[];
  /** Whether the organization monitors this search; null when not read (a batch row without idempotency key). */
  isMonitored: boolean | null;
  /** ISO timestamp of the record. */
  createdAt: string;
}

/** A replay of an idempotent POST /screen: the stored response body, as first sent. */
export interface ReplayedScreening {
  replayed: true;
  status: number;
  json: string;
  /** The screening the first request stored. */
  screeningId: string | null;
}

export function matchQueryOf(subject: ScreeningSubject): MatchQuery {
  return {
    name: subject.name,
    ...(subject.entityType ? { entityType: subject.entityType } : {}),
    ...(subject.country ? { country: subject.country } : {}),
    ...(subject.birthDate ? { birthDate: subject.birthDate } : {}),
    ...(subject.identifiers.length ? { identifiers: matchIdentifiers(subject.identifiers) } : {}),
  };
}

/** Runs the matching step against `lists` (in a matching thread, or on this one). */
export async function matchSubject(
  lists: ListSnapshot<Screener>,
  subject: ScreeningSubject,
  step: MatchingStep,
): Promise<ScreeningMatches> {
  const { profile } = step;
  let index: MatchIndex | undefined;
  const hints: ScreenHints = Object.assign({}, step.hints, { indexed: (made: MatchIndex) => (index = made) });
  const summary = await lists.index.screen(
    matchQueryOf(subject),
    {
      floor: step.matching.floor,
      maxMatches: step.matching.maxMatches,
      ...(step.groupByCluster !== undefined ? { groupByCluster: step.groupByCluster } : {}),
      ...profile.options,
      ...(step.suppressed.length > 0 ? { suppressed: [...step.suppressed] } : {}),
    },
    hints,
  );
  // A screener that makes no index (a test's own) leaves it to be read from the JSON.
  index ??= indexFromJson(summary.matchesJson);
  return {
    riskScore: summary.riskScore,
    riskLevel: profileLevel(profile, {
      riskScore: summary.riskScore,
      riskLevel: summary.riskLevel,
      entityId: summary.entityId,
      matchesJson: summary.matchesJson,
      entityType: index.entityType,
    }),
    confidence: summary.confidence,
    entityId: summary.entityId,
    entityName: summary.entityName,
    matchedSources: summary.matchedSources,
    matchCount: summary.matchCount,
    matchesJson: summary.matchesJson,
    suppressedCount: summary.matchCount - index.countedMatchCount,
    countedEntityIds: index.countedEntityIds,
    profileId: profile.id,
    profileVersion: profile.version,
  };
}

/** The index of a matches JSON read from the JSON itself. */
function indexFromJson(matchesJson: string): MatchIndex {
  const matches = JSON.parse(matchesJson) as {
    suppressed?: boolean;
    entity: { id: string; entityType?: string };
    listings?: { entityId: string }[];
  }[];
  const counted = matches.filter((match) => !match.suppressed);
  const ids = counted.flatMap((match) => [
    match.entity.id,
    ...(match.listings ?? []).map((listing) => listing.entityId),
  ]);
  return {
    entityType: counted[0]?.entity.entityType ?? null,
    countedMatchCount: counted.length,
    countedEntityIds: [...new Set(ids)],
  };
}
