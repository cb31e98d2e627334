/**
 * The explanation of one match: which listed name matched, how its parts aligned with the query's,
 * what was left over on either side, what distinctiveness and each field did to the score, and one
 * sentence for the analyst that says the same. Built only for the matches an answer reports.
 */
import type { NameKind, NameQuality } from '../lists/index.js';
import { round1 } from './levels.js';
import { alignmentOf } from './name-compare.js';
import type { NameComparison } from './name-comparison.js';
import type { FieldEffects } from './scoring.js';
import type { Explanation } from './types.js';
import { withArticle } from './wording.js';

/** The listed name that matched: as published, its kind (primary, aka...) and quality. */
export interface ListedName {
  name: string;
  kind: NameKind;
  quality: NameQuality;
}

/** Below this the distinctiveness scaled the score visibly (a rounded 100% says nothing). */
const SCALED = 0.999;

export function explainMatch(
  listed: ListedName,
  cmp: NameComparison,
  distinctiveness: number,
  fields: FieldEffects,
): Explanation {
  const corroboration: Explanation['corroboration'] = {};
  if (fields.birthDate) corroboration.birthDate = fields.birthDate;
  if (fields.country) corroboration.country = fields.country;
  if (fields.entityType) corroboration.entityType = fields.entityType;
  if (fields.identifier) corroboration.identifier = fields.identifier;
  if (cmp.numberConflict)
    corroboration.numbers = {
      effect: 0,
      detail: 'numbers in the names differ (score scaled down and kept below high)',
    };
  const alignment = alignmentOf(cmp);
  const aligned = alignment.map((a) => (a.how === 'exact' ? a.listed : `${a.query}~${a.listed} (${a.how})`));
  const bits: string[] = [];
  const kind = listed.kind === 'aka' ? 'alias' : `${listed.kind} name`;
  const id = fields.identifier;
  const named = `${listed.kind === 'primary' ? 'the primary name' : withArticle(listed.quality === 'weak' ? `weak ${kind}` : kind)} "${listed.name}"`;
  // A row an identifier found may share no name part with the query: then that is what is said.
  const nameless = id?.outcome === 'match' && alignment.length === 0;
  if (nameless) bits.push(`The listed name, ${named}, shares no part with the query`);
  else bits.push(`Matched ${named}`, `on ${aligned.join(', ') || 'no parts'}`);
  if (cmp.unmatchedQuery.length && !nameless) bits.push(`; query parts not found: ${cmp.unmatchedQuery.join(', ')}`);
  if (cmp.unmatchedListed.length && !nameless)
    bits.push(`; listed parts not in the query: ${cmp.unmatchedListed.join(', ')}`);
  // Distinctiveness below 1: the matched parts carry little information, being common on the
  // lists or in the population, or being a single part.
  if (distinctiveness < SCALED && !nameless)
    bits.push(
      `; ${alignment.length === 1 ? 'a single name part matched' : 'common name parts'}, score scaled by ${Math.round(distinctiveness * 100)}%`,
    );
  for (const field of [fields.birthDate, fields.country, fields.entityType, id?.outcome === 'match' ? undefined : id])
    if (field && field.effect !== 0) bits.push(`; ${field.detail} (${field.effect > 0 ? '+' : ''}${field.effect})`);
  // An identifier the listing carries leads: it, more than the name, is why the row matched.
  if (id?.outcome === 'match') bits.unshift(`${id.detail[0]!.toUpperCase()}${id.detail.slice(1)} (+${id.effect}).`);
  return {
    matchedName: listed.name,
    nameKind: listed.kind,
    nameQuality: listed.quality,
    nameScore: round1(cmp.score * 100),
    distinctiveness: Math.round(distinctiveness * 100) / 100,
    alignment,
    unmatchedQueryParts: cmp.unmatchedQuery,
    unmatchedListedParts: cmp.unmatchedListed,
    corroboration,
    summary: bits.join(' ').replace(/ ;/g, ';') + '.',
  };
}
