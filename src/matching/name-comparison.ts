/**
 * What a comparison of two names gives (see compareParts in name-compare.ts): the pairs of parts
 * taken, the score and what was left over. Types only, shared by the comparison, its score and its
 * explanation, so that none of them imports another for a type.
 */
import type { ScoredPart } from './part-similarity.js';
import type { AlignedPart } from './types.js';

export interface NameComparison {
  /** 0..1 similarity of the names. */
  score: number;
  /** Sum of IDF of the query parts that found a partner, scaled by similarity. */
  information: number;
  /** The aligned pairs, in the order they were taken (see alignmentOf). */
  aligned: Pair[];
  query: ScoredPart[];
  listed: ScoredPart[];
  unmatchedQuery: string[];
  unmatchedListed: string[];
  /** Numbers on one side missing on the other. */
  numberConflict: boolean;
  /** Query parts that were content parts (words, patronymics, initials, particles). */
  contentParts: number;
}

export interface Pair {
  qi: number;
  qj: number; // qj > qi when two query parts joined
  ci: number;
  cj: number;
  s: number;
  how: AlignedPart['how'];
}
