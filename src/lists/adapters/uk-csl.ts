/**
 * United Kingdom: the FCDO UK Sanctions List XML (one Designation per target) when present, else
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
  child,
  children,
  childText,
  clean,
  countryList,
  descendantTexts,
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
  streamXmlChildren,
  websitesIn,
  type XmlNode,
} from './kit/index.js';

/** "Low quality a.k.a" / "Low quality" mark weak aliases; everything else is strong. */
function qualityOf(value: string | undefined): NameQuality {
  return /low/i.test(value ?? '') ? 'weak' : 'strong';
}

/**
 * Labels inside OFSI's "(Business Reg No)" field, which holds one number or several of Russia's
 * and others' registers: "(1) OGRN: 1027700456024 (2) INN: 7725075060", "TIN - 7703104630",
 * "UK Company no. 06527449". A number with no label is a registration number.
 */
const BUSINESS_LABELS =
  /\b(?:OGRN(?:IP)?|INN(?: number)?|KPP|OKPO|OKTMO|TIN|BIN|BR|CR|SRN|ICP|Tax ID(?: No\.?)?|Tax(?:payer)? Identification Number|Taxpayer(?: No\.?| number)?|Business Identification Number|(?:UK )?Company no\.?|License number|Registration (?:No\.?|Number)|SWIFT(?:\/BI[CN])?|BIC|BIK(?: \(RU\))?)\s*[:\-–]?\s*/gi;

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
  for (const n of numbersIn(fields.get('phone number')))
    addIdentifier(r, { type: 'other', kind: 'phone', value: n.value, label: 'Phone number' });
  for (const e of emailsIn(fields.get('email address')))
    addIdentifier(r, { type: 'other', kind: 'email', value: e, label: 'Email address' });
  for (const w of websitesIn(fields.get('website')))
    addIdentifier(r, { type: 'other', kind: 'website', value: w, label: 'Website' });
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
  const re =
    /UN\s*Ref(?:erence)?(?:\s*(?:No\.?|Number))?\s*[:.]?\s*([A-Z]{2,3}[a-z]?\.\d{2,4}|[A-Z]{2}\.[A-Z]\.\d+\.\d+)/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) addUnique(out, m[1]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// FCDO XML

function fcdoRecord(d: XmlNode, warnings: string[]): ListRecord | undefined {
  const id = childText(d, 'UniqueID');
  const names = children(child(d, 'Names'), 'Name').map((n) => ({
    name: joinParts(['Name1', 'Name2', 'Name3', 'Name4', 'Name5', 'Name6'].map((k) => childText(n, k))),
    type: (childText(n, 'NameType') ?? '').toLowerCase(),
    strength: childText(n, 'AliasStrength'),
  }));
  const primary = names.find((n) => n.type === 'primary name' && n.name) ?? names.find((n) => n.name);
  if (!id || !primary) {
    warnings.push(`Designation ${id ?? '?'} has no id or name; skipped`);
    return undefined;
  }
  const record = emptyRecord('uk_csl', id, entityTypeOf(childText(d, 'IndividualEntityShip')), primary.name);
  for (const n of names) {
    if (n === primary) continue;
    const kind: NameKind = n.type.includes('variation') ? 'variation' : 'aka';
    addAlias(record, n.name, qualityOf(n.strength), kind);
  }
  for (const nl of descendantTexts(child(d, 'NonLatinNames'), 'NameNonLatinScript'))
    addAlias(record, nl, 'strong', 'aka');
  const titles = descendantTexts(child(d, 'Titles'), 'Title');
  if (titles.length) record.titles = titles;
  addUnique(record.programs, childText(d, 'RegimeName'));
  record.listingDate = parseDmy(childText(d, 'DateDesignated'));
  if (!record.listingDate) delete record.listingDate;
  addIdentifier(record, { type: 'uk_ref', value: id });
  for (const un of (childText(d, 'UNReferenceNumber') ?? '').split(/[\s,;|]+/))
    addIdentifier(record, { type: 'un_ref', value: un });
  addIdentifier(record, {
    type: 'other',
    kind: 'list_reference',
    value: childText(d, 'OFSIGroupID'),
    label: 'OFSI Group ID',
  });
  for (const phone of descendantTexts(child(d, 'PhoneNumbers'), 'PhoneNumber'))
    addIdentifier(record, { type: 'other', kind: 'phone', value: phone, label: 'Phone number' });
  for (const email of descendantTexts(child(d, 'EmailAddresses'), 'EmailAddress'))
    addIdentifier(record, { type: 'other', kind: 'email', value: email, label: 'Email address' });
  for (const site of descendantTexts(child(d, 'Websites'), 'Website'))
    addIdentifier(record, { type: 'other', kind: 'website', value: site, label: 'Website' });

  for (const a of children(child(d, 'Addresses'), 'Address')) {
    const lines = ['AddressLine1', 'AddressLine2', 'AddressLine3', 'AddressLine4', 'AddressLine5', 'AddressLine6'].map(
      (k) => childText(a, k),
    );
    const text = joinParts([...lines, childText(a, 'AddressPostalCode')], ', ');
    const address = makeAddress({ text, countryName: childText(a, 'AddressCountry') });
    if (address) record.addresses.push(address);
  }

  const ind = child(child(d, 'IndividualDetails'), 'Individual');
  if (ind) {
    for (const dob of descendantTexts(child(ind, 'DOBs'), 'DOB'))
      addDates(record.birthDates, parseDmy(dob) ? [{ date: parseDmy(dob)! }] : findDates(dob));
    for (const n of descendantTexts(child(ind, 'Nationalities'), 'Nationality'))
      for (const c of countryList(n)) addUnique(record.nationalities, c);
    const gender = genderOf(descendantTexts(child(ind, 'Genders'), 'Gender')[0]);
    if (gender) record.gender = gender;
    const positions = descendantTexts(child(ind, 'Positions'), 'Position');
    if (positions.length) record.positions = positions;
    for (const p of children(child(ind, 'PassportDetails'), 'Passport')) {
      const note = childText(p, 'PassportAdditionalInformation');
      addIdentifier(record, { type: 'passport', value: childText(p, 'PassportNumber') ?? '', note });
    }
    for (const p of children(child(ind, 'NationalIdentifierDetails'), 'NationalIdentifier')) {
      const note = childText(p, 'NationalIdentifierAdditionalInformation');
      addIdentifier(record, { type: 'national_id', value: childText(p, 'NationalIdentifierNumber') ?? '', note });
    }
    for (const loc of children(child(ind, 'BirthDetails'), 'Location')) {
      addUnique(
        record.birthPlaces,
        joinParts([childText(loc, 'TownOfBirth'), childText(loc, 'CountryOfBirth')], ', ') || undefined,
      );
    }
  }
  const ent = child(child(d, 'EntityDetails'), 'Entity');
  for (const reg of descendantTexts(child(ent, 'BusinessRegistrationNumbers'), 'BusinessRegistrationNumber'))
    addLabelledIdentifiers(record, reg, BUSINESS_LABELS, {
      type: 'registration',
      label: 'Business registration number',
    });
  const ship = child(child(d, 'ShipDetails'), 'Ship');
  for (const imo of descendantTexts(child(ship, 'IMONumbers'), 'IMONumber'))
    addLabelledIdentifiers(record, imo, IMO_LABEL, { type: 'imo', label: 'IMO number' });
  const remarks = [childText(d, 'OtherInformation'), childText(d, 'UKStatementofReasons')].filter(
    (x): x is string => !!x,
  );
  if (remarks.length) record.remarks = remarks.join('\n');
  return finishRecord(record);
}

async function parseFcdo(file: string, warnings: string[]): Promise<{ records: ListRecord[]; publishedAt?: string }> {
  const records: ListRecord[] = [];
  let publishedAt: string | undefined;
  await streamXmlChildren(file, {
    root(name) {
      if (name !== 'Designations')
        throw new Error(`${path.basename(file)}: root <${name}> is not an FCDO <Designations> list`);
    },
    child(node) {
      if (node.name === 'DateGenerated') publishedAt = parseDmy(node.text);
      else if (node.name === 'Designation') {
        const r = fcdoRecord(node, warnings);
        if (r) records.push(r);
      }
    },
  });
  return { records, publishedAt };
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

function addConListRow(groups: Map<string, Group>, get: Row, warnings: string[], rowLabel: string): void {
  const groupId = get('Group ID');
  const name = joinParts([get('Name 1'), get('Name 2'), get('Name 3'), get('Name 4'), get('Name 5'), get('Name 6')]);
  if (!groupId || !name) {
    if (groupId || name) warnings.push(`${rowLabel}: row without Group ID or name; skipped`);
    return;
  }
  const aliasType = (get('Alias Type') ?? '').toLowerCase();
  const isPrimary = aliasType === 'primary name' || aliasType === 'prime alias';
  const kind: NameKind = aliasType.includes('variation')
    ? 'variation'
    : aliasType === 'fka'
      ? 'fka'
      : isPrimary
        ? 'variation'
        : 'aka';
  const quality = qualityOf(get('Alias Quality'));
  let g = groups.get(groupId);
  if (!g) {
    g = {
      record: emptyRecord('uk_csl', groupId, entityTypeOf(get('Group Type')), name),
      primarySet: isPrimary,
      otherInfo: [],
      listed: [],
      firstKind: kind,
      firstQuality: quality,
    };
    groups.set(groupId, g);
  } else if (isPrimary && !g.primarySet) {
    promoteToPrimary(g.record, name, { quality: g.firstQuality, kind: g.firstKind });
    g.primarySet = true;
  }
  const r = g.record;
  if (r.name !== name) addAlias(r, name, quality, kind);
  const nonLatin = get('Name Non-Latin Script');
  if (nonLatin) {
    const declared = get('Non-Latin Script Type');
    addAlias(
      r,
      nonLatin,
      'strong',
      'aka',
      scriptOf(nonLatin) ?? SCRIPT_FIX[(declared ?? '').toLowerCase()] ?? declared,
    );
  }
  const title = get('Title');
  if (title) {
    r.titles ??= [];
    for (const t of splitEnumerated(title)) addUnique(r.titles, clean(t));
  }
  const dob = get('DOB');
  if (dob)
    for (const part of splitEnumerated(dob))
      addDates(r.birthDates, parseDmy(part) ? [{ date: parseDmy(part)! }] : findDates(part));
  const towns = splitEnumerated(get('Town of Birth') ?? '');
  const countriesOfBirth = splitEnumerated(get('Country of Birth') ?? '');
  const n = Math.max(towns.length, countriesOfBirth.length);
  for (let i = 0; i < n; i++) {
    // Country of Birth is often given once for several towns.
    const c = countriesOfBirth[i] ?? (countriesOfBirth.length === 1 ? countriesOfBirth[0] : undefined);
    addUnique(r.birthPlaces, joinParts([towns[i], c], ', ') || undefined);
  }
  for (const c of countryList(get('Nationality'))) addUnique(r.nationalities, c);
  // The 29-column layout has only the free text: "Passport No: 592667 (Qatari passport issued ...)".
  addDocumentColumn(r, 'passport', get('Passport Number'), get('Passport Details'));
  addDocumentColumn(
    r,
    'national_id',
    get('National Identification Number'),
    get('National Identification Details') ?? get('NI Number'),
  );
  const position = get('Position');
  if (position) {
    r.positions ??= [];
    for (const p of splitEnumerated(position)) addUnique(r.positions, clean(p));
  }
  const lines = ['Address 1', 'Address 2', 'Address 3', 'Address 4', 'Address 5', 'Address 6'].map((k) => get(k));
  const address = makeAddress({ text: joinParts([...lines, get('Post/Zip Code')], ', '), countryName: get('Country') });
  if (address) {
    const dup = r.addresses.some((a) => a.text === address.text && a.countryName === address.countryName);
    if (!dup) r.addresses.push(address);
  }
  const other = get('Other Information');
  if (other && !g.otherInfo.includes(other)) g.otherInfo.push(other);
  addUnique(r.programs, get('Regime'));
  for (const d of [get('UK Sanctions List Date Designated'), get('Listed On')]) {
    const iso = parseDmy(d);
    if (iso) g.listed.push(iso);
  }
}

function finishConList(groups: Map<string, Group>): ListRecord[] {
  const out: ListRecord[] = [];
  for (const g of groups.values()) {
    const r = g.record;
    const info = g.otherInfo.join('\n');
    const ukRef = /\(UK Sanctions List Ref\)\s*:\s*([A-Z]{2,4}\d{3,5})/i.exec(info)?.[1];
    if (ukRef) addIdentifier(r, { type: 'uk_ref', value: ukRef });
    for (const un of unRefs(info)) addIdentifier(r, { type: 'un_ref', value: un });
    const gender = genderOf(/\(Gender\)\s*:\s*(Male|Female)/i.exec(info)?.[1]);
    if (gender) r.gender = gender;
    addOtherInfoIdentifiers(r, info);
    addIdentifier(r, { type: 'other', kind: 'list_reference', value: r.id, label: 'OFSI Group ID' });
    if (info) r.remarks = info;
    const listed = g.listed.sort()[0];
    if (listed) r.listingDate = listed;
    out.push(finishRecord(r));
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
      const i = this.index.get(name.toLowerCase());
      return i === undefined ? undefined : clean(cells[i]);
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
      const r = await parseConListCsv(chosen, warnings);
      result = r;
      format = `OFSI ConList CSV (${r.layout})`;
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
