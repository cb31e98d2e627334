import {
  identifierKey,
  listedForm,
  type NamePart,
  normalizeName,
  phoneticKey,
  readIdentifiers,
  spellingFold,
} from '../matching/index.js';
import type { ListRecord } from '../lists/index.js';
import { matchIdentifiers, parseStoredIdentifiers } from '../screening/index.js';

/**
 * The terms by which a delta pass finds the monitors that changed entities can affect (issue 30,
 * item 3), without reading every monitor: each monitor's search is stored under the terms of its
 * name parts and identifiers (monitor_terms), and the changed entities' names and identifiers are
 * turned into the same terms to look them up. The terms follow the ways the matching engine reaches
 * a listed name (candidate-index.ts): the same spelling fold (`f:`), the same consonant skeleton
 * (`k:`), and a monitor's part that is a listed part less one letter (the listed parts' one-letter
 * deletions are looked up as `f:`). A monitor found is then screened against the changed entities
 * (delta-rescreen.ts) to keep only those it really matches.
 *
 * What the terms do not reach: a monitor whose only link to a changed entity is a part one letter
 * longer than the listed one, or one consonant replaced, with a different skeleton, and no other part
 * in common. The full pass that follows every delta pass rescreens it.
 */

/** The kinds of name parts that carry a name (legal forms, particles and initials reach too much). */
const TERM_KINDS = new Set<NamePart['kind']>(['word', 'number', 'patronymic']);
/** Skeletons shorter than this are no terms: the matching engine reaches no listed part by them. */
const MIN_SKELETON_LENGTH = 2;
/** Listed parts shorter than this get no deletion terms (too many other names are one letter off). */
const MIN_DELETION_LENGTH = 4;

function partTerms(name: string, isPerson: boolean | undefined, out: Set<string>, deletions: boolean): void {
  for (const part of normalizeName(name, isPerson).parts) {
    if (!TERM_KINDS.has(part.kind) || part.text.length === 0) continue;
    const fold = spellingFold(part.text);
    out.add(`f:${fold}`);
    // The engine follows a skeleton of two consonant classes or more only (candidate-index.ts): one of
    // a single class (k:S, k:K) reached a third of the monitors of a bench for nothing.
    const skeleton = phoneticKey(part.text);
    if (skeleton.length >= MIN_SKELETON_LENGTH) out.add(`k:${skeleton}`);
    if (!deletions || fold.length < MIN_DELETION_LENGTH) continue;
    for (let i = 0; i < fold.length; i++) out.add(`f:${fold.slice(0, i)}${fold.slice(i + 1)}`);
  }
}

/** A monitored search's terms: its name parts' folds and skeletons, its identifiers' keys. */
export function searchTerms(search: {
  query: string;
  entity_type: string | null;
  identifiers: string | null;
}): string[] {
  const out = new Set<string>();
  const isPerson = search.entity_type === null ? undefined : search.entity_type === 'person';
  partTerms(search.query, isPerson, out, false);
  for (const id of readIdentifiers(matchIdentifiers(parseStoredIdentifiers(search.identifiers))))
    out.add(`i:${id.key}`);
  return [...out];
}

/** The terms to look up for changed entities: every name's folds, skeletons and one-letter deletions, and identifiers. */
export function recordTerms(records: readonly ListRecord[]): string[] {
  const out = new Set<string>();
  for (const record of records) {
    const isPerson = record.entityType === 'person';
    for (const name of [record.name, ...record.aliases.map((a) => a.name)]) partTerms(name, isPerson, out, true);
    for (const id of record.identifiers) {
      const form = listedForm(id);
      if (form) out.add(`i:${identifierKey(form.type, form.value)}`);
    }
  }
  return [...out];
}
