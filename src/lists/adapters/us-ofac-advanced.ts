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
  const y = Number(childText(node, 'Year'));
  if (!(y > 0)) return undefined;
  return { y, m: Number(childText(node, 'Month')) || 1, d: Number(childText(node, 'Day')) || 1 };
}

function lastDay(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

const p2 = (n: number): string => String(n).padStart(2, '0');

/**
 * A DatePeriod as partial dates: a whole year (Jan 1 .. Dec 31) is `YYYY`, a whole month is
 * `YYYY-MM`, a single day is `YYYY-MM-DD`; anything wider becomes its years, approximate.
 */
export function datePeriodToDates(period: XmlNode): PartialDate[] {
  const start = child(period, 'Start');
  const end = child(period, 'End');
  const s = datePoint(child(start, 'From')) ?? datePoint(child(start, 'To'));
  const e = datePoint(child(end, 'To')) ?? datePoint(child(end, 'From')) ?? s;
  if (!s || !e) return [];
  const approximate = start?.attrs.Approximate === 'true' || end?.attrs.Approximate === 'true';
  const mark = (date: string): PartialDate[] => [approximate ? { date, approximate } : { date }];
  if (s.y === e.y && s.m === e.m && s.d === e.d) return mark(`${s.y}-${p2(s.m)}-${p2(s.d)}`);
  if (s.y === e.y && s.m === e.m && s.d === 1 && e.d === lastDay(e.y, e.m)) return mark(`${s.y}-${p2(s.m)}`);
  if (s.y === e.y && s.m === 1 && s.d === 1 && e.m === 12 && e.d === 31) return mark(String(s.y));
  return yearsBetween(s.y, e.y);
}

export async function parseOfacAdvancedXml(
  file: string,
  warnings: string[],
): Promise<{ records: ListRecord[]; publishedAt?: string }> {
  const refs = new Map<string, Map<string, RefValue>>();
  const locations = new Map<string, LocationInfo>();
  const docsByIdentity = new Map<string, IdDoc[]>();
  const records = new Map<string, ListRecord>();
  let publishedAt: string | undefined;
  const base = path.basename(file);

  const ref = (table: string, id: string | undefined): RefValue | undefined =>
    id === undefined ? undefined : refs.get(table)?.get(id);
  const refText = (table: string, id: string | undefined): string | undefined => ref(table, id)?.text;
  const countryOf = (countryId: string | undefined): { code?: string; name?: string } => {
    const c = ref('Country', countryId);
    if (!c) return {};
    const code = c.attrs.ISO2 && /^[A-Z]{2}$/.test(c.attrs.ISO2) ? c.attrs.ISO2 : countryCode(c.text);
    return code ? { code, name: c.text } : { name: c.text };
  };

  function onLocation(node: XmlNode): void {
    const info: LocationInfo = { parts: [] };
    const countryId =
      child(node, 'LocationCountry')?.attrs.CountryID ??
      ref('AreaCode', child(node, 'LocationAreaCode')?.attrs.AreaCodeID)?.attrs.CountryID;
    const country = countryOf(countryId);
    if (country.code) info.country = country.code;
    if (country.name) info.countryName = country.name;
    for (const part of children(node, 'LocationPart')) {
      const values = children(part, 'LocationPartValue');
      const value = (values.find((v) => v.attrs.Primary === 'true') ?? values[0])?.children.find(
        (c) => c.name === 'Value',
      )?.text;
      const type = refText('LocPartType', part.attrs.LocPartTypeID) ?? 'Unknown';
      if (value) info.parts.push({ type: type.toUpperCase(), value });
    }
    if (node.attrs.ID) locations.set(node.attrs.ID, info);
  }

  function onIdDoc(node: XmlNode): void {
    const identity = node.attrs.IdentityID;
    const number = childText(node, 'IDRegistrationNo');
    const type = refText('IDRegDocType', node.attrs.IDRegDocTypeID);
    if (!identity || !number || !type) return;
    const doc: IdDoc = { type, number, notes: [] };
    const countryName = countryOf(node.attrs['IssuedBy-CountryID']).name;
    if (countryName) doc.countryName = countryName;
    for (const date of children(node, 'DocumentDate')) {
      const label = (refText('IDRegDocDateType', date.attrs.IDRegDocDateTypeID) ?? 'date').toLowerCase();
      const period = child(date, 'DatePeriod');
      const value = period ? datePeriodToDates(period)[0]?.date : undefined;
      if (value)
        doc.notes.push(`${label.includes('expir') ? 'expires' : label.includes('issue') ? 'issued' : label} ${value}`);
    }
    const authority = childText(node, 'IssuingAuthority');
    if (authority) doc.notes.push(`issued by ${authority}`);
    const list = docsByIdentity.get(identity);
    if (list) list.push(doc);
    else docsByIdentity.set(identity, [doc]);
  }

  function locationAddress(loc: LocationInfo): Address | undefined {
    const order = ['ADDRESS1', 'ADDRESS2', 'ADDRESS3', 'CITY', 'STATE/PROVINCE', 'POSTAL CODE', 'REGION', 'UNKNOWN'];
    const parts = [...loc.parts].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
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

  function partyType(profile: XmlNode): EntityType {
    const sub = ref('PartySubType', profile.attrs.PartySubTypeID);
    const type = (refText('PartyType', sub?.attrs.PartyTypeID) ?? '').toLowerCase();
    const subText = (sub?.text ?? '').toLowerCase();
    if (type === 'individual') return 'person';
    if (subText === 'vessel') return 'vessel';
    if (subText === 'aircraft') return 'aircraft';
    return 'organization';
  }

  function onParty(party: XmlNode): void {
    const profile = child(party, 'Profile');
    const id = profile?.attrs.ID ?? party.attrs.FixedRef;
    if (!profile || !id) {
      warnings.push(`${base}: DistinctParty ${party.attrs.FixedRef ?? '?'} without a Profile skipped`);
      return;
    }
    const type = partyType(profile);
    const person = type === 'person';
    const names: {
      name: string;
      primary: boolean;
      quality: 'strong' | 'weak';
      kind: 'aka' | 'fka' | 'nka';
      script?: string;
    }[] = [];
    const identityIds: string[] = [];
    for (const identity of children(profile, 'Identity')) {
      if (identity.attrs.ID) identityIds.push(identity.attrs.ID);
      const groupType = new Map<string, string>();
      for (const master of children(child(identity, 'NamePartGroups'), 'MasterNamePartGroup')) {
        for (const group of children(master, 'NamePartGroup')) {
          if (group.attrs.ID) groupType.set(group.attrs.ID, refText('NamePartType', group.attrs.NamePartTypeID) ?? '');
        }
      }
      for (const alias of children(identity, 'Alias')) {
        const aliasType = (refText('AliasType', alias.attrs.AliasTypeID) ?? '').toUpperCase();
        const kind = aliasType.startsWith('F') ? 'fka' : aliasType.startsWith('N.') ? 'nka' : 'aka';
        const quality = alias.attrs.LowQuality === 'true' ? 'weak' : 'strong';
        for (const documented of children(alias, 'DocumentedName')) {
          const last: string[] = [];
          const rest: string[] = [];
          let script: string | undefined;
          for (const part of children(documented, 'DocumentedNamePart')) {
            const value = child(part, 'NamePartValue');
            if (!value?.text) continue;
            const partType = (groupType.get(value.attrs.NamePartGroupID ?? '') ?? '').toLowerCase();
            const scriptName = refText('Script', value.attrs.ScriptID);
            if (scriptName && scriptName.toLowerCase() !== 'latin') script = scriptName;
            if (person && partType === 'last name') last.push(value.text);
            else rest.push(value.text);
          }
          const name =
            last.length && rest.length ? `${last.join(' ')}, ${rest.join(' ')}` : clean([...last, ...rest].join(' '));
          if (!name) continue;
          const entry: (typeof names)[number] = { name, primary: alias.attrs.Primary === 'true', quality, kind };
          if (script) entry.script = script;
          names.push(entry);
        }
      }
    }
    const primary = names.find((n) => n.primary && !n.script) ?? names.find((n) => n.primary) ?? names[0];
    if (!primary) {
      warnings.push(`${base}: party ${id} without a name skipped`);
      return;
    }
    const record = emptyRecord('us_ofac', id, type, primary.name);
    record.sourceUrl = OFAC_DETAILS_URL + id;
    addNaturalOrder(record, primary.name, 'strong');
    for (const n of names) {
      if (n === primary) continue;
      // Other documented forms of the primary name (another script) are variations of it.
      addAlias(record, n.name, n.quality, n.primary ? 'variation' : n.kind, n.script);
      addNaturalOrder(record, n.name, n.quality);
    }

    for (const feature of children(profile, 'Feature')) {
      const featureType = refText('FeatureType', feature.attrs.FeatureTypeID) ?? '';
      const ft = featureType.toLowerCase();
      for (const version of children(feature, 'FeatureVersion')) {
        const detailNode = child(version, 'VersionDetail');
        const detail = detailNode?.text || refText('DetailReference', detailNode?.attrs.DetailReferenceID);
        const locId = child(version, 'VersionLocation')?.attrs.LocationID;
        const loc = locId ? locations.get(locId) : undefined;
        const period = child(version, 'DatePeriod');
        if (ft === 'birthdate') {
          if (period) addDates(record.birthDates, datePeriodToDates(period));
        } else if (ft === 'place of birth') {
          addUnique(
            record.birthPlaces,
            detail ?? (loc && clean([...loc.parts.map((p) => p.value), loc.countryName].join(', '))),
          );
        } else if (ft === 'nationality country' || ft === 'nationality of registration' || ft.endsWith('vessel flag')) {
          if (ft.startsWith('former')) continue;
          addUnique(record.nationalities, locationCountry(loc, detail));
        } else if (ft === 'citizenship country') {
          addUnique(record.citizenships, locationCountry(loc, detail));
        } else if (ft === 'gender') {
          const g = genderOf(detail);
          if (g) record.gender = g;
        } else if (ft === 'location' || ft === 'address') {
          const address = loc && locationAddress(loc);
          if (address) record.addresses.push(address);
        } else if (ft === 'title') {
          if (detail) {
            record.titles ??= [];
            addUnique(record.titles, detail);
          }
        } else if (detail) {
          applyLabeledId(record, featureType, detail, undefined);
        }
      }
    }

    for (const identityId of identityIds) {
      for (const doc of docsByIdentity.get(identityId) ?? []) {
        applyLabeledId(record, doc.type, doc.number, doc.countryName, doc.notes);
      }
      docsByIdentity.delete(identityId);
    }
    if (records.has(id)) warnings.push(`${base}: profile ${id} repeated; the last one kept`);
    records.set(id, record);
  }

  function onEntry(entry: XmlNode): void {
    const record = records.get(entry.attrs.ProfileID ?? '');
    if (!record) {
      warnings.push(
        `${base}: SanctionsEntry ${entry.attrs.ID ?? '?'} for unknown profile ${entry.attrs.ProfileID ?? '?'}`,
      );
      return;
    }
    for (const measure of children(entry, 'SanctionsMeasure')) {
      const type = (refText('SanctionsType', measure.attrs.SanctionsTypeID) ?? '').toLowerCase();
      if (type === 'program') addUnique(record.programs, childText(measure, 'Comment'));
    }
    for (const event of children(entry, 'EntryEvent')) {
      const d = datePoint(child(event, 'Date'));
      if (!d) continue;
      const date = `${d.y}-${p2(d.m)}-${p2(d.d)}`;
      // A party on several lists keeps its first listing.
      if (!record.listingDate || date < record.listingDate) record.listingDate = date;
    }
  }

  await streamXml(file, {
    open(name, _attrs, stack) {
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
    },
    node(node) {
      switch (node.name) {
        case 'DateOfIssue': {
          const d = datePoint(node);
          if (d) publishedAt = `${d.y}-${p2(d.m)}-${p2(d.d)}`;
          break;
        }
        case 'Location':
          onLocation(node);
          break;
        case 'IDRegDocument':
          onIdDoc(node);
          break;
        case 'DistinctParty':
          onParty(node);
          break;
        case 'SanctionsEntry':
          onEntry(node);
          break;
        default: {
          // A reference table such as <AliasTypeValues>: its rows are keyed by their element name.
          for (const row of node.children) {
            if (!row.attrs.ID) continue;
            let table = refs.get(row.name);
            if (!table) refs.set(row.name, (table = new Map()));
            table.set(row.attrs.ID, { text: row.text, attrs: row.attrs });
          }
        }
      }
    },
  });
  for (const identityId of docsByIdentity.keys())
    warnings.push(`${base}: ID document for unknown identity ${identityId}`);
  const list = [...records.values()];
  return publishedAt ? { records: list, publishedAt } : { records: list };
}
