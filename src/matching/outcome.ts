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

/** One match as a validation run reads it (briefOutcome). */
export interface MatchBrief {
  /** `<source>:<record id>` */
  id: string;
  score: number;
  /** The party: listings of the same party on several lists share it (`<source>:<record id>` of one of them). */
  cluster: string;
  /** The listed name the query matched (the primary name or an alias). */
  matchedName: string;
  /** Found by an identifier of the query. */
  byIdentifier: boolean;
}

/** The risk score and the matches that count, without the listings or the explanations. */
export interface ScreenBrief {
  riskScore: number;
  matches: MatchBrief[];
}

/**
 * The outcome reduced to what a validation run folds: made where the matching ran, so that the
 * thread that folds thousands of answers a second neither receives nor parses the explanations
 * (parsing them kept the HTTP thread's young generation full during runs).
 */
export function briefOutcome(outcome: ScreenOutcome): ScreenBrief {
  const matches: MatchBrief[] = [];
  for (const match of outcome.matches) {
    if (match.suppressed) continue;
    matches.push({
      id: match.entity.id,
      score: match.matchScore,
      cluster: match.clusterId ?? match.entity.id,
      matchedName: match.explanation.matchedName,
      byIdentifier: match.explanation.corroboration.identifier?.outcome === 'match',
    });
  }
  return { riskScore: outcome.riskScore, matches };
}
