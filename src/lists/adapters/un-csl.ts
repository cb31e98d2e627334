/**
 * UN Security Council Consolidated List, XML (`consolidated.xml`, sc-sanctions.xsd).
 * Each INDIVIDUAL / ENTITY is captured on its own while the file streams through saxes.
 */
import path from 'node:path';
import { emptyRecord, type Identifier, type ListRecord, type ParsedList, type SourceAdapter } from '../model.js';
import {
  addAlias,
  addDates,
  addIdentifier,
  addLabelledIdentifiers,
  addUnique,
  children,
  childText,
  classifyIdLabel,
  clean,
  countryCode,
  countryOrWording,
  firstIsoDay,
  genderOf,
  IMO_LABEL,
  joinParts,
  makeAddress,
  parseDate,
  readListDir,
  scriptOf,
  streamXml,
  type XmlNode,
  yearsBetween,
} from './kit/index.js';

const UN_URL = 'https://scsanctions.un.org/resources/xml/en/consolidated.xml';

function values(node: XmlNode, name: string): string[] {
  const out: string[] = [];
  for (const holder of children(node, name)) {
    for (const value of children(holder, 'VALUE')) addUnique(out, value.text);
  }
  return out;
}

function birthDates(record: ListRecord, dob: XmlNode): void {
  const type = childText(dob, 'TYPE_OF_DATE')?.toUpperCase();
  const from = Number(childText(dob, 'FROM_YEAR'));
  const to = Number(childText(dob, 'TO_YEAR'));
  if (from > 0 && to > 0) {
    addDates(record.birthDates, yearsBetween(from, to));
    return;
  }
  const raw = childText(dob, 'DATE') ?? childText(dob, 'YEAR');
  const dates = parseDate(firstIsoDay(raw) ?? raw);
  const approximate = type === 'APPROXIMATELY' || type === 'BETWEEN';
  addDates(record.birthDates, approximate ? dates.map((d) => ({ date: d.date, approximate: true })) : dates);
}

/**
 * Numbers the comments give with a label, besides shipping companies' IMO numbers (the kit's
 * IMO_LABEL): a company's registration ("Business Registration Number LL06889", "Hong Kong company
 * registration number 1177053"), an alias's passport ("diplomatic passport number 836110034").
 */
const COMMENT_LABELS =
  /\b(?:business |company )?registration number\s*:?\s*|\b(?:diplomatic )?passport number\s*:?\s*/gi;

function toRecord(node: XmlNode, warnings: string[]): ListRecord | undefined {
  const isEntity = node.name === 'ENTITY';
  const dataId = childText(node, 'DATAID');
  const name = clean(
    ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'].map((n) => childText(node, n) ?? '').join(' '),
  );
  if (!dataId || !name) {
    warnings.push(`${node.name} without DATAID or name skipped (DATAID ${dataId ?? '?'})`);
    return undefined;
  }
  const record = emptyRecord('un_csl', dataId, isEntity ? 'organization' : 'person', name);
  record.sourceUrl = UN_URL;

  const ref = childText(node, 'REFERENCE_NUMBER');
  if (ref) addIdentifier(record, { type: 'un_ref', value: ref, label: 'UN reference number' });
  addUnique(record.programs, childText(node, 'UN_LIST_TYPE'));
  const listed = firstIsoDay(childText(node, 'LISTED_ON'));
  if (listed) record.listingDate = listed;
  const gender = genderOf(childText(node, 'GENDER'));
  if (gender) record.gender = gender;
  const remarks = clean(childText(node, 'COMMENTS1'));
  if (remarks) {
    record.remarks = remarks;
    addLabelledIdentifiers(record, remarks, COMMENT_LABELS);
    addLabelledIdentifiers(record, remarks, IMO_LABEL);
  }
  const titles = values(node, 'TITLE');
  if (titles.length) record.titles = titles;
  const positions = values(node, 'DESIGNATION');
  if (positions.length) record.positions = positions;
  for (const nat of values(node, 'NATIONALITY')) addUnique(record.nationalities, countryOrWording(nat));

  const original = clean(childText(node, 'NAME_ORIGINAL_SCRIPT'));
  if (original) addAlias(record, original, 'strong', 'variation', scriptOf(original) ?? 'Latin');

  for (const alias of children(node, isEntity ? 'ENTITY_ALIAS' : 'INDIVIDUAL_ALIAS')) {
    const quality = (childText(alias, 'QUALITY') ?? '').toLowerCase();
    const aliasName = childText(alias, 'ALIAS_NAME');
    addAlias(record, aliasName, quality === 'low' ? 'weak' : 'strong', quality === 'f.k.a.' ? 'fka' : 'aka');
    // Some aliases carry the birth details used under that name.
    addDates(record.birthDates, parseDate(firstIsoDay(childText(alias, 'DATE_OF_BIRTH'))));
    const pob = joinParts([childText(alias, 'CITY_OF_BIRTH'), childText(alias, 'COUNTRY_OF_BIRTH')], ', ');
    addUnique(record.birthPlaces, pob);
  }

  for (const address of children(node, isEntity ? 'ENTITY_ADDRESS' : 'INDIVIDUAL_ADDRESS')) {
    const city = childText(address, 'CITY');
    const text = joinParts(
      [childText(address, 'STREET'), city, childText(address, 'STATE_PROVINCE'), childText(address, 'ZIP_CODE')],
      ', ',
    );
    const out = makeAddress({ text, city, countryName: childText(address, 'COUNTRY') });
    if (out) record.addresses.push(out);
  }

  for (const dob of children(node, 'INDIVIDUAL_DATE_OF_BIRTH')) birthDates(record, dob);
  for (const pob of children(node, 'INDIVIDUAL_PLACE_OF_BIRTH')) {
    addUnique(
      record.birthPlaces,
      joinParts([childText(pob, 'CITY'), childText(pob, 'STATE_PROVINCE'), childText(pob, 'COUNTRY')], ', '),
    );
  }

  for (const doc of children(node, 'INDIVIDUAL_DOCUMENT')) {
    const number = childText(doc, 'NUMBER');
    if (!number) continue;
    const label = clean(childText(doc, 'TYPE_OF_DOCUMENT'));
    const countryName = childText(doc, 'ISSUING_COUNTRY') ?? childText(doc, 'COUNTRY_OF_ISSUE');
    const notes = [
      childText(doc, 'TYPE_OF_DOCUMENT2'),
      childText(doc, 'DATE_OF_ISSUE') && `issued ${firstIsoDay(childText(doc, 'DATE_OF_ISSUE'))}`,
      childText(doc, 'CITY_OF_ISSUE') && `in ${childText(doc, 'CITY_OF_ISSUE')}`,
      childText(doc, 'NOTE'),
    ].filter(Boolean);
    const id: Identifier = { ...classifyIdLabel(label ?? ''), value: number };
    if (label) id.label = label;
    const country = countryCode(countryName);
    if (country) id.country = country;
    if (notes.length) id.note = clean(notes.join('; '));
    addIdentifier(record, id);
  }
  return record;
}

export async function parseUnXml(file: string): Promise<ParsedList> {
  const records: ListRecord[] = [];
  const warnings: string[] = [];
  let publishedAt: string | undefined;
  let root: string | undefined;
  await streamXml(file, {
    open(name, attrs, stack) {
      if (stack.length === 0) {
        root = name;
        if (name !== 'CONSOLIDATED_LIST') throw new Error(`root element is <${name}>, expected <CONSOLIDATED_LIST>`);
        publishedAt = firstIsoDay(attrs.dateGenerated);
        return false;
      }
      return (name === 'INDIVIDUAL' || name === 'ENTITY') && stack.length === 2;
    },
    node(node) {
      const record = toRecord(node, warnings);
      if (record) records.push(record);
    },
  });
  if (!root) throw new Error(`${path.basename(file)}: not a UN consolidated list`);
  const result: ParsedList = {
    source: 'un_csl',
    files: [path.basename(file)],
    format: 'UN Security Council consolidated list XML',
    records,
    warnings,
  };
  if (publishedAt) result.publishedAt = publishedAt;
  return result;
}

export const unCslAdapter: SourceAdapter = {
  source: 'un_csl',
  label: 'UN Security Council Consolidated List',
  publisherFiles: [{ fileName: 'consolidated.xml', url: UN_URL }],
  async parse(dir: string): Promise<ParsedList> {
    const file = (await readListDir(dir)).named('consolidated.xml');
    if (!file) throw new Error(`un_csl: no consolidated.xml in ${dir}`);
    return parseUnXml(file);
  },
};
