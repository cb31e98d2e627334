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
  const c = child(node, 'country');
  if (!c) return {};
  const name = clean(c.text);
  const iso = clean(c.attrs['iso-code']) ?? countryCode(name);
  return { iso: iso ? countryOrWording(iso) : undefined, name };
}

/** Whole name from name-parts in their order; titles are kept apart. */
function nameParts(name: XmlNode): { parts: { type: string; value: string; variants: XmlNode[] }[]; titles: string[] } {
  const parts: { order: number; type: string; value: string; variants: XmlNode[] }[] = [];
  const titles: string[] = [];
  for (const p of children(name, 'name-part')) {
    const value = childText(p, 'value') ?? clean(p.children.length ? '' : p.text);
    if (!value) continue;
    const type = p.attrs['name-part-type'] ?? 'other';
    if (type === 'title') {
      titles.push(value);
      continue;
    }
    parts.push({
      order: Number(p.attrs.order ?? parts.length + 1),
      type,
      value,
      variants: children(p, 'spelling-variant'),
    });
  }
  parts.sort((a, b) => a.order - b.order);
  return { parts, titles };
}

function latestModification(target: XmlNode): string | undefined {
  let best: { date: string; type: string } | undefined;
  for (const m of children(target, 'modification')) {
    const date = m.attrs['effective-date'] ?? m.attrs['publication-date'] ?? m.attrs['enactment-date'] ?? '';
    const type = m.attrs['modification-type'] ?? '';
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
  let entityType: EntityType = 'organization';
  if (node.name === 'individual') entityType = 'person';
  else if (node.name === 'object') {
    const t = (node.attrs['object-type'] ?? '').toLowerCase();
    entityType = t === 'aircraft' ? 'aircraft' : t === 'vessel' ? 'vessel' : 'organization';
  }
  const identities = children(node, 'identity').sort(
    (a, b) => Number(b.attrs.main === 'true') - Number(a.attrs.main === 'true'),
  );
  const main = identities[0];
  const mainNames = children(main, 'name');
  const primaryNode = mainNames.find((n) => n.attrs['name-type'] === 'primary-name') ?? mainNames[0];
  const primary = primaryNode ? nameParts(primaryNode) : undefined;
  const primaryName = primary ? joinParts(primary.parts.map((p) => p.value)) : '';
  if (!primaryName) {
    warnings.push(`target ${id} has no name; skipped`);
    return undefined;
  }
  const record = emptyRecord('ch_seco', id, entityType, primaryName);
  const titles: string[] = [];
  for (const identity of identities) {
    for (const n of children(identity, 'name')) {
      const { parts, titles: t } = nameParts(n);
      t.forEach((x) => addUnique(titles, x));
      const quality = n.attrs.quality === 'low' ? 'weak' : 'strong';
      const type = n.attrs['name-type'] ?? '';
      const kind: NameKind = type === 'formerly-known-as' ? 'fka' : 'aka';
      if (n !== primaryNode) addAlias(record, joinParts(parts.map((p) => p.value)), quality, kind);
      // A spelling variant of one part (another transliteration, Cyrillic...) gives a variant of the whole name.
      parts.forEach((p, i) => {
        for (const v of p.variants) {
          const variant = clean(v.text);
          if (!variant) continue;
          const whole = joinParts(parts.map((q, j) => (j === i ? variant : q.value)));
          addAlias(record, whole, quality, n === primaryNode ? 'variation' : kind);
        }
      });
    }
    for (const d of children(identity, 'day-month-year')) {
      const date = partialDate(Number(d.attrs.year), Number(d.attrs.month), Number(d.attrs.day));
      if (!date) continue;
      const approximate = /approx|circa|low/i.test(d.attrs.quality ?? '');
      if (entityType === 'person') addDates(record.birthDates, [{ date, approximate }]);
    }
    for (const nat of children(identity, 'nationality')) {
      const c = countryOf(nat);
      addUnique(record.nationalities, c.iso ?? c.name);
    }
    for (const pob of children(identity, 'place-of-birth')) {
      const inline = joinParts([childText(pob, 'location'), childText(pob, 'area'), countryOf(pob).name], ', ');
      if (inline) addUnique(record.birthPlaces, inline);
      else if (pob.attrs['place-id']) refs.push({ record, placeId: pob.attrs['place-id'], kind: 'birth' });
    }
    for (const a of children(identity, 'address')) {
      const poBox = childText(a, 'p-o-box');
      const details = joinParts(
        [
          childText(a, 'c-o') && `c/o ${childText(a, 'c-o')}`,
          childText(a, 'address-details'),
          poBox && `P.O. Box ${poBox}`,
          childText(a, 'zip-code'),
        ],
        ', ',
      );
      const inlineCountry = countryOf(a);
      if (a.attrs['place-id'] && !inlineCountry.name && !childText(a, 'location')) {
        refs.push({ record, placeId: a.attrs['place-id'], kind: 'address', details });
        continue;
      }
      const address = makeAddress({
        text: joinParts([details, childText(a, 'location'), childText(a, 'area')], ', '),
        city: childText(a, 'location'),
        country: inlineCountry.iso,
        countryName: inlineCountry.name,
      });
      if (address) record.addresses.push(address);
    }
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
  if (titles.length) record.titles = titles;
  const gender = genderOf(node.attrs.sex);
  if (gender) record.gender = gender;
  const remarks: string[] = [];
  for (const j of children(node, 'justification')) addUnique(remarks, clean(j.text));
  for (const o of children(node, 'other-information')) {
    const text = clean(o.text);
    if (!text) continue;
    addUnique(remarks, text);
    addLabelledIdentifiers(record, text, IMO_LABEL);
  }
  if (remarks.length) record.remarks = remarks.join('\n');
  for (const s of children(target, 'sanctions-set-id'))
    addUnique(record.programs, programs.get(clean(s.text) ?? '') ?? clean(s.text));
  for (const f of children(target, 'foreign-identifier')) {
    const v = clean(f.text);
    if (!v) continue;
    // UN-listed targets carry the UN reference (e.g. "QDi.004"); others an internal number.
    addIdentifier(
      record,
      /^[A-Z]{2,3}[a-z]?\.\d+$/.test(v)
        ? { type: 'un_ref', value: v }
        : { type: 'other', kind: 'list_reference', value: v, label: 'foreign identifier' },
    );
  }
  addIdentifier(record, { type: 'other', kind: 'list_reference', value: id, label: 'SECO ssid' });
  const listed = listingDate(target);
  if (listed) record.listingDate = listed;
  return record;
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
        if (node.name === 'sanctions-program') {
          const eng = (n: string): string | undefined =>
            clean(children(node, n).find((k) => k.attrs.lang === 'eng')?.text) ?? childText(node, n);
          const label = eng('program-key') ?? eng('program-name') ?? node.attrs.ssid ?? '';
          for (const set of children(node, 'sanctions-set')) if (set.attrs.ssid) programs.set(set.attrs.ssid, label);
        } else if (node.name === 'place') {
          const c = countryOf(node);
          const place: Place = {};
          if (childText(node, 'location')) place.location = childText(node, 'location')!;
          if (childText(node, 'area')) place.area = childText(node, 'area')!;
          if (c.iso) place.country = c.iso;
          if (c.name) place.countryName = c.name;
          if (node.attrs.ssid) places.set(node.attrs.ssid, place);
        } else if (node.name === 'target') {
          if (latestModification(node) === 'de-listed') {
            delisted++;
            return;
          }
          const r = buildTarget(node, programs, refs, warnings);
          if (r) records.push(r);
        }
      },
    });
    for (const ref of refs) {
      const place = places.get(ref.placeId);
      if (!place) {
        warnings.push(`target ${ref.record.id}: unknown place-id ${ref.placeId}`);
        continue;
      }
      if (ref.kind === 'birth') {
        addUnique(
          ref.record.birthPlaces,
          joinParts([place.location, place.area, place.countryName], ', ') || undefined,
        );
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
