/**
 * United Kingdom: the FCDO UK Sanctions List XML (one Designation per target, uk-csl-fcdo.ts) when present, else
 * OFSI's Consolidated List (ConList) as CSV or XLSX, which has one row per name variant and
 * address and is grouped here by Group ID.
 */
import path from 'node:path';
import {
  emptyRecord,
  type ListRecord,
  type NameKind,
  type NameQuality,
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
  cellText,
  clean,
  countryList,
  detectEncoding,
  emailsIn,
  entityTypeOf,
  findDates,
  finishRecord,
  genderOf,
  IMO_LABEL,
  joinParts,
  makeAddress,
  numbersIn,
  parseDmy,
  promoteToPrimary,
  readCsvRows,
  readListDir,
  readXlsxRows,
  scriptOf,
  splitEnumerated,
  websitesIn,
} from './kit/index.js';
import { parseFcdo } from './uk-csl-fcdo.js';
import { BUSINESS_LABELS, qualityOf } from './uk-csl-labels.js';

/** OFSI's Other Information as its "(Field): value" parts: "(IMO number):9123456 (Phone number):...". */
function otherInfoFields(info: string): Map<string, string> {
  const fields = new Map<string, string>();
  const marks = [...info.matchAll(/\(([A-Za-z][A-Za-z /]{1,60})\)\s*:\s*/g)];
  marks.forEach((m, i) => {
    const value = info.slice(m.index + m[0].length, marks[i + 1]?.index ?? info.length).trim();
    const key = m[1]!.trim().toLowerCase();
    fields.set(key, fields.has(key) ? `${fields.get(key)}\n${value}` : value);
  });
  return fields;
}

/** Identifiers in OFSI's Other Information: IMO, business registers, phone numbers, e-mail, websites. */
function addOtherInfoIdentifiers(r: ListRecord, info: string): void {
  const fields = otherInfoFields(info);
  // The 2022 layout has an "(IMO number)" field; the older one writes IMO numbers into the prose.
  addLabelledIdentifiers(r, info, IMO_LABEL);
  addLabelledIdentifiers(r, fields.get('business reg no'), BUSINESS_LABELS, {
    type: 'registration',
    label: 'Business Reg No',
  });
  for (const number of numbersIn(fields.get('phone number')))
    addIdentifier(r, { type: 'other', kind: 'phone', value: number.value, label: 'Phone number' });
  for (const email of emailsIn(fields.get('email address')))
    addIdentifier(r, { type: 'other', kind: 'email', value: email, label: 'Email address' });
  for (const website of websitesIn(fields.get('website')))
    addIdentifier(r, { type: 'other', kind: 'website', value: website, label: 'Website' });
}

/** The numbers of a ConList document column, each with the matching enumerated detail as its note. */
function addDocumentColumn(r: ListRecord, type: 'passport' | 'national_id', numbers?: string, details?: string): void {
  // Russians' tax and register numbers reach the national identifier columns with their labels:
  // "INN number 770200946783", "Registration numbers OGRN 1023901012189 TIN 3906036812".
  const text = numbers ?? details;
  if (text && new RegExp(BUSINESS_LABELS.source, 'i').test(text)) {
    addLabelledIdentifiers(r, text, BUSINESS_LABELS, { type });
    return;
  }
  const found = numbers ? numbersIn(numbers) : numbersIn(details);
  const notes = details ? splitEnumerated(details) : [];
  found.forEach((n, i) => {
    const note = numbers ? (found.length === notes.length ? notes[i] : details) : n.context;
    addIdentifier(r, { type, value: n.value, note: note === n.value ? undefined : note });
  });
}

/** UN references as OFSI writes them in Other Information: "UN Ref QDe.004", "UN REF:QE.A.146.14". */
function unRefs(text: string | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  const unRefPattern =
    /UN\s*Ref(?:erence)?(?:\s*(?:No\.?|Number))?\s*[:.]?\s*([A-Z]{2,3}[a-z]?\.\d{2,4}|[A-Z]{2}\.[A-Z]\.\d+\.\d+)/gi;
  let match: RegExpExecArray | null;
  while ((match = unRefPattern.exec(text))) addUnique(out, match[1]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// OFSI ConList (CSV and XLSX share the columns; the header is mapped by name)

type Row = (name: string) => string | undefined;

interface Group {
  record: ListRecord;
  primarySet: boolean;
  otherInfo: string[];
  listed: string[];
  /** How the first row's name was listed, in case it turns out not to be the primary one. */
  firstKind: NameKind;
  firstQuality: NameQuality;
}

/** Scripts OFSI names by language or loosely; the characters themselves decide where possible. */
const SCRIPT_FIX: Record<string, string> = {
  chinese: 'Han',
  persian: 'Arabic',
  russian: 'Cyrillic',
  cryillic: 'Cyrillic',
};

/** How a ConList row lists its name: primary, variation, former or another alias. */
function nameKindOf(get: Row): { isPrimary: boolean; kind: NameKind; quality: NameQuality } {
  const aliasType = (get('Alias Type') ?? '').toLowerCase();
  const isPrimary = aliasType === 'primary name' || aliasType === 'prime alias';
  const kind: NameKind = aliasType.includes('variation')
    ? 'variation'
    : aliasType === 'fka'
      ? 'fka'
      : isPrimary
        ? 'variation'
        : 'aka';
  return { isPrimary, kind, quality: qualityOf(get('Alias Quality')) };
}

/** The row's group (one per Group ID), opened by its first row; a later primary name takes the name over. */
function groupOf(groups: Map<string, Group>, get: Row, entry: { groupId: string; name: string }): Group {
  const { isPrimary, kind, quality } = nameKindOf(get);
  let group = groups.get(entry.groupId);
  if (!group) {
    group = {
      record: emptyRecord('uk_csl', entry.groupId, entityTypeOf(get('Group Type')), entry.name),
      primarySet: isPrimary,
      otherInfo: [],
      listed: [],
      firstKind: kind,
      firstQuality: quality,
    };
    groups.set(entry.groupId, group);
  } else if (isPrimary && !group.primarySet) {
    promoteToPrimary(group.record, entry.name, { quality: group.firstQuality, kind: group.firstKind });
    group.primarySet = true;
  }
  if (group.record.name !== entry.name) addAlias(group.record, entry.name, quality, kind);
  return group;
}

function addConListNames(record: ListRecord, get: Row): void {
  const nonLatin = get('Name Non-Latin Script');
  if (nonLatin) {
    const declared = get('Non-Latin Script Type');
    addAlias(
      record,
      nonLatin,
      'strong',
      'aka',
      scriptOf(nonLatin) ?? SCRIPT_FIX[(declared ?? '').toLowerCase()] ?? declared,
    );
  }
  const title = get('Title');
  if (title) {
    record.titles ??= [];
    for (const item of splitEnumerated(title)) addUnique(record.titles, clean(item));
  }
}

function addConListBirth(record: ListRecord, get: Row): void {
  const dob = get('DOB');
  if (dob)
    for (const part of splitEnumerated(dob))
      addDates(record.birthDates, parseDmy(part) ? [{ date: parseDmy(part)! }] : findDates(part));
  const towns = splitEnumerated(get('Town of Birth') ?? '');
  const countriesOfBirth = splitEnumerated(get('Country of Birth') ?? '');
  const count = Math.max(towns.length, countriesOfBirth.length);
  for (let index = 0; index < count; index++) {
    // Country of Birth is often given once for several towns.
    const country = countriesOfBirth[index] ?? (countriesOfBirth.length === 1 ? countriesOfBirth[0] : undefined);
    addUnique(record.birthPlaces, joinParts([towns[index], country], ', ') || undefined);
  }
  for (const code of countryList(get('Nationality'))) addUnique(record.nationalities, code);
}

function addConListRow(groups: Map<string, Group>, get: Row, warnings: string[], rowLabel: string): void {
  const groupId = get('Group ID');
  const name = joinParts([get('Name 1'), get('Name 2'), get('Name 3'), get('Name 4'), get('Name 5'), get('Name 6')]);
  if (!groupId || !name) {
    if (groupId || name) warnings.push(`${rowLabel}: row without Group ID or name; skipped`);
    return;
  }
  const group = groupOf(groups, get, { groupId, name });
  const record = group.record;
  addConListNames(record, get);
  addConListBirth(record, get);
  // The 29-column layout has only the free text: "Passport No: 592667 (Qatari passport issued ...)".
  addDocumentColumn(record, 'passport', get('Passport Number'), get('Passport Details'));
  addDocumentColumn(
    record,
    'national_id',
    get('National Identification Number'),
    get('National Identification Details') ?? get('NI Number'),
  );
  const position = get('Position');
  if (position) {
    record.positions ??= [];
    for (const item of splitEnumerated(position)) addUnique(record.positions, clean(item));
  }
  const lines = ['Address 1', 'Address 2', 'Address 3', 'Address 4', 'Address 5', 'Address 6'].map((k) => get(k));
  const address = makeAddress({ text: joinParts([...lines, get('Post/Zip Code')], ', '), countryName: get('Country') });
  if (address) {
    const dup = record.addresses.some((a) => a.text === address.text && a.countryName === address.countryName);
    if (!dup) record.addresses.push(address);
  }
  const other = get('Other Information');
  if (other && !group.otherInfo.includes(other)) group.otherInfo.push(other);
  addUnique(record.programs, get('Regime'));
  for (const date of [get('UK Sanctions List Date Designated'), get('Listed On')]) {
    const iso = parseDmy(date);
    if (iso) group.listed.push(iso);
  }
}

function finishConList(groups: Map<string, Group>): ListRecord[] {
  const out: ListRecord[] = [];
  for (const group of groups.values()) {
    const record = group.record;
    const info = group.otherInfo.join('\n');
    const ukRef = /\(UK Sanctions List Ref\)\s*:\s*([A-Z]{2,4}\d{3,5})/i.exec(info)?.[1];
    if (ukRef) addIdentifier(record, { type: 'uk_ref', value: ukRef });
    for (const unReference of unRefs(info)) addIdentifier(record, { type: 'un_ref', value: unReference });
    const gender = genderOf(/\(Gender\)\s*:\s*(Male|Female)/i.exec(info)?.[1]);
    if (gender) record.gender = gender;
    addOtherInfoIdentifiers(record, info);
    addIdentifier(record, { type: 'other', kind: 'list_reference', value: record.id, label: 'OFSI Group ID' });
    if (info) record.remarks = info;
    const listed = group.listed.sort()[0];
    if (listed) record.listingDate = listed;
    out.push(finishRecord(record));
  }
  return out;
}

/** Finds the header row (the one naming "Group ID") and returns a lookup by column name. */
class HeaderMap {
  private index = new Map<string, number>();
  constructor(cells: string[]) {
    cells.forEach((c, i) => {
      const key = c.trim().toLowerCase();
      if (key && !this.index.has(key)) this.index.set(key, i);
    });
  }
  static isHeader(cells: string[]): boolean {
    const keys = cells.map((c) => c.trim().toLowerCase());
    return keys.includes('group id') && keys.includes('name 6');
  }
  getter(cells: string[]): Row {
    return (name: string) => {
      const indexed = this.index.get(name.toLowerCase());
      return indexed === undefined ? undefined : clean(cells[indexed]);
    };
  }
}

async function parseConListCsv(
  file: string,
  warnings: string[],
): Promise<{ records: ListRecord[]; publishedAt?: string; layout: string }> {
  const encoding = await detectEncoding(file);
  const groups = new Map<string, Group>();
  let header: HeaderMap | undefined;
  let columns = 0;
  let publishedAt: string | undefined;
  let line = 0;
  for await (const cells of readCsvRows(file, { encoding })) {
    line++;
    if (!header) {
      if (/^last updated$/i.test((cells[0] ?? '').trim())) publishedAt = parseDmy(cells[1]);
      else if (HeaderMap.isHeader(cells)) {
        header = new HeaderMap(cells);
        columns = cells.filter((c) => c.trim()).length;
      } else if (line > 5) break;
      continue;
    }
    addConListRow(groups, header.getter(cells), warnings, `line ${line}`);
  }
  if (!header) throw new Error(`${path.basename(file)}: no ConList header (Name 6 ... Group ID) found`);
  return {
    records: finishConList(groups),
    publishedAt,
    layout: `${columns}-column ${encoding === 'utf8' ? 'UTF-8' : 'Windows-1252'}`,
  };
}

async function parseConListXlsx(
  file: string,
  warnings: string[],
): Promise<{ records: ListRecord[]; publishedAt?: string }> {
  const groups = new Map<string, Group>();
  let header: HeaderMap | undefined;
  let headerSheet = '';
  let publishedAt: string | undefined;
  for await (const row of readXlsxRows(file)) {
    const cells = row.cells.map((c) => cellText(c));
    if (!header || row.sheetName !== headerSheet) {
      if (/^last updated$/i.test(cells[0] ?? '')) publishedAt = parseDmy(cells[1]);
      else if (HeaderMap.isHeader(cells)) {
        header = new HeaderMap(cells);
        headerSheet = row.sheetName;
      }
      continue;
    }
    addConListRow(groups, header.getter(cells), warnings, `${row.sheetName} row ${row.rowNumber}`);
  }
  if (!header) throw new Error(`${path.basename(file)}: no sheet with a ConList header (Name 6 ... Group ID)`);
  return { records: finishConList(groups), publishedAt };
}

export const ukCslAdapter: SourceAdapter = {
  source: 'uk_csl',
  label: SOURCE_LABELS.uk_csl,
  // The FCDO UK Sanctions List is the one UK list published since OFSI retired its Consolidated
  // List on 28 January 2026; ConList files are still read from a list directory (LISTS_DIR, --from).
  publisherFiles: [
    { fileName: 'UK-Sanctions-List.xml', url: 'https://sanctionslist.fcdo.gov.uk/docs/UK-Sanctions-List.xml' },
  ],
  async parse(dir: string): Promise<ParsedList> {
    const warnings: string[] = [];
    const pick = (files: string[], preferred: RegExp): string | undefined =>
      files.find((f) => preferred.test(path.basename(f))) ?? files[0];
    const files = await readListDir(dir);
    const xml = pick(files.matching(/\.xml$/), /sanctions[-_ ]?list/i);
    const csv = pick(files.matching(/\.csv$/), /^conlist\.csv$/i);
    const xlsx = pick(files.matching(/\.xlsx$/), /^conlist\.xlsx$/i);
    const chosen = xml ?? csv ?? xlsx;
    if (!chosen) throw new Error(`uk_csl: no FCDO XML, ConList.csv or ConList.xlsx in ${dir}`);
    for (const other of [xml, csv, xlsx])
      if (other && other !== chosen) warnings.push(`ignored ${path.basename(other)} (lower preference)`);
    let result: { records: ListRecord[]; publishedAt?: string };
    let format: string;
    if (chosen === xml) {
      result = await parseFcdo(chosen, warnings);
      format = 'FCDO UK Sanctions List XML';
    } else if (chosen === csv) {
      const parsed = await parseConListCsv(chosen, warnings);
      result = parsed;
      format = `OFSI ConList CSV (${parsed.layout})`;
    } else {
      result = await parseConListXlsx(chosen, warnings);
      format = 'OFSI ConList XLSX';
    }
    if (result.records.length === 0) throw new Error(`uk_csl: ${path.basename(chosen)} holds no designations`);
    return {
      source: 'uk_csl',
      publishedAt: result.publishedAt,
      files: [path.basename(chosen)],
      format,
      records: result.records,
      warnings,
    };
  },
};
