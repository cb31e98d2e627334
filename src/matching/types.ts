import type { ScreeningIdentifierType } from '../identifiers/index.js';
import type { Derivation, EntityType, NameKind, NameQuality, SourceId } from '../lists/index.js';
import type { EngineKnobs } from './engine-knobs.js';

export type RiskLevel = 'low' | 'medium' | 'high';

export interface MatchQuery {
  name: string;
  entityType?: EntityType;
  /** ISO 3166-1 alpha-2 (a country name is resolved too). */
  country?: string;
  /** YYYY-MM-DD, YYYY-MM or YYYY. */
  birthDate?: string;
  /**
   * Numbers of the party (IMO, LEI, passport...): listings carrying one are found whatever their
   * names, and a listing's other numbers of the same type contradict it (identifier-index.ts).
   * Values are normalized here by the lists' own rules; the API checks them before (400 on a bad one).
   */
  identifiers?: QueryIdentifier[];
}

/** An identifier of the query: its screening type and value, for documents the issuing country. */
export interface QueryIdentifier {
  type: ScreeningIdentifierType;
  value: string;
  /** ISO 3166-1 alpha-2 of the issuing country (passports, national ids, registrations, tax ids). */
  country?: string;
  /** The currency of a crypto wallet (BTC, ETH...). */
  currency?: string;
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
  /**
   * A screening profile's knobs (engine-knobs.ts: birth-date tolerance, what a missing birth date or
   * country counts, weak aliases on or off); absent ones keep the engine's defaults. Check them with
   * knobErrors() first: the engine trusts them.
   */
  knobs?: EngineKnobs;
  /**
   * A screening profile's list and cut-off settings (src/profiles/). Left out, the engine behaves as it always has.
   * `sources`: only rows of these sources are scored (the others are as if not listed).
   */
  sources?: readonly SourceId[];
  /**
   * A floor per row, by the row's source (first), else its entity type, else `otherwise`: a row
   * under its own floor is not reported. `floor` must be at most the lowest of them.
   */
  rowFloors?: {
    bySource?: Partial<Record<SourceId, number>>;
    byEntityType?: Partial<Record<EntityType, number>>;
    otherwise?: number;
  };
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

/** What an identifier did: the listing carries the query's number, or only other numbers of its type. */
export interface IdentifierEffect extends CorroborationEffect {
  outcome: 'match' | 'contradiction';
  type: ScreeningIdentifierType;
  /** The query's number, normalized. */
  value: string;
  /** The listing's number(s) of that type, as printed. */
  listed: string[];
  /**
   * The score of the name alone beside it, 0..100: the name similarity (`nameScore` of the
   * explanation) scaled by its distinctiveness, the score the identifier's effect is added to.
   */
  nameScore: number;
  /**
   * Set on a match of a decisive identifier (decisive-identifiers.ts: LEI, BIC, IMO, MMSI, a wallet,
   * a listed aircraft's serial, a document of the same issuing country): high whatever the name.
   */
  decisive?: true;
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
    identifier?: IdentifierEffect;
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
