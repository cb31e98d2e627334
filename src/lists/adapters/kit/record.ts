/** Building a record: identifiers, merging two rows of one listing, tidying optional fields. */
import { addUnique, clean } from '../../../formats/index.js';
import type { Address, EntityType, Identifier, IdentifierType, ListRecord } from '../../model.js';
import { addDates } from './dates.js';
import { classifyIdLabel, labelledNumbers, type IdentifierClass } from './id-labels.js';
import {
  CHECKED_IDENTIFIER_TYPES,
  countryCode,
  identifierKindOf,
  type IdentifierKind,
  identifierProblem,
  normalizeCurrency,
  normalizeIdentifier,
  type ImoScheme,
} from '../../../identifiers/index.js';
import { addAlias } from './names.js';

/** An identifier as an adapter reads it: `kind` when the label says more than `type`, the raw value. */
export interface IdentifierInput {
  type: IdentifierType;
  value: string | undefined;
  kind?: IdentifierKind | undefined;
  country?: string | undefined;
  label?: string | undefined;
  note?: string | undefined;
  currency?: string | undefined;
}

/**
 * Adds an identifier with its kind, normalized value and, where its standard has one, the
 * result of the check (see Identifier.valid); unless one of the same kind, normalized value,
 * currency and country is present. A value without a letter or digit is no identifier.
 */
export function addIdentifier(record: ListRecord, id: IdentifierInput | Identifier): void {
  const value = clean(id.value);
  if (!value) return;
  const kind = id.kind ?? identifierKindOf(id);
  const normalized = normalizeIdentifier(kind, value);
  if (!normalized) return;
  const currency = id.currency ? normalizeCurrency(id.currency) : undefined;
  const same = record.identifiers.some(
    (x) =>
      identifierKindOf(x) === kind &&
      (x.normalized ?? x.value) === normalized &&
      x.currency === currency &&
      x.country === id.country,
  );
  if (same) return;
  const out: Identifier = { type: id.type, value };
  if (id.country) out.country = id.country;
  const label = clean(id.label);
  if (label) out.label = label;
  const note = clean(id.note);
  if (note) out.note = note;
  out.kind = kind;
  out.normalized = normalized;
  if (currency) out.currency = currency;
  if ((CHECKED_IDENTIFIER_TYPES as readonly string[]).includes(kind)) {
    // A vessel's IMO number is a ship's. Other parties' may be a company's, or a ship's where a list
    // files a vessel as an entity (the EU has no vessel type), so either scheme passes for them.
    const imoScheme: ImoScheme | undefined = record.entityType === 'vessel' ? 'ship' : undefined;
    out.valid = identifierProblem(kind, normalized, { imoScheme }) === undefined;
  }
  record.identifiers.push(out);
}

/**
 * The publishers' words for the kind of party: Individual, Entity, Vessel or Ship, Aircraft (OFAC,
 * the CSL, OFSI's Group Type, DFAT's Type); anything else is an organization.
 */
export function entityTypeOf(word: string | undefined): EntityType {
  const lowered = (clean(word) ?? '').toLowerCase();
  if (lowered.startsWith('individual')) return 'person';
  if (lowered.startsWith('vessel') || lowered.startsWith('ship')) return 'vessel';
  if (lowered.startsWith('aircraft')) return 'aircraft';
  return 'organization';
}

/**
 * An address from its parts, the country resolved to ISO2 from the publisher's wording unless the
 * code is given; undefined when nothing is left.
 */
export function makeAddress(parts: {
  text?: string | undefined;
  city?: string | undefined;
  countryName?: string | undefined;
  country?: string | undefined;
}): Address | undefined {
  const address: Address = {};
  const text = clean(parts.text);
  if (text) address.text = text;
  const city = clean(parts.city);
  if (city) address.city = city;
  const country = parts.country ?? countryCode(parts.countryName);
  if (country) address.country = country;
  const countryName = clean(parts.countryName);
  if (countryName) address.countryName = countryName;
  return Object.keys(address).length ? address : undefined;
}

/**
 * Adds the identifiers a publisher writes into text as "label: number" (see labelledNumbers),
 * each of the type its label tells; numbers before any label are of `unlabelled`'s type when
 * it is given (a field that holds one kind of number), else skipped.
 */
export function addLabelledIdentifiers(
  record: ListRecord,
  text: string | undefined,
  labels: RegExp,
  unlabelled?: IdentifierClass & { label?: string },
): void {
  if (!text) return;
  for (const found of labelledNumbers(text, labels, unlabelled?.type)) {
    const classified = found.label ? { ...classifyIdLabel(found.label), label: found.label } : unlabelled!;
    const note = found.context === found.value ? undefined : found.context;
    addIdentifier(record, { ...classified, value: found.value, note });
  }
}

/** Drops optional fields left empty, so records stay lean. */
export function finishRecord(record: ListRecord): ListRecord {
  if (record.titles && record.titles.length === 0) delete record.titles;
  if (record.positions && record.positions.length === 0) delete record.positions;
  if (record.remarks !== undefined && !record.remarks) delete record.remarks;
  return record;
}

/**
 * Folds `other` into `into`: one listing the publisher repeats (the EU per regime, the CSL once per
 * Treasury list). The first listing date is kept; names, dates, places and documents are joined.
 */
export function mergeRecords(into: ListRecord, other: ListRecord): ListRecord {
  addAlias(into, other.name, 'strong', 'aka');
  for (const alias of other.aliases) addAlias(into, alias.name, alias.quality, alias.kind, alias.script);
  addDates(into.birthDates, other.birthDates);
  for (const place of other.birthPlaces) addUnique(into.birthPlaces, place);
  for (const country of other.nationalities) addUnique(into.nationalities, country);
  for (const country of other.citizenships) addUnique(into.citizenships, country);
  for (const address of other.addresses) {
    const key = JSON.stringify(address);
    if (!into.addresses.some((x) => JSON.stringify(x) === key)) into.addresses.push(address);
  }
  for (const identifier of other.identifiers) addIdentifier(into, identifier);
  for (const program of other.programs) addUnique(into.programs, program);
  if (other.listingDate && (!into.listingDate || other.listingDate < into.listingDate))
    into.listingDate = other.listingDate;
  into.gender ??= other.gender;
  into.sourceUrl ??= other.sourceUrl;
  if (other.titles?.length) into.titles = [...new Set([...(into.titles ?? []), ...other.titles])];
  if (other.positions?.length) into.positions = [...new Set([...(into.positions ?? []), ...other.positions])];
  if (other.remarks && !(into.remarks ?? '').includes(other.remarks)) {
    into.remarks = into.remarks ? `${into.remarks}\n${other.remarks}` : other.remarks;
  }
  return into;
}
