/**
 * Identifiers as evidence beside the name: every identifier the lists print (and the LEIs of the
 * derived us_ofac_50 records) indexed by its screening type and normalized value, so that a query's
 * IMO number, LEI, passport... reaches the listings that carry it whatever their names, and, for a
 * listing reached by its name, what its identifiers of the query's types say: the same number
 * (a match) or only other numbers of that type (a contradiction). Values are normalized by the
 * lists' own functions (lists/adapters/kit/identifiers.ts): one vocabulary on both sides.
 */
import {
  identifierKindOf,
  isScreeningIdentifierType,
  normalizeCurrency,
  normalizeIdentifier,
  type ScreeningIdentifierType,
} from '../identifiers/index.js';
import type { Identifier, ListRecord } from '../lists/index.js';
import type { QueryIdentifier } from './types.js';

/**
 * Types whose issuing country tells two documents apart: passport 123456 of one country is not
 * passport 123456 of another. Where both sides name a country and they differ, the numbers are
 * neither a match nor a contradiction. The other types are one world-wide scheme each.
 */
const COUNTRY_SCOPED: ReadonlySet<ScreeningIdentifierType> = new Set([
  'passport',
  'national_id',
  'registration',
  'tax_id',
]);

/** A query identifier ready to compare: its type, normalized value and key. */
export interface ReadIdentifier {
  type: ScreeningIdentifierType;
  /** Normalized (kit/identifiers.ts normalizeIdentifier). */
  value: string;
  key: string;
  country?: string;
  currency?: string;
}

/** What a listing's identifiers say about a query's. */
export interface IdentifierEvidence {
  /**
   * The query's identifier that the listing carries, the listing's own writing of it, and how many
   * numbers of that type the listing holds (a shipping company lists its fleet's IMO numbers).
   */
  matched?: { query: ReadIdentifier; listed: Identifier; ofType: number };
  /** Otherwise, per query identifier, the listing's (valid) numbers of the same type, none of them equal. */
  contradicted: { query: ReadIdentifier; listed: Identifier[] }[];
}

/**
 * The index key of a normalized identifier. A BIC is keyed by its first 8 characters, the
 * institution: a branch code (the 3 characters after) names a branch of the same party.
 */
export function identifierKey(type: ScreeningIdentifierType, normalized: string): string {
  return `${type}:${type === 'bic' ? normalized.slice(0, 8) : normalized}`;
}

/** A query's identifiers read for comparison; values the type's normalization empties are left out. */
export function readIdentifiers(ids: readonly QueryIdentifier[] | undefined): ReadIdentifier[] {
  const out: ReadIdentifier[] = [];
  for (const id of ids ?? []) {
    if (!isScreeningIdentifierType(id.type)) continue;
    const value = normalizeIdentifier(id.type, id.value);
    if (!value) continue;
    const read: ReadIdentifier = { type: id.type, value, key: identifierKey(id.type, value) };
    if (id.country) read.country = id.country.toUpperCase();
    if (id.currency) read.currency = normalizeCurrency(id.currency);
    out.push(read);
  }
  return out;
}

/** A listed identifier's screening type and normalized value; undefined for the kinds no screening asks about. */
export function listedForm(id: Identifier): { type: ScreeningIdentifierType; value: string } | undefined {
  const kind = identifierKindOf(id);
  if (!isScreeningIdentifierType(kind)) return undefined;
  const value = id.normalized ?? normalizeIdentifier(kind, id.value);
  return value ? { type: kind, value } : undefined;
}

/** The two sides name different issuing countries of a document. */
function otherCountry(q: ReadIdentifier, listed: Identifier): boolean {
  return (
    COUNTRY_SCOPED.has(q.type) &&
    q.country !== undefined &&
    listed.country !== undefined &&
    q.country !== listed.country
  );
}

export class IdentifierIndex {
  /** Records (indexes into the index's records) per identifier key, each once, in record order. */
  private readonly byKey = new Map<string, number[]>();

  private constructor(private readonly records: readonly ListRecord[]) {}

  /** The build as a generator that yields every `step` records (see MatchingIndex.buildAsync). */
  static *build(records: readonly ListRecord[], step: number): Generator<void, IdentifierIndex, void> {
    const idx = new IdentifierIndex(records);
    for (let r = 0; r < records.length; r++) {
      for (const id of records[r]!.identifiers) {
        const form = listedForm(id);
        if (!form) continue;
        const key = identifierKey(form.type, form.value);
        const list = idx.byKey.get(key);
        if (list === undefined) idx.byKey.set(key, [r]);
        else if (list[list.length - 1] !== r) list.push(r);
      }
      if (r % step === 0) yield;
    }
    return idx;
  }

  /** Number of distinct identifiers indexed. */
  get size(): number {
    return this.byKey.size;
  }

  /** The records carrying any of the query's identifiers (before the country check of evidenceFor). */
  recordsWith(query: readonly ReadIdentifier[]): Set<number> {
    const out = new Set<number>();
    for (const key of query) for (const record of this.byKey.get(key.key) ?? []) out.add(record);
    return out;
  }

  /**
   * What record `r`'s identifiers say about the query's: the first query identifier it carries (in
   * the query's order), or else the query's types for which it lists only other numbers. Numbers
   * that failed their check as printed contradict nothing (a typo is not another party), and a
   * crypto wallet never does (a party holds many).
   */
  evidenceFor(query: readonly ReadIdentifier[], r: number): IdentifierEvidence | undefined {
    const listed = this.records[r]!.identifiers;
    if (query.length === 0 || listed.length === 0) return undefined;
    const contradicted: IdentifierEvidence['contradicted'] = [];
    for (const key of query) {
      const others: Identifier[] = [];
      let same: Identifier | undefined;
      for (const id of listed) {
        const form = listedForm(id);
        if (!form || form.type !== key.type || otherCountry(key, id)) continue;
        if (identifierKey(form.type, form.value) === key.key) {
          // One address is often listed once per currency (ETH, USDT, USDC): the query's own leads.
          same ??= id;
          if (!key.currency || (id.currency && normalizeCurrency(id.currency) === key.currency)) {
            same = id;
            break;
          }
          continue;
        }
        if (id.valid !== false && key.type !== 'crypto_wallet') others.push(id);
      }
      if (same) {
        const ofType = listed.filter((x) => listedForm(x)?.type === key.type).length;
        return { matched: { query: key, listed: same, ofType }, contradicted: [] };
      }
      if (others.length > 0) contradicted.push({ query: key, listed: others });
    }
    return contradicted.length > 0 ? { contradicted } : undefined;
  }
}
