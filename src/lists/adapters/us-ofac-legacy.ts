/**
 * OFAC legacy CSV (SDN.CSV + ADD.CSV + ALT.CSV + SDN_COMMENTS.CSV, and the CONS_* equivalents)
 * and classic XML (SDN.XML / consolidated.xml, the sdnList schema).
 */
import path from 'node:path';
import { emptyRecord, type EntityType, type ListRecord } from '../model.js';
import {
  addAlias,
  addDates,
  addIdentifier,
  addNaturalOrder,
  addUnique,
  child,
  children,
  childText,
  clean,
  countryOrWording,
  entityTypeOf,
  genderOf,
  joinParts,
  makeAddress,
  parseDate,
  parseMdy,
  readCsvRows,
  streamXml,
  type XmlNode,
} from './kit/index.js';
import { applyLabeledId, applyRemarks } from './us-ofac-remarks.js';

export const OFAC_DETAILS_URL = 'https://sanctionssearch.ofac.treas.gov/Details.aspx?id=';

/** "SDGT] [IRGC] [IFSR" → ["SDGT", "IRGC", "IFSR"]. */
export function splitPrograms(raw: string | undefined): string[] {
  const text = clean(raw);
  if (!text) return [];
  return text
    .split(/\]\s*\[/)
    .map((p) => p.replace(/[[\]]/g, '').trim())
    .filter(Boolean);
}

function newOfacRecord(id: string, type: EntityType, name: string): ListRecord {
  const record = emptyRecord('us_ofac', id, type, name);
  record.sourceUrl = OFAC_DETAILS_URL + id;
  return record;
}

// ---------------------------------------------------------------------------------------------
// Legacy CSV

export interface LegacyFiles {
  primary: string;
  add?: string;
  alt?: string;
  comments?: string;
}

export async function parseOfacLegacyCsv(files: LegacyFiles, warnings: string[]): Promise<ListRecord[]> {
  const extended = new Map<string, string>();
  if (files.comments) {
    for await (const row of readCsvRows(files.comments, { encoding: 'windows-1252' })) {
      const id = clean(row[0]);
      // Remarks_Extended continues the truncated Remarks mid-word, so it is appended as is.
      if (id && /^\d+$/.test(id)) extended.set(id, (extended.get(id) ?? '') + (row[1] ?? ''));
    }
  }

  const records = new Map<string, ListRecord>();
  const base = path.basename(files.primary);
  let line = 0;
  for await (const row of readCsvRows(files.primary, { encoding: 'windows-1252' })) {
    line++;
    const id = clean(row[0]);
    if (!id || id === '\x1a') continue;
    if (!/^\d+$/.test(id) || row.length < 12) {
      if (line === 1 && records.size === 0)
        throw new Error(`${base}: not an OFAC legacy CSV (first row: ${row.join(',').slice(0, 80)})`);
      warnings.push(`${base} row ${line}: unreadable row skipped`);
      continue;
    }
    const name = clean(row[1]);
    if (!name) {
      warnings.push(`${base} row ${line}: entry ${id} without a name skipped`);
      continue;
    }
    const record = newOfacRecord(id, entityTypeOf(row[2]), name);
    addNaturalOrder(record, name, 'strong');
    for (const program of splitPrograms(row[3])) addUnique(record.programs, program);
    const title = clean(row[4]);
    if (title) record.titles = [title];
    const callSign = clean(row[5]);
    if (callSign) addIdentifier(record, { type: 'call_sign', value: callSign, label: 'Call Sign' });
    const flag = clean(row[9]);
    // The flag state is a vessel's nationality.
    if (flag) addUnique(record.nationalities, countryOrWording(flag));
    const remarks = clean(`${clean(row[11]) ?? ''}${extended.get(id) ?? ''}`);
    if (remarks) {
      record.remarks = remarks;
      applyRemarks(record, remarks);
    }
    if (records.has(id)) warnings.push(`${base}: ent_num ${id} repeated; the last row kept`);
    records.set(id, record);
  }
  if (records.size === 0) throw new Error(`${base}: no OFAC entries found`);

  if (files.alt) {
    for await (const row of readCsvRows(files.alt, { encoding: 'windows-1252' })) {
      const record = records.get(clean(row[0]) ?? '');
      const name = clean(row[3]);
      if (!record || !name) {
        if (clean(row[0]) && /^\d+$/.test(clean(row[0])!))
          warnings.push(`${path.basename(files.alt)}: alias of unknown ent_num ${row[0]}`);
        continue;
      }
      const type = (clean(row[2]) ?? 'aka').toLowerCase();
      addAlias(record, name, 'strong', type === 'fka' ? 'fka' : type === 'nka' ? 'nka' : 'aka');
      addNaturalOrder(record, name, 'strong');
    }
  }
  if (files.add) {
    for await (const row of readCsvRows(files.add, { encoding: 'windows-1252' })) {
      const record = records.get(clean(row[0]) ?? '');
      if (!record) {
        if (clean(row[0]) && /^\d+$/.test(clean(row[0])!))
          warnings.push(`${path.basename(files.add)}: address of unknown ent_num ${row[0]}`);
        continue;
      }
      const cityLine = clean(row[3]);
      const address = makeAddress({ text: joinParts([row[2], cityLine], ', '), city: cityLine, countryName: row[4] });
      if (address) record.addresses.push(address);
    }
  }
  return [...records.values()];
}

// ---------------------------------------------------------------------------------------------
// Classic XML (sdnList)

function joinName(first: string | undefined, last: string | undefined, person: boolean): string | undefined {
  const firstName = clean(first);
  const lastName = clean(last);
  if (person && firstName && lastName) return `${lastName}, ${firstName}`;
  return clean([firstName, lastName].filter(Boolean).join(' '));
}

function classicEntry(node: XmlNode, warnings: string[]): ListRecord | undefined {
  const uid = childText(node, 'uid');
  const type = entityTypeOf(childText(node, 'sdnType'));
  const person = type === 'person';
  const name = joinName(childText(node, 'firstName'), childText(node, 'lastName'), person);
  if (!uid || !name) {
    warnings.push(`sdnEntry without uid or name skipped (uid ${uid ?? '?'})`);
    return undefined;
  }
  const record = newOfacRecord(uid, type, name);
  addNaturalOrder(record, name, 'strong');
  const title = childText(node, 'title');
  if (title) record.titles = [title];
  for (const program of children(child(node, 'programList'), 'program')) addUnique(record.programs, program.text);

  for (const aka of children(child(node, 'akaList'), 'aka')) {
    const akaName = joinName(childText(aka, 'firstName'), childText(aka, 'lastName'), person);
    if (!akaName) continue;
    const quality = childText(aka, 'category')?.toLowerCase() === 'weak' ? 'weak' : 'strong';
    const kindText = (childText(aka, 'type') ?? '').toLowerCase();
    addAlias(record, akaName, quality, kindText.startsWith('f') ? 'fka' : kindText.startsWith('n') ? 'nka' : 'aka');
    addNaturalOrder(record, akaName, quality);
  }

  for (const id of children(child(node, 'idList'), 'id')) {
    const notes = [
      childText(id, 'issueDate') && `issued ${childText(id, 'issueDate')}`,
      childText(id, 'expirationDate') && `expires ${childText(id, 'expirationDate')}`,
    ].filter((n): n is string => !!n);
    applyLabeledId(record, childText(id, 'idType'), childText(id, 'idNumber'), childText(id, 'idCountry'), notes);
  }

  for (const address of children(child(node, 'addressList'), 'address')) {
    const city = childText(address, 'city');
    const parts = ['address1', 'address2', 'address3', 'city', 'stateOrProvince', 'postalCode'];
    const text = joinParts(
      parts.map((p) => childText(address, p)),
      ', ',
    );
    const out = makeAddress({ text, city, countryName: childText(address, 'country') });
    if (out) record.addresses.push(out);
  }
  for (const nationality of children(child(node, 'nationalityList'), 'nationality')) {
    const country = childText(nationality, 'country');
    if (country) addUnique(record.nationalities, countryOrWording(country));
  }
  for (const citizenship of children(child(node, 'citizenshipList'), 'citizenship')) {
    const country = childText(citizenship, 'country');
    if (country) addUnique(record.citizenships, countryOrWording(country));
  }
  for (const dateItem of children(child(node, 'dateOfBirthList'), 'dateOfBirthItem')) {
    const dates = parseDate(childText(dateItem, 'dateOfBirth'));
    if (dates.length) addDates(record.birthDates, dates);
    else warnings.push(`uid ${uid}: unreadable date of birth "${childText(dateItem, 'dateOfBirth')}"`);
  }
  for (const placeItem of children(child(node, 'placeOfBirthList'), 'placeOfBirthItem')) {
    addUnique(record.birthPlaces, childText(placeItem, 'placeOfBirth'));
  }
  const vessel = child(node, 'vesselInfo');
  if (vessel) {
    const callSign = childText(vessel, 'callSign');
    if (callSign) addIdentifier(record, { type: 'call_sign', value: callSign, label: 'Call Sign' });
    const flag = childText(vessel, 'vesselFlag');
    if (flag) addUnique(record.nationalities, countryOrWording(flag));
  }
  const remarks = clean(childText(node, 'remarks'));
  if (remarks) {
    record.remarks = remarks;
    applyRemarks(record, remarks);
  }
  const gender = record.gender ?? genderOf(undefined);
  if (gender) record.gender = gender;
  return record;
}

export async function parseOfacClassicXml(
  file: string,
  warnings: string[],
): Promise<{ records: ListRecord[]; publishedAt?: string }> {
  const records: ListRecord[] = [];
  let publishedAt: string | undefined;
  let declared: number | undefined;
  await streamXml(file, {
    open(name, _attrs, stack) {
      if (stack.length === 0) {
        if (name !== 'sdnList') throw new Error(`root element is <${name}>, expected <sdnList>`);
        return false;
      }
      return stack.length === 1 && (name === 'sdnEntry' || name === 'publshInformation');
    },
    node(node) {
      if (node.name === 'publshInformation') {
        publishedAt = parseMdy(childText(node, 'Publish_Date'));
        const count = Number(childText(node, 'Record_Count'));
        if (count > 0) declared = count;
        return;
      }
      const record = classicEntry(node, warnings);
      if (record) records.push(record);
    },
  });
  if (declared !== undefined && declared !== records.length) {
    warnings.push(`${path.basename(file)}: Record_Count says ${declared}, ${records.length} entries read`);
  }
  return publishedAt ? { records, publishedAt } : { records };
}
