/**
 * Switzerland: SECO's swiss-sanctions-list XML. Programs come first, then targets (individual,
 * entity or object), then the places that addresses and places of birth point to by place-id.
 */
import path from 'node:path';
import {
  emptyRecord,
  type EntityType,
  type ListRecord,
  type NameKind,
  type ParsedList,
  SOURCE_LABELS,
  type SourceAdapter,
} from '../model.js';
import {
  addAlias,
  addDates,
  addIdentifier,
  addLabelledIdentifiers,
  addUnique,
  child,
  children,
  childText,
  classifyIdLabel,
  clean,
  countryCode,
  countryOrWording,
  finishRecord,
  genderOf,
  IMO_LABEL,
  joinParts,
  makeAddress,
  partialDate,
  readListDir,
  streamXmlChildren,
  type XmlNode,
} from './kit/index.js';

interface Place {
  location?: string;
  area?: string;
  country?: string;
  countryName?: string;
}

/** A reference to a <place> not yet seen (places follow the targets in the file). */
interface PlaceRef {
  record: ListRecord;
  placeId: string;
  kind: 'address' | 'birth';
  details?: string;
}

function countryOf(node: XmlNode | undefined): { iso?: string; name?: string } {
  const country = child(node, 'country');
  if (!country) return {};
  const name = clean(country.text);
  const iso = clean(country.attrs['iso-code']) ?? countryCode(name);
  return { iso: iso ? countryOrWording(iso) : undefined, name };
}

/** Whole name from name-parts in their order; titles are kept apart. */
function nameParts(name: XmlNode): { parts: { type: string; value: string; variants: XmlNode[] }[]; titles: string[] } {
  const parts: { order: number; type: string; value: string; variants: XmlNode[] }[] = [];
  const titles: string[] = [];
  for (const part of children(name, 'name-part')) {
    const value = childText(part, 'value') ?? clean(part.children.length ? '' : part.text);
    if (!value) continue;
    const type = part.attrs['name-part-type'] ?? 'other';
    if (type === 'title') {
      titles.push(value);
      continue;
    }
    parts.push({
      order: Number(part.attrs.order ?? parts.length + 1),
      type,
      value,
      variants: children(part, 'spelling-variant'),
    });
  }
  parts.sort((a, b) => a.order - b.order);
  return { parts, titles };
}

function latestModification(target: XmlNode): string | undefined {
  let best: { date: string; type: string } | undefined;
  for (const modification of children(target, 'modification')) {
    const date =
      modification.attrs['effective-date'] ??
      modification.attrs['publication-date'] ??
      modification.attrs['enactment-date'] ??
      '';
    const type = modification.attrs['modification-type'] ?? '';
    if (!best || date > best.date) best = { date, type };
  }
  return best?.type;
}

function listingDate(target: XmlNode): string | undefined {
  const listed = children(target, 'modification').filter((m) => m.attrs['modification-type'] === 'listed');
  const dates = listed
    .map((m) => m.attrs['publication-date'] ?? m.attrs['effective-date'])
    .filter((d): d is string => !!d && /^\d{4}-\d{2}-\d{2}/.test(d))
    .sort();
  return dates[0]?.slice(0, 10);
}

function entityTypeOf(node: XmlNode): EntityType {
  if (node.name === 'individual') return 'person';
  if (node.name !== 'object') return 'organization';
  const objectType = (node.attrs['object-type'] ?? '').toLowerCase();
  return objectType === 'aircraft' ? 'aircraft' : objectType === 'vessel' ? 'vessel' : 'organization';
}

/** Aliases of one identity: every name but the primary one, and a variant per spelling variant of a part. */
function addIdentityNames(record: ListRecord, identity: XmlNode, primaryNode: XmlNode, titles: string[]): void {
  for (const nameNode of children(identity, 'name')) {
    const { parts, titles: nameTitles } = nameParts(nameNode);
    nameTitles.forEach((title) => addUnique(titles, title));
    const quality = nameNode.attrs.quality === 'low' ? 'weak' : 'strong';
    const type = nameNode.attrs['name-type'] ?? '';
    const kind: NameKind = type === 'formerly-known-as' ? 'fka' : 'aka';
    if (nameNode !== primaryNode) addAlias(record, joinParts(parts.map((p) => p.value)), quality, kind);
    // A spelling variant of one part (another transliteration, Cyrillic...) gives a variant of the whole name.
    parts.forEach((part, index) => {
      for (const variantNode of part.variants) {
        const variant = clean(variantNode.text);
        if (!variant) continue;
        const whole = joinParts(parts.map((q, j) => (j === index ? variant : q.value)));
        addAlias(record, whole, quality, nameNode === primaryNode ? 'variation' : kind);
      }
    });
  }
}

/** Dates and places of birth, nationalities; a place of birth given by place-id is resolved later. */
function addIdentityFacts(record: ListRecord, identity: XmlNode, refs: PlaceRef[]): void {
  for (const day of children(identity, 'day-month-year')) {
    const date = partialDate(Number(day.attrs.year), Number(day.attrs.month), Number(day.attrs.day));
    if (!date) continue;
    const approximate = /approx|circa|low/i.test(day.attrs.quality ?? '');
    if (record.entityType === 'person') addDates(record.birthDates, [{ date, approximate }]);
  }
  for (const nationality of children(identity, 'nationality')) {
    const country = countryOf(nationality);
    addUnique(record.nationalities, country.iso ?? country.name);
  }
  for (const pob of children(identity, 'place-of-birth')) {
    const inline = joinParts([childText(pob, 'location'), childText(pob, 'area'), countryOf(pob).name], ', ');
    if (inline) addUnique(record.birthPlaces, inline);
    else if (pob.attrs['place-id']) refs.push({ record, placeId: pob.attrs['place-id'], kind: 'birth' });
  }
}

/** Addresses written in place, or (place-id without a country or location) resolved later. */
function addIdentityAddresses(record: ListRecord, identity: XmlNode, refs: PlaceRef[]): void {
  for (const addressNode of children(identity, 'address')) {
    const poBox = childText(addressNode, 'p-o-box');
    const details = joinParts(
      [
        childText(addressNode, 'c-o') && `c/o ${childText(addressNode, 'c-o')}`,
        childText(addressNode, 'address-details'),
        poBox && `P.O. Box ${poBox}`,
        childText(addressNode, 'zip-code'),
      ],
      ', ',
    );
    const inlineCountry = countryOf(addressNode);
    if (addressNode.attrs['place-id'] && !inlineCountry.name && !childText(addressNode, 'location')) {
      refs.push({ record, placeId: addressNode.attrs['place-id'], kind: 'address', details });
      continue;
    }
    const address = makeAddress({
      text: joinParts([details, childText(addressNode, 'location'), childText(addressNode, 'area')], ', '),
      city: childText(addressNode, 'location'),
      country: inlineCountry.iso,
      countryName: inlineCountry.name,
    });
    if (address) record.addresses.push(address);
  }
}

function addIdentityDocuments(record: ListRecord, identity: XmlNode): void {
  for (const doc of children(identity, 'identification-document')) {
    const type = (doc.attrs['document-type'] ?? '').toLowerCase();
    const issuer = child(doc, 'issuer');
    const country = clean(issuer?.attrs.code) ?? countryCode(clean(issuer?.text));
    const note = joinParts(
      [childText(doc, 'remark'), childText(doc, 'date-of-issue') && `issued ${childText(doc, 'date-of-issue')}`],
      '; ',
    );
    addIdentifier(record, {
      ...classifyIdLabel(type.replace(/-/g, ' ')),
      value: childText(doc, 'number') ?? '',
      country: country ? countryOrWording(country) : undefined,
      label: type || undefined,
      note,
    });
  }
}

/** What the target says besides its identities: sex, remarks, programs, references and the listing date. */
function addTargetDetails(record: ListRecord, target: XmlNode, node: XmlNode, programs: Map<string, string>): void {
  const gender = genderOf(node.attrs.sex);
  if (gender) record.gender = gender;
  const remarks: string[] = [];
  for (const justification of children(node, 'justification')) addUnique(remarks, clean(justification.text));
  for (const other of children(node, 'other-information')) {
    const text = clean(other.text);
    if (!text) continue;
    addUnique(remarks, text);
    addLabelledIdentifiers(record, text, IMO_LABEL);
  }
  if (remarks.length) record.remarks = remarks.join('\n');
  for (const setId of children(target, 'sanctions-set-id'))
    addUnique(record.programs, programs.get(clean(setId.text) ?? '') ?? clean(setId.text));
  for (const foreign of children(target, 'foreign-identifier')) {
    const value = clean(foreign.text);
    if (!value) continue;
    // UN-listed targets carry the UN reference (e.g. "QDi.004"); others an internal number.
    addIdentifier(
      record,
      /^[A-Z]{2,3}[a-z]?\.\d+$/.test(value)
        ? { type: 'un_ref', value }
        : { type: 'other', kind: 'list_reference', value, label: 'foreign identifier' },
    );
  }
  addIdentifier(record, { type: 'other', kind: 'list_reference', value: target.attrs.ssid!, label: 'SECO ssid' });
  const listed = listingDate(target);
  if (listed) record.listingDate = listed;
}

function buildTarget(
  target: XmlNode,
  programs: Map<string, string>,
  refs: PlaceRef[],
  warnings: string[],
): ListRecord | undefined {
  const id = target.attrs.ssid;
  const node = child(target, 'individual') ?? child(target, 'entity') ?? child(target, 'object');
  if (!id || !node) {
    warnings.push(`target ${id ?? '?'} has no individual, entity or object; skipped`);
    return undefined;
  }
  const identities = children(node, 'identity').sort(
    (a, b) => Number(b.attrs.main === 'true') - Number(a.attrs.main === 'true'),
  );
  const mainNames = children(identities[0], 'name');
  const primaryNode = mainNames.find((n) => n.attrs['name-type'] === 'primary-name') ?? mainNames[0];
  const primary = primaryNode ? nameParts(primaryNode) : undefined;
  const primaryName = primary ? joinParts(primary.parts.map((p) => p.value)) : '';
  if (!primaryName) {
    warnings.push(`target ${id} has no name; skipped`);
    return undefined;
  }
  const record = emptyRecord('ch_seco', id, entityTypeOf(node), primaryName);
  const titles: string[] = [];
  for (const identity of identities) {
    addIdentityNames(record, identity, primaryNode!, titles);
    addIdentityFacts(record, identity, refs);
    addIdentityAddresses(record, identity, refs);
    addIdentityDocuments(record, identity);
  }
  if (titles.length) record.titles = titles;
  addTargetDetails(record, target, node, programs);
  return record;
}

function readPlace(node: XmlNode, places: Map<string, Place>): void {
  const country = countryOf(node);
  const place: Place = {};
  if (childText(node, 'location')) place.location = childText(node, 'location')!;
  if (childText(node, 'area')) place.area = childText(node, 'area')!;
  if (country.iso) place.country = country.iso;
  if (country.name) place.countryName = country.name;
  if (node.attrs.ssid) places.set(node.attrs.ssid, place);
}

function readProgram(node: XmlNode, programs: Map<string, string>): void {
  const english = (name: string): string | undefined =>
    clean(children(node, name).find((k) => k.attrs.lang === 'eng')?.text) ?? childText(node, name);
  const label = english('program-key') ?? english('program-name') ?? node.attrs.ssid ?? '';
  for (const set of children(node, 'sanctions-set')) if (set.attrs.ssid) programs.set(set.attrs.ssid, label);
}

/** Places follow the targets in the file: the references to them are resolved once all are read. */
function resolvePlaceRefs(refs: PlaceRef[], places: Map<string, Place>, warnings: string[]): void {
  for (const ref of refs) {
    const place = places.get(ref.placeId);
    if (!place) {
      warnings.push(`target ${ref.record.id}: unknown place-id ${ref.placeId}`);
      continue;
    }
    if (ref.kind === 'birth') {
      addUnique(ref.record.birthPlaces, joinParts([place.location, place.area, place.countryName], ', ') || undefined);
    } else {
      const address = makeAddress({
        text: joinParts([ref.details, place.location, place.area], ', '),
        city: place.location,
        country: place.country,
        countryName: place.countryName,
      });
      if (address) ref.record.addresses.push(address);
    }
  }
}

export const chSecoAdapter: SourceAdapter = {
  source: 'ch_seco',
  label: SOURCE_LABELS.ch_seco,
  publisherFiles: [
    {
      fileName: 'consolidated-list.xml',
      url: 'https://www.sesam.search.admin.ch/sesam-search-web/pages/downloadXmlGesamtliste.xhtml?lang=en&action=downloadXmlGesamtlisteAction',
    },
  ],
  async parse(dir: string): Promise<ParsedList> {
    const warnings: string[] = [];
    const file = (await readListDir(dir)).choose(/\.xml$/, /^consolidated-list\.xml$/i, warnings);
    if (!file) throw new Error(`ch_seco: no SECO XML file in ${dir}`);
    const programs = new Map<string, string>();
    const places = new Map<string, Place>();
    const refs: PlaceRef[] = [];
    const records: ListRecord[] = [];
    let listType = '';
    let publishedAt: string | undefined;
    let delisted = 0;
    await streamXmlChildren(file, {
      root(name, attrs) {
        if (name !== 'swiss-sanctions-list')
          throw new Error(`${path.basename(file)}: root <${name}> is not a <swiss-sanctions-list>`);
        listType = attrs['list-type'] ?? '';
        publishedAt = clean(attrs.date)?.slice(0, 10);
      },
      child(node) {
        if (node.name === 'sanctions-program') readProgram(node, programs);
        else if (node.name === 'place') readPlace(node, places);
        else if (node.name === 'target') {
          if (latestModification(node) === 'de-listed') {
            delisted++;
            return;
          }
          const record = buildTarget(node, programs, refs, warnings);
          if (record) records.push(record);
        }
      },
    });
    resolvePlaceRefs(refs, places, warnings);
    if (listType && listType !== 'whole-list') {
      warnings.push(
        `list-type "${listType}": this file holds only changes, not the whole list; do not use it as a full version`,
      );
    }
    if (delisted) warnings.push(`${delisted} de-listed targets skipped`);
    if (records.length === 0 && listType === 'whole-list')
      throw new Error(`ch_seco: ${path.basename(file)} holds no listed targets`);
    return {
      source: 'ch_seco',
      publishedAt,
      files: [path.basename(file)],
      format:
        listType === 'whole-list'
          ? 'SECO swiss-sanctions-list XML (whole list)'
          : `SECO swiss-sanctions-list XML (${listType || 'unknown list-type'})`,
      records: records.map(finishRecord),
      warnings,
    };
  },
};
