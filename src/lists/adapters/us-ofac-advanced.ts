/**
 * OFAC advanced XML (SDN_ADVANCED.XML / CONS_ADVANCED.XML, sdn_advanced.xsd). Everything is
 * referenced by numeric ID: the reference tables, locations and ID documents come before the
 * parties in the file, so they are kept in maps and each DistinctParty is resolved as it streams
 * past; sanctions entries (programs, listing dates) come last and are attached to the records.
 */
import path from 'node:path';
import { type Address, emptyRecord, type EntityType, type ListRecord, type PartialDate } from '../model.js';
import {
  addAlias,
  addDates,
  addNaturalOrder,
  addUnique,
  child,
  children,
  childText,
  clean,
  countryCode,
  countryOrWording,
  genderOf,
  makeAddress,
  streamXml,
  type XmlNode,
  yearsBetween,
} from './kit/index.js';
import { applyLabeledId } from './us-ofac-remarks.js';
import { OFAC_DETAILS_URL } from './us-ofac-legacy.js';

interface RefValue {
  text: string;
  attrs: Record<string, string>;
}

interface LocationInfo {
  country?: string;
  countryName?: string;
  parts: { type: string; value: string }[];
}

interface IdDoc {
  type: string;
  number: string;
  countryName?: string;
  notes: string[];
}

function datePoint(node: XmlNode | undefined): { y: number; m: number; d: number } | undefined {
  const year = Number(childText(node, 'Year'));
  if (!(year > 0)) return undefined;
  return { y: year, m: Number(childText(node, 'Month')) || 1, d: Number(childText(node, 'Day')) || 1 };
}

function lastDay(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * A DatePeriod as partial dates: a whole year (Jan 1 .. Dec 31) is `YYYY`, a whole month is
 * `YYYY-MM`, a single day is `YYYY-MM-DD`; anything wider becomes its years, approximate.
 */
export function datePeriodToDates(period: XmlNode): PartialDate[] {
  const start = child(period, 'Start');
  const end = child(period, 'End');
  const from = datePoint(child(start, 'From')) ?? datePoint(child(start, 'To'));
  const until = datePoint(child(end, 'To')) ?? datePoint(child(end, 'From')) ?? from;
  if (!from || !until) return [];
  const approximate = start?.attrs.Approximate === 'true' || end?.attrs.Approximate === 'true';
  const mark = (date: string): PartialDate[] => [approximate ? { date, approximate } : { date }];
  if (from.y === until.y && from.m === until.m && from.d === until.d)
    return mark(`${from.y}-${pad2(from.m)}-${pad2(from.d)}`);
  if (from.y === until.y && from.m === until.m && from.d === 1 && until.d === lastDay(until.y, until.m))
    return mark(`${from.y}-${pad2(from.m)}`);
  if (from.y === until.y && from.m === 1 && from.d === 1 && until.m === 12 && until.d === 31)
    return mark(String(from.y));
  return yearsBetween(from.y, until.y);
}

interface PartyName {
  name: string;
  primary: boolean;
  quality: 'strong' | 'weak';
  kind: 'aka' | 'fka' | 'nka';
  script?: string;
}

const ADDRESS_ORDER = [
  'ADDRESS1',
  'ADDRESS2',
  'ADDRESS3',
  'CITY',
  'STATE/PROVINCE',
  'POSTAL CODE',
  'REGION',
  'UNKNOWN',
];

function locationAddress(loc: LocationInfo): Address | undefined {
  const parts = [...loc.parts].sort((a, b) => ADDRESS_ORDER.indexOf(a.type) - ADDRESS_ORDER.indexOf(b.type));
  const text = clean(parts.map((p) => p.value).join(', '));
  // OFAC's placeholder country for an unknown address.
  if (!text && (!loc.countryName || loc.countryName.toLowerCase() === 'undetermined')) return undefined;
  const city = loc.parts.find((p) => p.type === 'CITY')?.value;
  return makeAddress({ text, city, country: loc.country, countryName: loc.countryName });
}

/** A country feature: the location's country, else its text (often a bare country name). */
function locationCountry(loc: LocationInfo | undefined, detail: string | undefined): string | undefined {
  if (loc?.country) return loc.country;
  const text = clean(loc ? (loc.countryName ?? loc.parts.map((p) => p.value).join(', ')) : detail);
  return text ? countryOrWording(text) : undefined;
}

function isoDay(point: { y: number; m: number; d: number }): string {
  return `${point.y}-${pad2(point.m)}-${pad2(point.d)}`;
}

/**
 * What the reader keeps while the file streams past: the reference tables, locations and ID
 * documents (all before the parties), and the records made so far.
 */
class AdvancedXmlReader {
  readonly refs = new Map<string, Map<string, RefValue>>();
  readonly locations = new Map<string, LocationInfo>();
  readonly docsByIdentity = new Map<string, IdDoc[]>();
  readonly records = new Map<string, ListRecord>();
  publishedAt: string | undefined;

  constructor(
    private readonly base: string,
    private readonly warnings: string[],
  ) {}

  ref(table: string, id: string | undefined): RefValue | undefined {
    return id === undefined ? undefined : this.refs.get(table)?.get(id);
  }

  refText(table: string, id: string | undefined): string | undefined {
    return this.ref(table, id)?.text;
  }

  countryOf(countryId: string | undefined): { code?: string; name?: string } {
    const country = this.ref('Country', countryId);
    if (!country) return {};
    const iso2 = country.attrs.ISO2;
    const code = iso2 && /^[A-Z]{2}$/.test(iso2) ? iso2 : countryCode(country.text);
    return code ? { code, name: country.text } : { name: country.text };
  }

  /** A reference table such as <AliasTypeValues>: its rows are keyed by their element name. */
  onReferenceTable(node: XmlNode): void {
    for (const row of node.children) {
      if (!row.attrs.ID) continue;
      let table = this.refs.get(row.name);
      if (!table) this.refs.set(row.name, (table = new Map()));
      table.set(row.attrs.ID, { text: row.text, attrs: row.attrs });
    }
  }

  onDateOfIssue(node: XmlNode): void {
    const point = datePoint(node);
    if (point) this.publishedAt = isoDay(point);
  }

  onLocation(node: XmlNode): void {
    const info: LocationInfo = { parts: [] };
    const countryId =
      child(node, 'LocationCountry')?.attrs.CountryID ??
      this.ref('AreaCode', child(node, 'LocationAreaCode')?.attrs.AreaCodeID)?.attrs.CountryID;
    const country = this.countryOf(countryId);
    if (country.code) info.country = country.code;
    if (country.name) info.countryName = country.name;
    for (const part of children(node, 'LocationPart')) {
      const values = children(part, 'LocationPartValue');
      const value = (values.find((v) => v.attrs.Primary === 'true') ?? values[0])?.children.find(
        (c) => c.name === 'Value',
      )?.text;
      const type = this.refText('LocPartType', part.attrs.LocPartTypeID) ?? 'Unknown';
      if (value) info.parts.push({ type: type.toUpperCase(), value });
    }
    if (node.attrs.ID) this.locations.set(node.attrs.ID, info);
  }

  onIdDoc(node: XmlNode): void {
    const identity = node.attrs.IdentityID;
    const number = childText(node, 'IDRegistrationNo');
    const type = this.refText('IDRegDocType', node.attrs.IDRegDocTypeID);
    if (!identity || !number || !type) return;
    const doc: IdDoc = { type, number, notes: [] };
    const countryName = this.countryOf(node.attrs['IssuedBy-CountryID']).name;
    if (countryName) doc.countryName = countryName;
    for (const date of children(node, 'DocumentDate')) {
      const label = (this.refText('IDRegDocDateType', date.attrs.IDRegDocDateTypeID) ?? 'date').toLowerCase();
      const period = child(date, 'DatePeriod');
      const value = period ? datePeriodToDates(period)[0]?.date : undefined;
      if (value)
        doc.notes.push(`${label.includes('expir') ? 'expires' : label.includes('issue') ? 'issued' : label} ${value}`);
    }
    const authority = childText(node, 'IssuingAuthority');
    if (authority) doc.notes.push(`issued by ${authority}`);
    const list = this.docsByIdentity.get(identity);
    if (list) list.push(doc);
    else this.docsByIdentity.set(identity, [doc]);
  }

  partyType(profile: XmlNode): EntityType {
    const sub = this.ref('PartySubType', profile.attrs.PartySubTypeID);
    const type = (this.refText('PartyType', sub?.attrs.PartyTypeID) ?? '').toLowerCase();
    const subText = (sub?.text ?? '').toLowerCase();
    if (type === 'individual') return 'person';
    if (subText === 'vessel') return 'vessel';
    if (subText === 'aircraft') return 'aircraft';
    return 'organization';
  }

  /** One documented name: a person's last name first ("LAST, First"), and its script if not Latin. */
  documentedName(
    documented: XmlNode,
    groupType: Map<string, string>,
    person: boolean,
  ): { name?: string; script?: string } {
    const last: string[] = [];
    const rest: string[] = [];
    let script: string | undefined;
    for (const part of children(documented, 'DocumentedNamePart')) {
      const value = child(part, 'NamePartValue');
      if (!value?.text) continue;
      const partType = (groupType.get(value.attrs.NamePartGroupID ?? '') ?? '').toLowerCase();
      const scriptName = this.refText('Script', value.attrs.ScriptID);
      if (scriptName && scriptName.toLowerCase() !== 'latin') script = scriptName;
      if (person && partType === 'last name') last.push(value.text);
      else rest.push(value.text);
    }
    const name =
      last.length && rest.length ? `${last.join(' ')}, ${rest.join(' ')}` : clean([...last, ...rest].join(' '));
    return { name, script };
  }

  /** Every documented name of every identity of a profile, and the identities' ids (for their documents). */
  partyNames(profile: XmlNode, person: boolean): { names: PartyName[]; identityIds: string[] } {
    const names: PartyName[] = [];
    const identityIds: string[] = [];
    for (const identity of children(profile, 'Identity')) {
      if (identity.attrs.ID) identityIds.push(identity.attrs.ID);
      const groupType = new Map<string, string>();
      for (const master of children(child(identity, 'NamePartGroups'), 'MasterNamePartGroup')) {
        for (const group of children(master, 'NamePartGroup')) {
          if (group.attrs.ID)
            groupType.set(group.attrs.ID, this.refText('NamePartType', group.attrs.NamePartTypeID) ?? '');
        }
      }
      for (const alias of children(identity, 'Alias')) {
        const aliasType = (this.refText('AliasType', alias.attrs.AliasTypeID) ?? '').toUpperCase();
        const kind = aliasType.startsWith('F') ? 'fka' : aliasType.startsWith('N.') ? 'nka' : 'aka';
        const quality = alias.attrs.LowQuality === 'true' ? 'weak' : 'strong';
        for (const documented of children(alias, 'DocumentedName')) {
          const { name, script } = this.documentedName(documented, groupType, person);
          if (!name) continue;
          const entry: PartyName = { name, primary: alias.attrs.Primary === 'true', quality, kind };
          if (script) entry.script = script;
          names.push(entry);
        }
      }
    }
    return { names, identityIds };
  }

  /** A Feature (birth date, place of birth, nationality, address...) in each of its versions. */
  addFeature(record: ListRecord, feature: XmlNode): void {
    const featureType = this.refText('FeatureType', feature.attrs.FeatureTypeID) ?? '';
    const kind = featureType.toLowerCase();
    for (const version of children(feature, 'FeatureVersion')) {
      const detailNode = child(version, 'VersionDetail');
      const detail = detailNode?.text || this.refText('DetailReference', detailNode?.attrs.DetailReferenceID);
      const locId = child(version, 'VersionLocation')?.attrs.LocationID;
      const loc = locId ? this.locations.get(locId) : undefined;
      const period = child(version, 'DatePeriod');
      if (kind === 'birthdate') {
        if (period) addDates(record.birthDates, datePeriodToDates(period));
      } else if (kind === 'place of birth') {
        addUnique(
          record.birthPlaces,
          detail ?? (loc && clean([...loc.parts.map((p) => p.value), loc.countryName].join(', '))),
        );
      } else if (
        kind === 'nationality country' ||
        kind === 'nationality of registration' ||
        kind.endsWith('vessel flag')
      ) {
        if (kind.startsWith('former')) continue;
        addUnique(record.nationalities, locationCountry(loc, detail));
      } else if (kind === 'citizenship country') {
        addUnique(record.citizenships, locationCountry(loc, detail));
      } else if (kind === 'gender') {
        const gender = genderOf(detail);
        if (gender) record.gender = gender;
      } else if (kind === 'location' || kind === 'address') {
        const address = loc && locationAddress(loc);
        if (address) record.addresses.push(address);
      } else if (kind === 'title') {
        if (detail) {
          record.titles ??= [];
          addUnique(record.titles, detail);
        }
      } else if (detail) {
        applyLabeledId(record, featureType, detail, undefined);
      }
    }
  }

  onParty(party: XmlNode): void {
    const profile = child(party, 'Profile');
    const id = profile?.attrs.ID ?? party.attrs.FixedRef;
    if (!profile || !id) {
      this.warnings.push(`${this.base}: DistinctParty ${party.attrs.FixedRef ?? '?'} without a Profile skipped`);
      return;
    }
    const type = this.partyType(profile);
    const { names, identityIds } = this.partyNames(profile, type === 'person');
    const primary = names.find((n) => n.primary && !n.script) ?? names.find((n) => n.primary) ?? names[0];
    if (!primary) {
      this.warnings.push(`${this.base}: party ${id} without a name skipped`);
      return;
    }
    const record = emptyRecord('us_ofac', id, type, primary.name);
    record.sourceUrl = OFAC_DETAILS_URL + id;
    addNaturalOrder(record, primary.name, 'strong');
    for (const other of names) {
      if (other === primary) continue;
      // Other documented forms of the primary name (another script) are variations of it.
      addAlias(record, other.name, other.quality, other.primary ? 'variation' : other.kind, other.script);
      addNaturalOrder(record, other.name, other.quality);
    }
    for (const feature of children(profile, 'Feature')) this.addFeature(record, feature);
    for (const identityId of identityIds) {
      for (const doc of this.docsByIdentity.get(identityId) ?? []) {
        applyLabeledId(record, doc.type, doc.number, doc.countryName, doc.notes);
      }
      this.docsByIdentity.delete(identityId);
    }
    if (this.records.has(id)) this.warnings.push(`${this.base}: profile ${id} repeated; the last one kept`);
    this.records.set(id, record);
  }

  onEntry(entry: XmlNode): void {
    const record = this.records.get(entry.attrs.ProfileID ?? '');
    if (!record) {
      this.warnings.push(
        `${this.base}: SanctionsEntry ${entry.attrs.ID ?? '?'} for unknown profile ${entry.attrs.ProfileID ?? '?'}`,
      );
      return;
    }
    for (const measure of children(entry, 'SanctionsMeasure')) {
      const type = (this.refText('SanctionsType', measure.attrs.SanctionsTypeID) ?? '').toLowerCase();
      if (type === 'program') addUnique(record.programs, childText(measure, 'Comment'));
    }
    for (const event of children(entry, 'EntryEvent')) {
      const point = datePoint(child(event, 'Date'));
      if (!point) continue;
      const date = isoDay(point);
      // A party on several lists keeps its first listing.
      if (!record.listingDate || date < record.listingDate) record.listingDate = date;
    }
  }

  onNode(node: XmlNode): void {
    switch (node.name) {
      case 'DateOfIssue':
        return this.onDateOfIssue(node);
      case 'Location':
        return this.onLocation(node);
      case 'IDRegDocument':
        return this.onIdDoc(node);
      case 'DistinctParty':
        return this.onParty(node);
      case 'SanctionsEntry':
        return this.onEntry(node);
      default:
        return this.onReferenceTable(node);
    }
  }
}

/** Which elements the stream hands over whole: the issue date, reference tables, and the rows of the big sections. */
function wantedElement(name: string, stack: readonly string[]): boolean {
  if (stack.length === 0) {
    if (name !== 'Sanctions') throw new Error(`root element is <${name}>, expected <Sanctions>`);
    return false;
  }
  const parent = stack[stack.length - 1];
  if (stack.length === 1) return name === 'DateOfIssue';
  if (stack.length === 2 && parent === 'ReferenceValueSets') return true;
  if (stack.length === 2) {
    return (
      (parent === 'Locations' && name === 'Location') ||
      (parent === 'IDRegDocuments' && name === 'IDRegDocument') ||
      (parent === 'DistinctParties' && name === 'DistinctParty') ||
      (parent === 'SanctionsEntries' && name === 'SanctionsEntry')
    );
  }
  return false;
}

export async function parseOfacAdvancedXml(
  file: string,
  warnings: string[],
): Promise<{ records: ListRecord[]; publishedAt?: string }> {
  const base = path.basename(file);
  const reader = new AdvancedXmlReader(base, warnings);
  await streamXml(file, {
    open: (name, _attrs, stack) => wantedElement(name, stack),
    node: (node) => reader.onNode(node),
  });
  for (const identityId of reader.docsByIdentity.keys())
    warnings.push(`${base}: ID document for unknown identity ${identityId}`);
  const list = [...reader.records.values()];
  return reader.publishedAt ? { records: list, publishedAt: reader.publishedAt } : { records: list };
}
