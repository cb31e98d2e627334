/**
 * The engine's knobs a compliance officer owns: what a screening profile may set per run
 * (MatchOptions.knobs). Everything else in scoring-table.ts stays the engine's. Each knob has its
 * default (the engine's behaviour without a profile), its range and a line on what it does; the
 * caller checks a profile's values with knobErrors() before storing them. Medium and high cut-offs
 * and source filtering are not knobs here: they apply to the engine's scores and matches afterwards.
 */
import { SCORING } from './scoring-table.js';

export interface EngineKnobs {
  /**
   * Years within which a listed birth year that differs from the query's only lowers the score
   * (-15) instead of contradicting it (-25). Default 1.
   */
  birthDateToleranceYears?: number;
  /** Points when the query gives a birth date and the listing none. Default 0 (no effect). */
  missingBirthDatePoints?: number;
  /** Points when the query gives a country and the listing none. Default 0 (no effect). */
  missingCountryPoints?: number;
  /** Screen against the lists' weak aliases (OFAC "weak AKA", EU/UK "low quality"). Default true. */
  weakAliases?: boolean;
}

export interface KnobSpec {
  readonly type: 'integer' | 'number' | 'boolean';
  readonly default: number | boolean;
  readonly min?: number;
  readonly max?: number;
  readonly what: string;
}

/** The knobs, their defaults and ranges (rendered in docs/scoring.md). */
export const KNOBS: Readonly<Record<keyof EngineKnobs, KnobSpec>> = {
  birthDateToleranceYears: {
    type: 'integer',
    default: SCORING.BIRTH_YEAR_TOLERANCE.value,
    min: 0,
    max: 10,
    what: "Years within which a listed birth year that differs from the query's only lowers the score (BIRTH_CONTRADICTS_APPROX) instead of contradicting it (BIRTH_CONTRADICTS).",
  },
  missingBirthDatePoints: {
    type: 'number',
    default: 0,
    min: -20,
    max: 0,
    what: 'Points added (a negative number takes them away) when the query gives a birth date and the listing none; 0 leaves the field out of the explanation.',
  },
  missingCountryPoints: {
    type: 'number',
    default: 0,
    min: -20,
    max: 0,
    what: 'Points added (a negative number takes them away) when the query gives a country and the listing none; 0 leaves the field out of the explanation.',
  },
  weakAliases: {
    type: 'boolean',
    default: true,
    what: 'Whether the lists\' weak aliases (OFAC "weak AKA", EU/UK "low quality") are screened at all; when they are, they count WEAK_ALIAS_FACTOR of a strong name.',
  },
};

/** One knob that is not valid: `field` names it as the caller passed it. */
export interface KnobError {
  field: keyof EngineKnobs | string;
  message: string;
}

/** What is wrong with a set of knobs (unknown names, wrong types, out of range); empty when they are valid. */
export function knobErrors(knobs: Readonly<Record<string, unknown>>): KnobError[] {
  const errors: KnobError[] = [];
  for (const [field, value] of Object.entries(knobs)) {
    const spec = (KNOBS as Readonly<Record<string, KnobSpec>>)[field];
    if (spec === undefined) {
      errors.push({ field, message: `${field} is not a knob (${Object.keys(KNOBS).join(', ')})` });
      continue;
    }
    if (value === undefined) continue;
    if (spec.type === 'boolean') {
      if (typeof value !== 'boolean') errors.push({ field, message: `${field} must be true or false` });
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || (spec.type === 'integer' && !Number.isInteger(value))) {
      errors.push({ field, message: `${field} must be ${spec.type === 'integer' ? 'an integer' : 'a number'}` });
      continue;
    }
    if (value < spec.min! || value > spec.max!)
      errors.push({ field, message: `${field} must be between ${spec.min} and ${spec.max}` });
  }
  return errors;
}
