/**
 * The score of one candidate row, from its evidence: how the query compared with the row's listed
 * name (name-compare.ts), and what the fields beside the name did (corroboration.ts). Pure functions:
 * the evidence in, the score and the parts an explanation reports out. A new kind of evidence (an
 * identifier that agrees, say) is one more field effect: corroboration.ts works it out, FieldEffects
 * carries it, corroborate() adds it, explanation.ts says it.
 */
import type { NameQuality } from '../lists/index.js';
import { HIGH_BOUNDARY, clamp, round1 } from './levels.js';
import type { CorroborationEffect, IdentifierEffect } from './types.js';
import { SCORING } from './scoring-table.js';

/**
 * Information (sum of IDF, nats) of the matched query parts at which a name counts as distinctive:
 * two rare parts (on all lists, 46,000 records, a part of one record weighs about 10 nats, of a
 * hundred about 6) or four common ones (capped at 3.5, candidate-index.ts). Below it the name score
 * is scaled down (see distinctiveness).
 */
export const DISTINCTIVE_INFORMATION = SCORING.DISTINCTIVE_INFORMATION.value;
/**
 * How steeply the scale falls below DISTINCTIVE_INFORMATION: under 1, so that half the information
 * keeps two thirds of the score (0.5^0.6 = 0.66) and a bare common name lands in review, not nowhere.
 */
export const DISTINCTIVENESS_EXPONENT = SCORING.DISTINCTIVENESS_EXPONENT.value;
/** Weak aliases (OFAC "weak AKA", EU/UK "low quality") count less: the publishers say they are poor identifiers. */
export const WEAK_ALIAS_FACTOR = SCORING.WEAK_ALIAS_FACTOR.value;
/**
 * Numbers that do not agree beside names that do ("Fund VII" / "Fund VIII", "Victory" / "Victory 3"):
 * another member of a numbered series, worth a review but never high on the name alone. (A name
 * whose only distinctive part is its number, "11420 Corp", matches on the number itself.)
 */
export const NUMBER_CONFLICT_FACTOR = SCORING.NUMBER_CONFLICT_FACTOR.value;
export const NUMBER_CONFLICT_CAP = HIGH_BOUNDARY - SCORING.NUMBER_CONFLICT_BELOW_HIGH.value;
/**
 * Points under the reporting floor within which a name is still worth corroborating: at least what
 * the fields can add (birth date +10 and country +4, corroboration.ts). A name further below cannot
 * reach the floor, so it is neither aligned in full (see nameFloor) nor corroborated.
 */
export const CORROBORATION_REACH = SCORING.CORROBORATION_REACH.value;

/** What the fields beside the name did to one row; each is absent when the query or the row lacks it. */
export interface FieldEffects {
  birthDate?: CorroborationEffect;
  country?: CorroborationEffect;
  entityType?: CorroborationEffect;
  /** An identifier of the query the row carries, or contradicts (identifier-index.ts, corroboration.ts). */
  identifier?: IdentifierEffect;
}

/** What the name comparison tells the score (NameComparison carries these). */
export interface NameEvidence {
  /** Similarity of the names, 0..1. */
  score: number;
  /** Information (nats) of the query parts that found a partner. */
  information: number;
  /** Numbers on one side missing on the other. */
  numberConflict: boolean;
}

export interface NameScore {
  /** 0..100, before corroboration. */
  score: number;
  /** The factor (0..1) that scaled the name similarity for common or few matched parts; 1 = distinctive. */
  distinctiveness: number;
}

export interface CandidateScore {
  /** The match score, 0..100, one decimal. */
  score: number;
  /** Points the fields added, and took away (as a positive number). */
  corroborated: number;
  contradicted: number;
}

/** Scale for names whose matched parts carry little information (common on the lists or in the population, or few). */
export function distinctiveness(information: number): number {
  return Math.pow(Math.min(1, information / DISTINCTIVE_INFORMATION), DISTINCTIVENESS_EXPONENT);
}

/** The name score of one listed name: similarity x distinctiveness, less for weak aliases and numbers that differ. */
export function scoreName(name: NameEvidence, quality: NameQuality): NameScore {
  const dist = distinctiveness(name.information);
  let score = name.score * dist * 100;
  if (quality === 'weak') score *= WEAK_ALIAS_FACTOR;
  if (name.numberConflict) score = Math.min(score * NUMBER_CONFLICT_FACTOR, NUMBER_CONFLICT_CAP);
  return { score, distinctiveness: dist };
}

/** The lowest name score (and comparison bound) worth working out for a reporting floor. */
export function nameFloor(floor: number): number {
  return floor - CORROBORATION_REACH;
}

/** The match score: the name score plus what each field added or took away, within 0..100. */
export function corroborate(nameScore: number, fields: FieldEffects): CandidateScore {
  let score = nameScore;
  let corroborated = 0;
  let contradicted = 0;
  for (const field of [fields.birthDate, fields.country, fields.entityType, fields.identifier]) {
    if (!field) continue;
    score += field.effect;
    if (field.effect > 0) corroborated += field.effect;
    if (field.effect < 0) contradicted -= field.effect;
  }
  return { score: round1(clamp(score, 0, 100)), corroborated, contradicted };
}
