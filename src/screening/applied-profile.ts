import type { Db } from '../infra/database.js';
import type { MatchOptions, RiskLevel } from '../matching/index.js';

/**
 * The screening profile a screening runs under (docs/profiles.md), as screening needs it: the
 * profiles domain (src/profiles/) resolves it, start/services.ts hands the resolver in.
 */
export interface AppliedProfile {
  /** `prf_<id>`; null for the built-in default profile. */
  id: string | null;
  /** 0 for the built-in default. */
  version: number;
  /** Given to the engine over the screening's own options. Empty for the default profile. */
  options: Pick<MatchOptions, 'floor' | 'sources' | 'rowFloors' | 'knobs'>;
  /** groupByCluster when the request leaves it out. */
  groupByCluster: boolean;
  /**
   * The level of a risk score, given the top match's source and entity type; left out, the
   * engine's level (the contract's boundaries) stands.
   */
  level?: (riskScore: number, top: { source: string; entityType: string | undefined } | undefined) => RiskLevel;
}

/** The built-in default: the engine exactly as without profiles. */
export const BUILT_IN_PROFILE: AppliedProfile = Object.freeze({
  id: null,
  version: 0,
  options: {},
  groupByCluster: false,
});

/** The profile in force for a key of an organization: the key's own, else the organization's, else the built-in. */
export type ProfileResolver = (db: Db, orgId: string, keyId: string) => Promise<AppliedProfile>;

/**
 * The level of a summarized outcome under a profile: the top match's entity type from the matching
 * step's index (`entityType`), or read from the matches when the caller has no index.
 */
export function profileLevel(
  profile: AppliedProfile,
  outcome: {
    riskScore: number;
    riskLevel: RiskLevel;
    entityId: string | null;
    matchesJson: string;
    entityType?: string | null;
  },
): RiskLevel {
  if (!profile.level) return outcome.riskLevel;
  if (outcome.entityId === null) return profile.level(outcome.riskScore, undefined);
  const source = outcome.entityId.slice(0, outcome.entityId.indexOf(':'));
  if (outcome.entityType !== undefined)
    return profile.level(outcome.riskScore, { source, entityType: outcome.entityType ?? undefined });
  const matches = JSON.parse(outcome.matchesJson) as { entity: { id: string; entityType?: string } }[];
  const top = matches.find((match) => match.entity.id === outcome.entityId);
  return profile.level(outcome.riskScore, { source, entityType: top?.entity.entityType });
}
