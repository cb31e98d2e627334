import type { SourceId } from '../lists/index.js';
import type { Listing, Match, RiskLevel, ScreenOutcome } from './types.js';

/** The display label of a source: the caller's to give (the engine knows source ids only). */
export type SourceLabel = (source: SourceId) => string;

/** A listing as the API sends it: its source's label after its source id. */
export type LabelledListing = Listing & { datasetLabel: string };

/** A match as the API sends it: its source's label after its source id, and its listings labelled too. */
export type LabelledMatch = Omit<Match, 'listings'> & { datasetLabel: string; listings?: LabelledListing[] };

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
  /** Sources with at least one reported match that is not suppressed (with groupByCluster, every listing's source). */
  matchedSources: string[];
  matchCount: number;
  /** `matches` of the outcome, labelled, as JSON. */
  matchesJson: string;
}

/**
 * The outcome as the API sends it, with each match's and listing's source labelled by `label` (the
 * label follows the source id, as the API has always written it).
 */
export function summarizeOutcome(outcome: ScreenOutcome, label: SourceLabel): ScreenSummary {
  // Suppressed matches come last and count for nothing: not the top match, not a matched source.
  const counted = outcome.matches.filter((m) => !m.suppressed);
  const top = counted[0];
  return {
    riskScore: outcome.riskScore,
    riskLevel: outcome.riskLevel,
    confidence: outcome.confidence,
    entityId: top?.entity.id ?? null,
    entityName: top?.entity.name ?? null,
    matchedSources: [...new Set(counted.flatMap((m) => (m.listings ? m.listings.map((l) => l.dataset) : [m.dataset])))],
    matchCount: outcome.matches.length,
    matchesJson: JSON.stringify(outcome.matches.map((m) => labelMatch(m, label))),
  };
}

export function labelMatch(m: Match, label: SourceLabel): LabelledMatch {
  // Assigned after the label, the match's keys keep their order (dataset first, the listings before
  // clusterId): the JSON reads as it always has.
  const out = Object.assign({ dataset: m.dataset, datasetLabel: label(m.dataset) }, m) as LabelledMatch;
  if (m.listings) out.listings = m.listings.map((l) => labelListing(l, label));
  return out;
}

function labelListing(l: Listing, label: SourceLabel): LabelledListing {
  return Object.assign({ dataset: l.dataset, datasetLabel: label(l.dataset) }, l);
}
