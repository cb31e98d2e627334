/**
 * Canada: Consolidated Canadian Autonomous Sanctions List (SEMA / JVCFOA), sema-lmes.xml.
 * Flat <record> elements; the 2020 schema names three fields differently (Entity, Title, DateOfBirth).
 */
import path from 'node:path';
import {
  emptyRecord,
  type EntityType,
  type ListRecord,
  type ParsedList,
  SOURCE_LABELS,
  type SourceAdapter,
} from '../model.js';
import {
  addAlias,
  addDates,
  addIdentifier,
  addUnique,
  childText,
  clean,
  findDates,
  finishRecord,
  joinParts,
  readListDir,
  streamXmlChildren,
  type XmlNode,
} from './kit/index.js';

/**
 * Aliases are one comma-separated string that may label original-script forms by language
 * ("Belarusian: Руслан ..., Russian: Руслан ..."); the label is dropped, the script detected.
 */
function splitAliases(text: string): string[] {
  return text
    .split(/\s*[,;]\s*(?![^()]*\))/)
    .map((a) => clean(a.replace(/^[A-Z][a-z]+(?:\s[A-Z][a-z]+)?\s*:\s*/, '')))
    .filter((a): a is string => !!a);
}

function buildRecord(node: XmlNode, warnings: string[]): ListRecord | undefined {
  const regime = childText(node, 'Country');
  const schedule = childText(node, 'Schedule');
  const item = childText(node, 'Item');
  const entityName = childText(node, 'EntityOrShip') ?? childText(node, 'Entity');
  const personName = joinParts([childText(node, 'GivenName'), childText(node, 'LastName')]);
  const name = personName || entityName;
  // Items are numbered per regime and schedule, so the three together identify an entry.
  const id = [regime?.split('/')[0]?.trim(), schedule, item].filter(Boolean).join('|');
  if (!name || !item) {
    warnings.push(`record ${id || '?'} has no name or item; skipped`);
    return undefined;
  }
  const imo = childText(node, 'ShipIMONumber');
  const entityType: EntityType = personName ? 'person' : imo ? 'vessel' : 'organization';
  const record = emptyRecord('ca_gac', id, entityType, name);
  if (personName && entityName) addAlias(record, entityName, 'strong', 'aka');
  for (const alias of splitAliases(childText(node, 'Aliases') ?? '')) addAlias(record, alias, 'strong', 'aka');
  const titleOrShip = childText(node, 'TitleOrShip') ?? childText(node, 'Title');
  const born = childText(node, 'DateOfBirthOrShipBuildDate') ?? childText(node, 'DateOfBirth');
  if (entityType === 'person') {
    if (titleOrShip) record.titles = [titleOrShip];
    addDates(record.birthDates, findDates(born));
  } else {
    // For ships the same fields hold the vessel type and the build year, which are not birth data.
    const details = [titleOrShip && `Type: ${titleOrShip}`, born && `Built: ${born}`].filter(Boolean);
    if (details.length) record.remarks = details.join('; ');
  }
  if (imo) addIdentifier(record, { type: 'imo', value: imo, label: 'ShipIMONumber' });
  addUnique(record.programs, regime);
  const listed = childText(node, 'DateOfListing');
  if (listed && /^\d{4}-\d{2}-\d{2}/.test(listed)) record.listingDate = listed.slice(0, 10);
  const ref = joinParts([schedule && `Schedule ${schedule}`, `Item ${item}`], ', ');
  addIdentifier(record, { type: 'other', kind: 'list_reference', value: ref, label: 'Schedule and item' });
  return finishRecord(record);
}

export const caGacAdapter: SourceAdapter = {
  source: 'ca_gac',
  label: SOURCE_LABELS.ca_gac,
  publisherFiles: [
    {
      fileName: 'sema-lmes.xml',
      url: 'https://www.international.gc.ca/world-monde/assets/office_docs/international_relations-relations_internationales/sanctions/sema-lmes.xml',
    },
  ],
  async parse(dir: string): Promise<ParsedList> {
    const warnings: string[] = [];
    const file = (await readListDir(dir)).choose(/\.xml$/, /^sema-lmes\.xml$/i, warnings);
    if (!file) throw new Error(`ca_gac: no sema-lmes.xml in ${dir}`);
    const records: ListRecord[] = [];
    const seen = new Set<string>();
    let latestListing: string | undefined;
    await streamXmlChildren(file, {
      root(name) {
        if (name !== 'data-set') throw new Error(`${path.basename(file)}: root <${name}> is not a SEMA <data-set>`);
      },
      child(node) {
        if (node.name !== 'record') return;
        const record = buildRecord(node, warnings);
        if (!record) return;
        if (seen.has(record.id)) {
          warnings.push(`duplicate entry ${record.id}; kept both with a suffix`);
          record.id = `${record.id}#${records.length}`;
        }
        seen.add(record.id);
        if (record.listingDate && (!latestListing || record.listingDate > latestListing))
          latestListing = record.listingDate;
        records.push(record);
      },
    });
    if (records.length === 0) throw new Error(`ca_gac: ${path.basename(file)} holds no records`);
    const oldSchema = !latestListing;
    if (oldSchema) warnings.push('older SEMA schema without DateOfListing: no listing dates, no publication date');
    return {
      source: 'ca_gac',
      // The file carries no date of its own; the newest listing is the closest publisher date.
      publishedAt: latestListing,
      files: [path.basename(file)],
      format: oldSchema ? 'GAC SEMA XML (2020 schema)' : 'GAC SEMA XML',
      records,
      warnings,
    };
  },
};
