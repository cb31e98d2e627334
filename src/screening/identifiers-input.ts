import { validationError } from '../infra/errors.js';
import {
  identifierFault,
  imoSchemeOf,
  isRequestCountryCode,
  isScreeningIdentifierType,
  normalizeCurrency,
  normalizeIdentifier,
  SCREENING_IDENTIFIER_TYPES,
  type ScreeningIdentifierType,
} from '../identifiers/index.js';
import type { EntityType } from '../lists/index.js';
import type { QueryIdentifier } from '../matching/index.js';

/**
 * The identifiers of a search (issue 15): checked and normalized by the lists' own rules
 * (lists/adapters/kit/identifiers.ts), so a number is read alike on both sides. POST /screen and
 * POST /monitors take them through validateIdentifiers; so will every other way in (batches).
 */

/**
 * Identifiers per search. A party has a handful (an IMO number, an MMSI and a call sign; a passport,
 * a national id and a tax number); twenty leaves room for several documents of each kind while
 * bounding what one request makes the engine look up.
 */
export const MAX_IDENTIFIERS = 20;
/** Characters of one value: the longest identifiers are wallet addresses (Monero's 95, bech32's up to 90). */
export const MAX_IDENTIFIER_LENGTH = 200;

/** An identifier as a request gives it (the schema has checked the shapes). */
export interface IdentifierRequest {
  type: string;
  value: string;
  country?: string | undefined;
  currency?: string | undefined;
}

/** An identifier of a search as it is screened and stored. */
export interface SearchIdentifier {
  type: ScreeningIdentifierType;
  /** As sent, trimmed. */
  value: string;
  /** The type's normalized form (what the lists are compared in). */
  normalized: string;
  /** Upper-cased ISO 3166-1 alpha-2. */
  country?: string;
  /** Upper-cased; only on crypto_wallet. */
  currency?: string;
}

/**
 * A well-formed identifier that fails its type's check (issue 27): screened as written, and said
 * in the response's `warnings`. CHECKSUM_MISMATCH: an IMO number's check digit (by the scheme the
 * party calls for), an LEI's MOD 97-10. UNALLOCATED_MID: an MMSI whose maritime identification
 * digits the ITU table here does not hold (it grows).
 */
export type IdentifierWarningCode = 'CHECKSUM_MISMATCH' | 'UNALLOCATED_MID';

export interface IdentifierWarning {
  /** The request field, `identifiers[i].value`. */
  field: string;
  code: IdentifierWarningCode;
  message: string;
}

/**
 * Checks and normalizes `list` (the request's `identifiers`, `field` naming it in errors): a known
 * type, a value its check passes (an IMO number of a vessel by the ship scheme, of any other party by
 * either), an assigned country, a currency only on a wallet. Each error names its element,
 * `identifiers[i].value`. A value of the wrong length, characters or structure is refused; one
 * whose check digit fails is kept as written and a warning for it is pushed onto `warnings`. The
 * same identifier twice (same type, normalized value, country and currency) is kept once.
 */
export function validateIdentifiers(
  list: readonly IdentifierRequest[] | undefined,
  entityType: EntityType | null,
  field = 'identifiers',
  warnings: IdentifierWarning[] = [],
): SearchIdentifier[] {
  if (list === undefined) return [];
  if (list.length > MAX_IDENTIFIERS) throw validationError(field, `must hold at most ${MAX_IDENTIFIERS} identifiers`);
  const out: SearchIdentifier[] = [];
  const seen = new Set<string>();
  list.forEach((raw, i) => {
    const at = `${field}[${i}]`;
    if (!isScreeningIdentifierType(raw.type))
      throw validationError(`${at}.type`, `must be one of ${SCREENING_IDENTIFIER_TYPES.join(', ')}`);
    const type = raw.type;
    const value = raw.value.trim();
    if (value.length === 0) throw validationError(`${at}.value`, 'must not be empty');
    if ([...value].length > MAX_IDENTIFIER_LENGTH)
      throw validationError(`${at}.value`, `must be at most ${MAX_IDENTIFIER_LENGTH} characters`);
    const normalized = normalizeIdentifier(type, value);
    const fault = identifierFault(type, normalized, { imoScheme: entityType === 'vessel' ? 'ship' : undefined });
    if (fault?.fault === 'structure')
      throw validationError(`${at}.value`, `"${value}" is not a valid ${type}: ${fault.message}`);
    if (fault)
      warnings.push({
        field: `${at}.value`,
        code: type === 'mmsi' ? 'UNALLOCATED_MID' : 'CHECKSUM_MISMATCH',
        message: `"${value}" fails the ${type} check: ${fault.message}${schemeHint(type, normalized)}; screened as written`,
      });
    const id: SearchIdentifier = { type, value, normalized };
    if (raw.country !== undefined) {
      const country = raw.country.toUpperCase();
      if (!isRequestCountryCode(country))
        throw validationError(`${at}.country`, `"${raw.country}" is not an assigned ISO 3166-1 alpha-2 country code`);
      id.country = country;
    }
    if (raw.currency !== undefined) {
      if (type !== 'crypto_wallet') throw validationError(`${at}.currency`, 'is only for type crypto_wallet');
      id.currency = normalizeCurrency(raw.currency);
    }
    const key = identityOf(id);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(id);
  });
  return out;
}

/** A vessel's IMO number that passes the company scheme is a company's number: say so. */
function schemeHint(type: ScreeningIdentifierType, normalized: string): string {
  return type === 'imo' && imoSchemeOf(normalized) === 'company'
    ? " (it passes the company and registered owner scheme: a company's number, not a ship's)"
    : '';
}

/** One identifier as text: what tells two identifiers of a search apart. */
export function identityOf(id: Pick<SearchIdentifier, 'type' | 'normalized' | 'country' | 'currency'>): string {
  return [id.type, id.normalized, id.country ?? '', id.currency ?? ''].join(':');
}

/**
 * The identifiers in one order (type, value, country, currency), each once: the order a request
 * lists them in says nothing, so the search key and the idempotency comparison do not depend on it.
 */
export function canonicalIdentifiers(ids: readonly SearchIdentifier[]): string[] {
  return [...new Set(ids.map(identityOf))].sort();
}

/** The union of two searches' identifiers (a monitor adds its own to its screening's), the first's first. */
export function mergeIdentifiers(a: readonly SearchIdentifier[], b: readonly SearchIdentifier[]): SearchIdentifier[] {
  const seen = new Set(a.map(identityOf));
  return [...a, ...b.filter((id) => !seen.has(identityOf(id)))];
}

/** Stored form (a JSON array, or null for none: every row written before identifiers existed). */
export function storedIdentifiers(ids: readonly SearchIdentifier[]): string | null {
  return ids.length > 0 ? JSON.stringify(ids) : null;
}

export function parseStoredIdentifiers(text: string | null | undefined): SearchIdentifier[] {
  if (!text) return [];
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? (parsed as SearchIdentifier[]) : [];
}

/** Stored form of a request's warnings: a JSON array, or null for none. */
export function storedWarnings(warnings: readonly IdentifierWarning[]): string | null {
  return warnings.length > 0 ? JSON.stringify(warnings) : null;
}

export function parseStoredWarnings(text: string | null | undefined): IdentifierWarning[] {
  if (!text) return [];
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? (parsed as IdentifierWarning[]) : [];
}

/** The identifiers as the matching engine takes them (normalized values). */
export function matchIdentifiers(ids: readonly SearchIdentifier[]): QueryIdentifier[] {
  return ids.map((id) => ({
    type: id.type,
    value: id.normalized,
    ...(id.country ? { country: id.country } : {}),
    ...(id.currency ? { currency: id.currency } : {}),
  }));
}
