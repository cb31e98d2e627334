import type { ListRecord } from './model.js';

/**
 * The change feed (issue 30): what differs, per listed entity, between an activated version of a
 * source and the version in force before it. Pure: two record sets in, changes out. The store writes
 * them in the activation's transaction (list-store.ts), so a version in force always has its changes.
 */

export type ChangeKind = 'added' | 'removed' | 'changed';

/** The fields a change names, each compared as a set of display values. */
export const CHANGE_FIELDS = [
  'name',
  'aliases',
  'entityType',
  'birthDates',
  'nationalities',
  'identifiers',
  'programs',
  'addresses',
  'birthPlaces',
  'listingDate',
  'titles',
  'positions',
  'gender',
  'list',
  'remarks',
] as const;

export type ChangeField = (typeof CHANGE_FIELDS)[number];

export interface FieldDelta {
  added: string[];
  removed: string[];
}

export interface EntityChange {
  recordId: string;
  kind: ChangeKind;
  /** The name as listed in the newer version (the older one for a removal). */
  name: string;
  entityType: string;
  /**
   * A change that lapses a suppression (screening/suppression.ts `listingFingerprint`): any name
   * (primary or alias), birth date, nationality or citizenship, identifier, program or the entity
   * type. Additions and removals are always major.
   */
  major: boolean;
  fields: ChangeField[];
  detail: Partial<Record<ChangeField, FieldDelta>>;
}

const identifierText = (i: ListRecord['identifiers'][number]) =>
  `${i.type}: ${i.value}${i.country ? ` (${i.country})` : ''}`;

const addressText = (a: ListRecord['addresses'][number]) =>
  [a.text, a.city, a.country ?? a.countryName].filter((p) => p !== undefined && p !== '').join(', ');

const one = (value: string | undefined): string[] => (value === undefined || value === '' ? [] : [value]);

/** Each field of a record as the set of values a reader sees. */
function fieldValues(r: ListRecord): Record<ChangeField, string[]> {
  return {
    name: [r.name],
    aliases: r.aliases.map((a) => a.name),
    entityType: [r.entityType],
    birthDates: r.birthDates.map((d) => (d.approximate ? `${d.date} (approximate)` : d.date)),
    nationalities: [...r.nationalities, ...r.citizenships],
    identifiers: r.identifiers.map(identifierText),
    programs: r.programs,
    addresses: r.addresses.map(addressText).filter((a) => a !== ''),
    birthPlaces: r.birthPlaces,
    listingDate: one(r.listingDate),
    titles: r.titles ?? [],
    positions: r.positions ?? [],
    gender: one(r.gender),
    list: one(r.list),
    remarks: one(r.remarks?.trim()),
  };
}

function delta(before: string[], after: string[]): FieldDelta | undefined {
  const was = new Set(before);
  const now = new Set(after);
  const added = [...now].filter((v) => !was.has(v));
  const removed = [...was].filter((v) => !now.has(v));
  return added.length > 0 || removed.length > 0 ? { added, removed } : undefined;
}

const MAJOR_FIELDS: ReadonlySet<ChangeField> = new Set([
  'entityType',
  'birthDates',
  'nationalities',
  'identifiers',
  'programs',
]);

/** Whether the change lapses a suppression: names are one set there (primary and aliases together). */
function isMajor(before: ListRecord, after: ListRecord, fields: ChangeField[]): boolean {
  if (fields.some((f) => MAJOR_FIELDS.has(f))) return true;
  const names = (r: ListRecord) =>
    new Set([r.name, ...r.aliases.map((a) => a.name)].map((n) => n.normalize('NFC').trim()));
  const namesBefore = names(before);
  const namesAfter = names(after);
  return namesBefore.size !== namesAfter.size || [...namesBefore].some((n) => !namesAfter.has(n));
}

/** The difference of one entity between two versions; undefined when nothing a reader sees differs. */
export function diffRecord(before: ListRecord, after: ListRecord): EntityChange | undefined {
  const was = fieldValues(before);
  const now = fieldValues(after);
  const detail: Partial<Record<ChangeField, FieldDelta>> = {};
  const fields: ChangeField[] = [];
  for (const field of CHANGE_FIELDS) {
    const change = delta(was[field], now[field]);
    if (change) {
      detail[field] = change;
      fields.push(field);
    }
  }
  if (fields.length === 0) return undefined;
  return {
    recordId: after.id,
    kind: 'changed',
    name: after.name,
    entityType: after.entityType,
    major: isMajor(before, after, fields),
    fields,
    detail,
  };
}

function whole(record: ListRecord, kind: 'added' | 'removed'): EntityChange {
  return {
    recordId: record.id,
    kind,
    name: record.name,
    entityType: record.entityType,
    major: true,
    fields: [],
    detail: {},
  };
}

/**
 * Every entity added, removed or changed from `before` to `after` (records of one source, keyed by
 * the publisher's id), in the newer version's order, then the removals in the older one's.
 */
export function diffVersions(before: ListRecord[], after: ListRecord[]): EntityChange[] {
  const old = new Map(before.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const out: EntityChange[] = [];
  for (const record of after) {
    seen.add(record.id);
    const previous = old.get(record.id);
    if (!previous) out.push(whole(record, 'added'));
    else {
      const change = diffRecord(previous, record);
      if (change) out.push(change);
    }
  }
  for (const record of before) if (!seen.has(record.id)) out.push(whole(record, 'removed'));
  return out;
}
