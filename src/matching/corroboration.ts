/**
 * What the fields beside the name do to a match: birth date, country, entity type. Effects are
 * points added to or taken from the 0..100 match score (scoring.ts corroborate), each with the
 * sentence an explanation gives for it. A new field (an identifier, say) gets its effect here.
 */
import { toCountryCode } from '../lists/countries.js';
import type { EntityType, ListRecord } from '../lists/model.js';
import type { CorroborationEffect } from './types.js';
import { withArticle } from './wording.js';

/**
 * A birth date that agrees is the strongest evidence beside the name (DECISIONS.md: high when birth
 * date or country corroborate): the same day lifts a medium name match (70) to high; the same month
 * or only the year (which many listings give alone) a little.
 */
export const BIRTH_EXACT = 10;
export const BIRTH_MONTH = 5;
export const BIRTH_YEAR = 3;
/**
 * A listed birth date that contradicts the query's is evidence of another person: it takes even an
 * exact name (100) below high. Less when the listing marks a date approximate or a listed year is
 * within one of the query's (listings of one person disagree by a year often enough).
 */
export const BIRTH_CONTRADICTS = -25;
export const BIRTH_CONTRADICTS_APPROX = -15;
/**
 * Country (nationality, citizenship, address) agrees: weak evidence, shared by millions; a country
 * that is not among the listed ones says more (a listing gives every country it knows).
 */
export const COUNTRY_AGREES = 4;
export const COUNTRY_CONTRADICTS = -8;
/**
 * The query's entity type is not the listed one: a person is never an organization or a vessel, so
 * that conflict costs most; the other types against one another less (a shipping company and its
 * vessels often share a name, and lists do not always type them alike). A type that agrees adds
 * nothing: it says little the name did not.
 */
export const TYPE_CONTRADICTS_PERSON = -35;
export const TYPE_CONTRADICTS = -20;

export function birthDateEffect(query: string | undefined, record: ListRecord): CorroborationEffect | undefined {
  if (!query || record.birthDates.length === 0) return undefined;
  const q = query.trim();
  const qYear = Number(q.slice(0, 4));
  if (!Number.isFinite(qYear)) return undefined;
  const qFull = q.length >= 10;
  const qMonth = q.length >= 7 ? q.slice(0, 7) : undefined;
  let best: CorroborationEffect | undefined;
  let anyApprox = false;
  let near = false;
  for (const bd of record.birthDates) {
    const d = bd.date;
    const y = Number(d.slice(0, 4));
    if (bd.approximate) anyApprox = true;
    let e: CorroborationEffect | undefined;
    if (qFull && d.length >= 10 && d.slice(0, 10) === q.slice(0, 10))
      e = { effect: BIRTH_EXACT, detail: `birth date ${d} is the same` };
    else if (qMonth && d.length >= 7 && d.slice(0, 7) === qMonth)
      e = { effect: BIRTH_MONTH, detail: `birth month ${d.slice(0, 7)} is the same` };
    else if (y === qYear && (d.length === 4 || !qFull || bd.approximate))
      e = { effect: BIRTH_YEAR, detail: `birth year ${y} is the same` };
    else if (y === qYear) e = { effect: 0, detail: `same birth year ${y}, different day (${d})` };
    if (Math.abs(y - qYear) <= 1) near = true;
    if (e && (!best || e.effect > best.effect)) best = e;
  }
  if (best) return best;
  const listed = record.birthDates
    .slice(0, 3)
    .map((b) => b.date)
    .join(', ');
  if (near && anyApprox) return { effect: 0, detail: `birth date ${q} is near the listed approximate ${listed}` };
  return anyApprox || near
    ? { effect: BIRTH_CONTRADICTS_APPROX, detail: `birth date ${q} differs from the listed ${listed}` }
    : { effect: BIRTH_CONTRADICTS, detail: `birth date ${q} contradicts the listed ${listed}` };
}

/** Countries of a record (nationality, citizenship, address), ISO alpha-2 where resolvable. */
export function recordCountries(record: ListRecord): string[] {
  const out = new Set<string>();
  const add = (v: string | undefined): void => {
    if (!v) return;
    const code = toCountryCode(v);
    if (code) out.add(code);
  };
  for (const c of record.nationalities) add(c);
  for (const c of record.citizenships) add(c);
  for (const a of record.addresses) add(a.country ?? a.countryName);
  return [...out];
}

export function countryEffect(query: string | undefined, countries: string[]): CorroborationEffect | undefined {
  if (!query || countries.length === 0) return undefined;
  const q = toCountryCode(query);
  if (!q) return undefined;
  if (countries.includes(q)) return { effect: COUNTRY_AGREES, detail: `country ${q} is listed` };
  return {
    effect: COUNTRY_CONTRADICTS,
    detail: `country ${q} is not among the listed ${countries.slice(0, 4).join(', ')}`,
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
