/**
 * US Consolidated Screening List (trade.gov): `consolidated.csv` (29 columns, multi-valued fields
 * joined by "; ") or `consolidated.json` (`{"results":[...]}`, the same fields as arrays/objects).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { emptyRecord, type Address, type ListRecord, type ParsedList, type SourceAdapter } from '../model.js';
import {
  addAlias,
  addDates,
  addIdentifier,
  addNaturalOrder,
  addUnique,
  clean,
  countryCode,
  countryOrWording,
  entityTypeOf,
  firstIsoDay,
  joinParts,
  makeAddress,
  mergeRecords,
  parseDate,
  readCsvRows,
  readListDir,
  squash,
} from './kit/index.js';
import { applyLabeledId } from './us-ofac-remarks.js';

const CSL_BASE = 'https://data.trade.gov/downloadable_consolidated_screening_list/v1/';

/** One CSL entry with multi-valued fields already split, whichever file it came from. */
interface CslEntry {
  id?: string;
  source?: string;
  entityNumber?: string;
  type?: string;
  programs: string[];
  name?: string;
  title?: string;
  addresses: Address[];
  startDate?: string;
  callSign?: string;
  vesselFlag?: string;
  remarks?: string;
  altNames: string[];
  citizenships: string[];
  datesOfBirth: string[];
  nationalities: string[];
  placesOfBirth: string[];
  url?: string;
  ids: { type?: string; number?: string; country?: string; notes: string[] }[];
}

/** The CSL's "; "-joined fields; its country columns hold ISO codes, so "NA" is Namibia, not a blank. */
const splitMulti = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(/;\s+|;$/)
    .map((v) => squash(v))
    .filter((v): v is string => !!v);

/** "19 Luysi Chalovskoy St., Borisov, 222512, BY": the last part is the ISO2 country. */
function csvAddress(raw: string): Address | undefined {
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return undefined;
  const address: Address = {};
  const last = parts[parts.length - 1]!;
  const code = /^[A-Z]{2}$/.test(last) ? countryCode(last) : undefined;
  if (code) {
    parts.pop();
    address.country = code;
    address.countryName = last;
  }
  const text = clean(parts.join(', '));
  if (text) address.text = text;
  return text || code ? address : undefined;
}

/**
 * "CA, BC166787, Passport", "IMO 8898831, Vessel Registration Identification", or with the
 * document's dates before the number: "JO, 2014-08-30, 2009-08-31, K475336, Passport".
 */
function csvId(raw: string): CslEntry['ids'][number] | undefined {
  const parts = raw.split(', ');
  if (parts.length < 2) return undefined;
  const type = parts.pop();
  let country: string | undefined;
  if (parts.length >= 2 && /^[A-Z]{2}$/.test(parts[0]!)) country = parts.shift();
  const dates = parts.filter((p) => /^\d{4}-\d{2}-\d{2}$/.test(p));
  const number = parts.filter((p) => !dates.includes(p)).join(', ');
  const id: CslEntry['ids'][number] = { type, number, notes: dates.length ? [`dates ${dates.join(', ')}`] : [] };
  if (country) id.country = country;
  return id;
}

function fromCsvRow(row: Record<string, string>): CslEntry {
  const entry: CslEntry = {
    programs: splitMulti(row.programs),
    addresses: splitMulti(row.addresses)
      .map(csvAddress)
      .filter((a): a is Address => !!a),
    altNames: splitMulti(row.alt_names).map((n) => n.replace(/^and\s+/i, '')),
    citizenships: splitMulti(row.citizenships),
    datesOfBirth: splitMulti(row.dates_of_birth),
    nationalities: splitMulti(row.nationalities),
    placesOfBirth: splitMulti(row.places_of_birth),
    ids: splitMulti(row.ids)
      .map(csvId)
      .filter((i): i is CslEntry['ids'][number] => !!i),
  };
  const set = <K extends keyof CslEntry>(key: K, value: string | undefined): void => {
    const cleaned = clean(value);
    if (cleaned) (entry as unknown as Record<string, unknown>)[key] = cleaned;
  };
  set('id', row._id);
  set('source', row.source);
  set('entityNumber', row.entity_number);
  set('type', row.type);
  set('name', row.name);
  set('title', row.title);
  set('startDate', row.start_date);
  set('callSign', row.call_sign);
  set('vesselFlag', row.vessel_flag);
  set('remarks', row.remarks);
  set('url', row.source_information_url || row.source_list_url);
  return entry;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' ? clean(String(v)) : undefined;
const strList = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(str).filter((s): s is string => !!s) : typeof v === 'string' ? splitMulti(v) : [];

function fromJson(item: Record<string, unknown>): CslEntry {
  const addresses: Address[] = [];
  for (const address of Array.isArray(item.addresses) ? (item.addresses as unknown[]) : strList(item.addresses)) {
    // Addresses come as objects from the API, as "street, city, CC" strings when flattened.
    if (typeof address === 'string') {
      const parsed = csvAddress(address);
      if (parsed) addresses.push(parsed);
      continue;
    }
    if (!address || typeof address !== 'object') continue;
    const obj = address as Record<string, unknown>;
    const city = str(obj.city);
    const text = joinParts([str(obj.address), city, str(obj.state), str(obj.postal_code)], ', ');
    const out = makeAddress({ text, city, countryName: str(obj.country) });
    if (out) addresses.push(out);
  }
  const ids: CslEntry['ids'] = [];
  for (const identifier of Array.isArray(item.ids) ? (item.ids as unknown[]) : strList(item.ids)) {
    if (typeof identifier === 'string') {
      const parsed = csvId(identifier);
      if (parsed) ids.push(parsed);
      continue;
    }
    if (!identifier || typeof identifier !== 'object') continue;
    const obj = identifier as Record<string, unknown>;
    const id: CslEntry['ids'][number] = { notes: [] };
    const type = str(obj.type);
    const number = str(obj.number);
    const country = str(obj.country);
    if (type) id.type = type;
    if (number) id.number = number;
    if (country) id.country = country;
    if (str(obj.issue_date)) id.notes.push(`issued ${str(obj.issue_date)}`);
    if (str(obj.expiration_date)) id.notes.push(`expires ${str(obj.expiration_date)}`);
    ids.push(id);
  }
  const entry: CslEntry = {
    programs: strList(item.programs),
    addresses,
    altNames: strList(item.alt_names),
    citizenships: strList(item.citizenships),
    datesOfBirth: strList(item.dates_of_birth),
    nationalities: strList(item.nationalities),
    placesOfBirth: strList(item.places_of_birth),
    ids,
  };
  const set = (key: keyof CslEntry, value: unknown): void => {
    const text = str(value);
    if (text) (entry as unknown as Record<string, unknown>)[key] = text;
  };
  set('id', item.id ?? item._id);
  set('source', item.source);
  set('entityNumber', item.entity_number);
  set('type', item.type);
  set('name', item.name);
  set('title', item.title);
  set('startDate', item.start_date);
  set('callSign', item.call_sign);
  set('vesselFlag', item.vessel_flag);
  set('remarks', item.remarks);
  set('url', str(item.source_information_url) ?? item.source_list_url);
  return entry;
}

function toRecord(entry: CslEntry, index: number, warnings: string[]): ListRecord | undefined {
  const id = entry.id ?? (entry.entityNumber && entry.source ? `${entry.source}:${entry.entityNumber}` : undefined);
  if (!id || !entry.name) {
    warnings.push(`us_csl entry ${index + 1}: no id or name, skipped`);
    return undefined;
  }
  const record = emptyRecord('us_csl', id, entityTypeOf(entry.type), entry.name);
  addNaturalOrder(record, entry.name, 'strong');
  for (const alt of entry.altNames) {
    addAlias(record, alt, 'strong', 'aka');
    addNaturalOrder(record, alt, 'strong');
  }
  for (const program of entry.programs) addUnique(record.programs, program);
  // The list within the CSL (Entity List, SDN, DPL...) is what users filter on.
  addUnique(record.programs, entry.source);
  if (entry.title) record.titles = [entry.title];
  record.addresses.push(...entry.addresses);
  const listed = firstIsoDay(entry.startDate);
  if (listed) record.listingDate = listed;
  if (entry.callSign) addIdentifier(record, { type: 'call_sign', value: entry.callSign, label: 'Call Sign' });
  if (entry.vesselFlag) addUnique(record.nationalities, countryOrWording(entry.vesselFlag));
  for (const nationality of entry.nationalities) addUnique(record.nationalities, countryOrWording(nationality));
  for (const citizenship of entry.citizenships) addUnique(record.citizenships, countryOrWording(citizenship));
  for (const date of entry.datesOfBirth) addDates(record.birthDates, parseDate(date));
  for (const place of entry.placesOfBirth) addUnique(record.birthPlaces, place);
  for (const doc of entry.ids) applyLabeledId(record, doc.type, doc.number, doc.country, doc.notes);
  if (entry.entityNumber && /treasury/i.test(entry.source ?? '')) {
    addIdentifier(record, { type: 'ofac_uid', value: entry.entityNumber, label: 'OFAC UID' });
  }
  if (entry.remarks) record.remarks = entry.remarks;
  if (entry.url) record.sourceUrl = entry.url;
  return record;
}

async function parseCsv(file: string, warnings: string[]): Promise<ListRecord[]> {
  const records: ListRecord[] = [];
  let header: string[] | undefined;
  let index = 0;
  for await (const row of readCsvRows(file)) {
    if (!header) {
      header = row.map((h) => h.trim());
      const missing = ['_id', 'source', 'name', 'alt_names', 'ids'].filter((c) => !header!.includes(c));
      if (missing.length)
        throw new Error(`${path.basename(file)}: not a CSL CSV (missing columns ${missing.join(', ')})`);
      continue;
    }
    const byName: Record<string, string> = {};
    header.forEach((h, i) => (byName[h] = row[i] ?? ''));
    const record = toRecord(fromCsvRow(byName), index++, warnings);
    if (record) records.push(record);
  }
  if (!header) throw new Error(`${path.basename(file)}: empty CSL CSV`);
  return records;
}

async function parseJson(file: string, warnings: string[]): Promise<ListRecord[]> {
  let doc: unknown;
  try {
    // The JSON export is one document (tens of MB); JSON.parse is the reader for it.
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new Error(`${path.basename(file)}: malformed JSON: ${(err as Error).message}`);
  }
  const results = Array.isArray(doc) ? doc : (doc as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new Error(`${path.basename(file)}: not a CSL JSON export (no "results" array)`);
  const records: ListRecord[] = [];
  results.forEach((item, i) => {
    if (!item || typeof item !== 'object') {
      warnings.push(`us_csl entry ${i + 1}: not an object, skipped`);
      return;
    }
    const record = toRecord(fromJson(item as Record<string, unknown>), i, warnings);
    if (record) records.push(record);
  });
  return records;
}

export const usCslAdapter: SourceAdapter = {
  source: 'us_csl',
  label: 'US Consolidated Screening List (trade.gov)',
  publisherFiles: [
    { fileName: 'consolidated.csv', url: `${CSL_BASE}consolidated.csv` },
    { fileName: 'consolidated.json', url: `${CSL_BASE}consolidated.json`, optional: true },
  ],
  async parse(dir: string): Promise<ParsedList> {
    const files = await readListDir(dir);
    const warnings: string[] = [];
    const csv = files.named('consolidated.csv');
    const json = csv ? undefined : files.named('consolidated.json');
    const file = csv ?? json;
    if (!file) throw new Error(`us_csl: no consolidated.csv or consolidated.json in ${dir}`);
    const records = csv ? await parseCsv(file, warnings) : await parseJson(file, warnings);
    const seen = new Map<string, ListRecord>();
    for (const record of records) {
      const first = seen.get(record.id);
      // The CSL repeats an OFAC entry once per Treasury list it is on (SDN, SSI, CAPTA...), with
      // the same _id: one record, carrying every list.
      if (first) mergeRecords(first, record);
      else seen.set(record.id, record);
    }
    return {
      source: 'us_csl',
      files: [path.basename(file)],
      format: csv ? 'CSL CSV' : 'CSL JSON',
      records: [...seen.values()],
      warnings,
    };
  },
};
