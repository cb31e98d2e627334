/** Building a record: identifiers, merging two rows of one listing, tidying optional fields. */
import type { Address, EntityType, Identifier, ListRecord } from '../../model.js';
import { countryCode } from './countries.js';
import { addDates } from './dates.js';
import { addAlias } from './names.js';
import { addUnique, clean } from './text.js';

/** Adds an identifier unless the same type, value (letter case aside) and country are present. */
export function addIdentifier(record: ListRecord, id: Identifier): void {
  const value = clean(id.value);
  if (!value) return;
  const key = value.toLowerCase();
  const same = record.identifiers.some(
    (x) => x.type === id.type && x.value.toLowerCase() === key && x.country === id.country,
  );
  if (same) return;
  const out: Identifier = { type: id.type, value };
  if (id.country) out.country = id.country;
  const label = clean(id.label);
  if (label) out.label = label;
  const note = clean(id.note);
  if (note) out.note = note;
  record.identifiers.push(out);
}

/**
 * The publishers' words for the kind of party: Individual, Entity, Vessel or Ship, Aircraft (OFAC,
 * the CSL, OFSI's Group Type, DFAT's Type); anything else is an organization.
 */
export function entityTypeOf(word: string | undefined): EntityType {
  const w = (clean(word) ?? '').toLowerCase();
  if (w.startsWith('individual')) return 'person';
  if (w.startsWith('vessel') || w.startsWith('ship')) return 'vessel';
  if (w.startsWith('aircraft')) return 'aircraft';
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
  for (const a of other.aliases) addAlias(into, a.name, a.quality, a.kind, a.script);
  addDates(into.birthDates, other.birthDates);
  for (const p of other.birthPlaces) addUnique(into.birthPlaces, p);
  for (const c of other.nationalities) addUnique(into.nationalities, c);
  for (const c of other.citizenships) addUnique(into.citizenships, c);
  for (const a of other.addresses) {
    const key = JSON.stringify(a);
    if (!into.addresses.some((x) => JSON.stringify(x) === key)) into.addresses.push(a);
  }
  for (const i of other.identifiers) addIdentifier(into, i);
  for (const p of other.programs) addUnique(into.programs, p);
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
