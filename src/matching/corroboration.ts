/**
 * What the fields beside the name do to a match: birth date, country, entity type, identifiers. Effects are
 * points added to or taken from the 0..100 match score (scoring.ts corroborate), each with the
 * sentence an explanation gives for it. A new field (an identifier, say) gets its effect here.
 */
import { type ScreeningIdentifierType, toCountryCode } from '../identifiers/index.js';
import type { EntityType, ListRecord } from '../lists/index.js';
import { decisiveReason, type MatchedIdentifier } from './decisive-identifiers.js';
import type { IdentifierEvidence } from './identifier-index.js';
import { round1 } from './levels.js';
import type { CorroborationEffect, IdentifierEffect } from './types.js';
import { withArticle } from './wording.js';
import { SCORING } from './scoring-table.js';

/**
 * A birth date that agrees is the strongest evidence beside the name (DECISIONS.md: high when birth
 * date or country corroborate): the same day lifts a medium name match (70) to high; the same month
 * or only the year (which many listings give alone) a little.
 */
export const BIRTH_EXACT = SCORING.BIRTH_EXACT.value;
export const BIRTH_MONTH = SCORING.BIRTH_MONTH.value;
export const BIRTH_YEAR = SCORING.BIRTH_YEAR.value;
/**
 * A listed birth date that contradicts the query's is evidence of another person: it takes even an
 * exact name (100) below high. Less when the listing marks a date approximate or a listed year is
 * within one of the query's (listings of one person disagree by a year often enough).
 */
export const BIRTH_CONTRADICTS = SCORING.BIRTH_CONTRADICTS.value;
export const BIRTH_CONTRADICTS_APPROX = SCORING.BIRTH_CONTRADICTS_APPROX.value;
/**
 * Country (nationality, citizenship, address) agrees: weak evidence, shared by millions; a country
 * that is not among the listed ones says more (a listing gives every country it knows).
 */
export const COUNTRY_AGREES = SCORING.COUNTRY_AGREES.value;
export const COUNTRY_CONTRADICTS = SCORING.COUNTRY_CONTRADICTS.value;
/**
 * The query's entity type is not the listed one: a person is never an organization or a vessel, so
 * that conflict costs most; the other types against one another less (a shipping company and its
 * vessels often share a name, and lists do not always type them alike). A type that agrees adds
 * nothing: it says little the name did not.
 */
export const TYPE_CONTRADICTS_PERSON = SCORING.TYPE_CONTRADICTS_PERSON.value;
export const TYPE_CONTRADICTS = SCORING.TYPE_CONTRADICTS.value;

/**
 * Years within which a listed birth year that differs from the query's only differs
 * (BIRTH_CONTRADICTS_APPROX) instead of contradicting: a screening profile may set it
 * (engine-knobs.ts, birthDateToleranceYears).
 */
export const BIRTH_YEAR_TOLERANCE = SCORING.BIRTH_YEAR_TOLERANCE.value;

/**
 * The birth date's effect. `tolerance` (years) and `missing` (the points when the query gives a
 * date and the listing none; 0 leaves the field out, as by default) are the profile's knobs
 * (engine-knobs.ts); the defaults are the engine's.
 */
export function birthDateEffect(
  query: string | undefined,
  record: ListRecord,
  tolerance: number = BIRTH_YEAR_TOLERANCE,
  missing = 0,
): CorroborationEffect | undefined {
  if (!query) return undefined;
  if (record.birthDates.length === 0)
    return missing !== 0 && Number.isFinite(Number(query.trim().slice(0, 4)))
      ? { effect: missing, detail: `birth date ${query.trim()} given, none listed` }
      : undefined;
  const given = query.trim();
  const qYear = Number(given.slice(0, 4));
  if (!Number.isFinite(qYear)) return undefined;
  const qFull = given.length >= 10;
  const qMonth = given.length >= 7 ? given.slice(0, 7) : undefined;
  let best: CorroborationEffect | undefined;
  let anyApprox = false;
  let near = false;
  for (const birth of record.birthDates) {
    const date = birth.date;
    const year = Number(date.slice(0, 4));
    if (birth.approximate) anyApprox = true;
    let effect: CorroborationEffect | undefined;
    if (qFull && date.length >= 10 && date.slice(0, 10) === given.slice(0, 10))
      effect = { effect: BIRTH_EXACT, detail: `birth date ${date} is the same` };
    else if (qMonth && date.length >= 7 && date.slice(0, 7) === qMonth)
      effect = { effect: BIRTH_MONTH, detail: `birth month ${date.slice(0, 7)} is the same` };
    else if (year === qYear && (date.length === 4 || !qFull || birth.approximate))
      effect = { effect: BIRTH_YEAR, detail: `birth year ${year} is the same` };
    else if (year === qYear) effect = { effect: 0, detail: `same birth year ${year}, different day (${date})` };
    if (Math.abs(year - qYear) <= tolerance) near = true;
    if (effect && (!best || effect.effect > best.effect)) best = effect;
  }
  if (best) return best;
  const listed = record.birthDates
    .slice(0, 3)
    .map((b) => b.date)
    .join(', ');
  if (near && anyApprox) return { effect: 0, detail: `birth date ${given} is near the listed approximate ${listed}` };
  return anyApprox || near
    ? { effect: BIRTH_CONTRADICTS_APPROX, detail: `birth date ${given} differs from the listed ${listed}` }
    : { effect: BIRTH_CONTRADICTS, detail: `birth date ${given} contradicts the listed ${listed}` };
}

/** Countries of a record (nationality, citizenship, address), ISO alpha-2 where resolvable. */
export function recordCountries(record: ListRecord): string[] {
  const out = new Set<string>();
  const add = (v: string | undefined): void => {
    if (!v) return;
    const code = toCountryCode(v);
    if (code) out.add(code);
  };
  for (const country of record.nationalities) add(country);
  for (const country of record.citizenships) add(country);
  for (const address of record.addresses) add(address.country ?? address.countryName);
  return [...out];
}

/** The country's effect; `missing` is the points when the listing gives no country (a profile's knob; 0 leaves the field out). */
export function countryEffect(
  query: string | undefined,
  countries: string[],
  missing = 0,
): CorroborationEffect | undefined {
  if (!query || (countries.length === 0 && missing === 0)) return undefined;
  const code = toCountryCode(query);
  if (!code) return undefined;
  if (countries.length === 0) return { effect: missing, detail: `country ${code} given, none listed` };
  if (countries.includes(code)) return { effect: COUNTRY_AGREES, detail: `country ${code} is listed` };
  return {
    effect: COUNTRY_CONTRADICTS,
    detail: `country ${code} is not among the listed ${countries.slice(0, 4).join(', ')}`,
  };
}

export function entityTypeEffect(query: EntityType | undefined, listed: EntityType): CorroborationEffect | undefined {
  if (!query) return undefined;
  if (query === listed)
    return { effect: 0, detail: `both are ${listed === 'organization' ? 'organizations' : listed + 's'}` };
  const personConflict = query === 'person' || listed === 'person';
  return {
    effect: personConflict ? TYPE_CONTRADICTS_PERSON : TYPE_CONTRADICTS,
    detail: `query is ${withArticle(query)}, listed entry is ${withArticle(listed)}`,
  };
}

/**
 * An identifier the listing carries (the same type and normalized number) is the strongest evidence
 * there is: with a name that is compatible (IDENTIFIER_COMPATIBLE_NAME), or on a vessel's or
 * aircraft's listing whatever its name (a renamed tanker keeps its IMO number), the row is raised to
 * at least IDENTIFIER_MATCH_SCORE, high, and by IDENTIFIER_MATCH_MIN at the least. A person's or
 * organization's number under a name that has nothing to do with the listed one is a lead for
 * review, not a hit: IDENTIFIER_UNRELATED_NAME_SCORE, medium (a document number typed into the
 * wrong form, or a stolen identity).
 */
export const IDENTIFIER_MATCH_SCORE = SCORING.IDENTIFIER_MATCH_SCORE.value;
export const IDENTIFIER_MATCH_MIN = SCORING.IDENTIFIER_MATCH_MIN.value;
export const IDENTIFIER_COMPATIBLE_NAME = SCORING.IDENTIFIER_COMPATIBLE_NAME.value;
export const IDENTIFIER_UNRELATED_NAME_SCORE = SCORING.IDENTIFIER_UNRELATED_NAME_SCORE.value;
/**
 * The listing carries numbers of the query's type, none of them the query's. A ship keeps its IMO
 * number for life, a company its LEI, an airframe its serial: another one is another party, which
 * takes an exact name (100) below high. MMSI, call signs and aircraft registrations change with the
 * flag or the register, passports expire, people hold several documents and companies several
 * registrations: another one says less.
 */
export const IDENTIFIER_CONTRADICTS_LIFELONG = SCORING.IDENTIFIER_CONTRADICTS_LIFELONG.value;
export const IDENTIFIER_CONTRADICTS = SCORING.IDENTIFIER_CONTRADICTS.value;
const LIFELONG: ReadonlySet<ScreeningIdentifierType> = new Set(['imo', 'lei', 'aircraft_serial']);
/** Numbers that name a ship or an aircraft, not its owner. */
const CRAFT_NUMBERS: ReadonlySet<ScreeningIdentifierType> = new Set([
  'imo',
  'mmsi',
  'call_sign',
  'aircraft_serial',
  'aircraft_registration',
]);

const IDENTIFIER_LABELS: Record<ScreeningIdentifierType, string> = {
  imo: 'IMO number',
  mmsi: 'MMSI',
  lei: 'LEI',
  bic: 'BIC',
  passport: 'passport',
  national_id: 'national identity number',
  registration: 'registration number',
  tax_id: 'tax number',
  crypto_wallet: 'wallet address',
  call_sign: 'call sign',
  aircraft_serial: 'aircraft serial number',
  aircraft_registration: 'aircraft registration',
};

export function identifierLabel(type: ScreeningIdentifierType): string {
  return IDENTIFIER_LABELS[type];
}

/**
 * An identifier match is `strong` (high) with a compatible name, on a vessel's or aircraft's
 * listing, or when the number is decisive (decisive-identifiers.ts), else `weak` (review).
 */
export function identifierStrength(
  nameScore: number,
  listed: EntityType,
  matched?: MatchedIdentifier,
): 'strong' | 'weak' {
  return nameScore >= IDENTIFIER_COMPATIBLE_NAME ||
    listed === 'vessel' ||
    listed === 'aircraft' ||
    (matched !== undefined && decisiveReason(matched, listed) !== undefined)
    ? 'strong'
    : 'weak';
}

/** The names beside a decisive identifier: what was screened and what the listing calls itself. */
export interface ComparedNames {
  query: string;
  listed: string;
}

/** "LEI 2534... is the listed entity's LEI; the name differs: screened as "...", listed as "..."". */
function decisiveDetail(
  matched: MatchedIdentifier,
  listed: EntityType,
  reason: string,
  name: number,
  names: ComparedNames | undefined,
): string {
  const label = identifierLabel(matched.query.type);
  const party = listed === 'organization' ? 'entity' : listed;
  const differs = names ? `screened as "${names.query}", listed as "${names.listed}"` : 'review the name';
  return `${label} ${matched.query.value} is the listed ${party}'s ${label} (printed "${matched.listed.value}"); the name differs: ${differs} (the name alone scores ${name}; ${reason})`;
}

/** The effect of what a listing's identifiers say (identifier-index.ts) on a row whose name scores `nameScore`. */
export function identifierEffect(
  evidence: IdentifierEvidence | undefined,
  nameScore: number,
  listed: EntityType,
  names?: ComparedNames,
): IdentifierEffect | undefined {
  if (!evidence) return undefined;
  const name = round1(nameScore);
  if (evidence.matched) {
    const { query, listed: id } = evidence.matched;
    const strong = identifierStrength(nameScore, listed, evidence.matched) === 'strong';
    const target = strong ? IDENTIFIER_MATCH_SCORE : IDENTIFIER_UNRELATED_NAME_SCORE;
    const effect = round1(Math.max(strong ? IDENTIFIER_MATCH_MIN : 0, target - nameScore));
    const reason = decisiveReason(evidence.matched, listed);
    const why =
      nameScore >= IDENTIFIER_COMPATIBLE_NAME
        ? 'the name is compatible'
        : strong
          ? `${withArticle(listed)} keeps its numbers when renamed`
          : 'the name differs: review';
    return {
      effect,
      detail:
        reason !== undefined && nameScore < IDENTIFIER_COMPATIBLE_NAME
          ? decisiveDetail(evidence.matched, listed, reason, name, names)
          : `${identifierLabel(query.type)} ${query.value} is listed as "${id.value}" (the name alone scores ${name}; ${why})`,
      outcome: 'match',
      type: query.type,
      value: query.value,
      listed: [id.value],
      nameScore: name,
      ...(reason !== undefined ? { decisive: true } : {}),
    };
  }
  // The strongest contradiction among the query's types.
  let worst: IdentifierEffect | undefined;
  for (const { query, listed: ids } of evidence.contradicted) {
    const effect = LIFELONG.has(query.type) ? IDENTIFIER_CONTRADICTS_LIFELONG : IDENTIFIER_CONTRADICTS;
    if (worst && worst.effect <= effect) continue;
    const values = ids.map((i) => i.value);
    worst = {
      effect,
      detail: `${identifierLabel(query.type)} ${query.value} is not the listed ${values.slice(0, 3).join(', ')} (the name alone scores ${name})`,
      outcome: 'contradiction',
      type: query.type,
      value: query.value,
      listed: values,
      nameScore: name,
    };
  }
  return worst;
}

/**
 * The entity type's effect once an identifier matched: a vessel's or aircraft's own number on a
 * listing typed as an organization (the EU and UK file ships as entities) is that craft, so the two
 * types do not contradict each other. Not when the listing holds several such numbers: that is a
 * company listing its fleet (OFSI's Ocean Maritime Management and its 23 IMO numbers), another
 * party than the ship. Every other conflict stands.
 */
export function typeEffectWithIdentifier(
  type: CorroborationEffect | undefined,
  evidence: IdentifierEvidence | undefined,
  query: EntityType | undefined,
  listed: EntityType,
): CorroborationEffect | undefined {
  const matched = evidence?.matched;
  if (!type || type.effect >= 0 || !matched || matched.ofType > 1 || !CRAFT_NUMBERS.has(matched.query.type))
    return type;
  if (query === 'person' || listed === 'person') return type;
  return { effect: 0, detail: `${type.detail}, and its ${identifierLabel(matched.query.type)} is the same` };
}
