import type { Derivation, EntityType, NameKind, NameQuality, SourceId } from '../lists/model.js';

export type RiskLevel = 'low' | 'medium' | 'high';

export interface MatchQuery {
  name: string;
  entityType?: EntityType;
  /** ISO 3166-1 alpha-2 (a country name is resolved too). */
  country?: string;
  /** YYYY-MM-DD, YYYY-MM or YYYY. */
  birthDate?: string;
}

export interface MatchOptions {
  /**
   * Reporting floor: matches below it are not reported. Default 50, the medium boundary of
   * DECISIONS.md, so that every reported match is at least medium and "no match" means low.
   */
  floor?: number;
  /** Default 10. */
  maxMatches?: number;
  /** One match per cluster (same party on several lists) carrying `listings`. */
  groupByCluster?: boolean;
  /**
   * Entity ids (`<source>:<record id>`) whose rows are suppressed: they are still reported, after
   * the others and marked `suppressed`, but count toward neither the risk, the confidence nor the
   * top match, as if they were not listed (an analyst's false-positive decision, issue 13).
   */
  suppressed?: readonly string[];
}

export interface AlignedPart {
  /** Query part (normalized Latin). */
  query: string;
  /** Listed name part (normalized Latin). */
  listed: string;
  /** 0..1 */
  similarity: number;
  how: 'exact' | 'phonetic' | 'fuzzy' | 'initial' | 'joined' | 'nickname';
}

export interface CorroborationEffect {
  /** Points added to (positive) or taken from (negative) the match score. */
  effect: number;
  detail: string;
}

export interface Explanation {
  /** The listed name (as published) that matched best. */
  matchedName: string;
  nameKind: NameKind;
  nameQuality: NameQuality;
  /** Similarity of the names alone, 0..100, before rarity and corroboration. */
  nameScore: number;
  /** Factor (0..1) applied because the matched parts are common on the lists. 1 = distinctive. */
  distinctiveness: number;
  alignment: AlignedPart[];
  unmatchedQueryParts: string[];
  unmatchedListedParts: string[];
  corroboration: {
    birthDate?: CorroborationEffect;
    country?: CorroborationEffect;
    entityType?: CorroborationEffect;
    numbers?: CorroborationEffect;
  };
  /** One sentence a compliance analyst can read. */
  summary: string;
}

/** One row of a party's cluster (with groupByCluster). */
export interface Listing {
  dataset: SourceId;
  entityId: string;
  name: string;
  programs: string[];
  listingDate?: string;
}

export interface MatchedEntity {
  id: string;
  name: string;
  entityType: EntityType;
  country?: string;
  programs?: string[];
  listingDate?: string;
  reason?: string;
  derivation?: Derivation;
}

/**
 * One reported match. The engine names lists by source id only; display labels (`datasetLabel` of the
 * API) are the caller's to add (see summarizeOutcome).
 */
export interface Match {
  dataset: SourceId;
  matchScore: number;
  entity: MatchedEntity;
  explanation: Explanation;
  listings?: Listing[];
  clusterId?: string;
  /** Present (true) on a suppressed row's match (MatchOptions.suppressed). */
  suppressed?: true;
}

export interface ScreenOutcome {
  riskScore: number;
  riskLevel: RiskLevel;
  confidence: number;
  matches: Match[];
}
