import type { RiskLevel, ScreenOutcome } from './types.js';

/**
 * A screening outcome as the service stores and sends it: the figures, the top match, the sources
 * that matched, and the matches as JSON text. Serialized where the matching ran (a matching thread),
 * so that the thread answering HTTP neither copies nor re-serializes the explanations.
 */
export interface ScreenSummary {
  riskScore: number;
  riskLevel: RiskLevel;
  confidence: number;
  entityId: string | null;
  entityName: string | null;
  /** Sources with at least one reported match (with groupByCluster, every listing's source). */
  matchedSources: string[];
  matchCount: number;
  /** `matches` of the outcome, as JSON. */
  matchesJson: string;
}

export function summarizeOutcome(outcome: ScreenOutcome): ScreenSummary {
  const top = outcome.matches[0];
  return {
    riskScore: outcome.riskScore,
    riskLevel: outcome.riskLevel,
    confidence: outcome.confidence,
    entityId: top?.entity.id ?? null,
    entityName: top?.entity.name ?? null,
    matchedSources: [
      ...new Set(outcome.matches.flatMap((m) => (m.listings ? m.listings.map((l) => l.dataset) : [m.dataset]))),
    ],
    matchCount: outcome.matches.length,
    matchesJson: JSON.stringify(outcome.matches),
  };
}
