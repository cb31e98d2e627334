/**
 * EU Consolidated Financial Sanctions List (FSF), in the XML 1.1 format (root `export`) or the
 * semicolon-separated CSV 1.1 format (one row per detail, grouped by Entity_LogicalId).
 */
import path from 'node:path';
import {
  emptyRecord,
  type EntityType,
  type IdentifierType,
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
  children,
  classifyIdLabel,
  clean,
  countryCode,
  finishRecord,
  genderOf,
  joinParts,
  makeAddress,
  mergeRecords,
  parseDmy,
  partialDate,
  readCsvRows,
  readListDir,
  streamXmlChildren,
  type XmlNode,
  yearsBetween,
} from './kit/index.js';

/**
 * The token is part of the publisher's public download address, not a secret: the FSF site gives
 * every anonymous user this same one (base64 of "token-2017"). Configuration may override it.
 */
const FSF_TOKEN = 'dG9rZW4tMjAxNw';
const FSF_BASE = 'https://webgate.ec.europa.eu/fsd/fsf/public/files';

type Attrs = Record<string, string>;

/** One entity's raw details, the same whether they came from the XML or the CSV. */
interface EuEntity {
  attrs: Attrs;
  remarks: string[];
  regulations: Attrs[];
  names: Attrs[];
  birthdates: Attrs[];
  citizenships: Attrs[];
  addresses: Attrs[];
  identifications: Attrs[];
}

const ID_TYPES: Record<string, IdentifierType> = {
  passport: 'passport',
  id: 'national_id',
  ssn: 'national_id',
  regnumber: 'registration',
  fiscalcode: 'tax_id',
  tin: 'tax_id',
  swiftbic: 'swift',
  imo: 'imo',
  travelcardid: 'national_id',
  drivinglicence: 'national_id',
  other: 'other',
};

function country(attrs: Attrs, codeKey = 'countryIso2Code'): string | undefined {
  const code = clean(attrs[codeKey]);
  if (code && code !== '00') return countryCode(code);
  const desc = clean(attrs.countryDescription);
  return desc && desc.toUpperCase() !== 'UNKNOWN' ? countryCode(desc) : undefined;
}

function countryDescription(attrs: Attrs): string | undefined {
  const description = clean(attrs.countryDescription);
  return description && description.toUpperCase() !== 'UNKNOWN' ? description : undefined;
}

function isTrue(v: string | undefined): boolean {
  return v === 'true' || v === '1';
}

/** The listing name: the first alias in no particular language (the regulation's own), else the first. */
function pickPrimary(names: Attrs[]): Attrs | undefined {
  return (
    names.find((n) => !clean(n.nameLanguage) && isTrue(n.strong ?? 'true')) ??
    names.find((n) => (n.nameLanguage ?? '').toUpperCase() === 'EN') ??
    names[0]
  );
}

function wholeName(n: Attrs): string | undefined {
  return clean(n.wholeName) ?? (clean(joinParts([n.firstName, n.middleName, n.lastName])) || undefined);
}

function addBirthdates(record: ListRecord, birthdates: Attrs[]): void {
  for (const birth of birthdates) {
    const approximate = isTrue(birth.circa);
    const from = Number(birth.yearRangeFrom);
    const to = Number(birth.yearRangeTo);
    if (clean(birth.birthdate)) addDates(record.birthDates, [{ date: birth.birthdate!.slice(0, 10), approximate }]);
    else if (from > 0 && to >= from) addDates(record.birthDates, yearsBetween(from, to));
    else {
      const date = partialDate(Number(birth.year), Number(birth.monthOfYear), Number(birth.dayOfMonth));
      if (date) addDates(record.birthDates, [{ date, approximate }]);
    }
    const place = joinParts([birth.city, birth.place, birth.region, countryDescription(birth)], ', ');
    addUnique(record.birthPlaces, place || undefined);
  }
}

function addIdentifications(record: ListRecord, identifications: Attrs[]): void {
  for (const doc of identifications) {
    const typeCode = (doc.identificationTypeCode ?? '').toLowerCase();
    const flags = ['diplomatic', 'knownExpired', 'knownFalse', 'reportedLost', 'revokedByIssuer']
      .filter((f) => isTrue(doc[f]))
      .join(', ');
    const note = joinParts(
      [
        clean(doc.issuedBy) && `issued by ${clean(doc.issuedBy)}`,
        clean(doc.issueDate) && `issued ${clean(doc.issueDate)}`,
        clean(doc.validTo) && `valid to ${clean(doc.validTo)}`,
        clean(doc.nameOnDocument) && `name on document: ${clean(doc.nameOnDocument)}`,
        clean(doc.latinNumber) && `latin number: ${clean(doc.latinNumber)}`,
        flags,
      ],
      '; ',
    );
    // Codes the table does not know ("other") are told by their description, as other lists' labels are.
    const type = ID_TYPES[typeCode];
    addIdentifier(record, {
      ...(type ? { type } : classifyIdLabel(clean(doc.identificationTypeDescription) ?? typeCode)),
      value: doc.number ?? '',
      country: country(doc),
      label: clean(doc.identificationTypeDescription) ?? typeCode,
      note,
    });
  }
}

function buildRecord(e: EuEntity): ListRecord | undefined {
  const id = clean(e.attrs.logicalId);
  const primary = pickPrimary(e.names);
  const primaryName = primary ? wholeName(primary) : undefined;
  if (!id || !primaryName) return undefined;
  const code = (e.attrs.subjectType ?? '').toLowerCase();
  const entityType: EntityType = code === 'person' || code === 'p' ? 'person' : 'organization';
  const record = emptyRecord('eu_csl', id, entityType, primaryName);
  const titles: string[] = [];
  const positions: string[] = [];

  for (const name of e.names) {
    const gender = genderOf(name.gender);
    if (gender) record.gender = gender;
    addUnique(titles, clean(name.title));
    addUnique(positions, clean(name.function));
    if (name === primary) continue;
    addAlias(record, wholeName(name), name.strong === undefined || isTrue(name.strong) ? 'strong' : 'weak', 'aka');
  }

  addBirthdates(record, e.birthdates);

  for (const citizenship of e.citizenships)
    addUnique(record.citizenships, country(citizenship) ?? countryDescription(citizenship));

  for (const entryAddress of e.addresses) {
    const text = joinParts(
      [
        entryAddress.street,
        clean(entryAddress.poBox) ? `PO Box ${clean(entryAddress.poBox)}` : undefined,
        entryAddress.zipCode,
        entryAddress.city,
        entryAddress.place,
        entryAddress.region,
      ],
      ', ',
    );
    const address = makeAddress({
      text,
      city: entryAddress.city,
      country: country(entryAddress),
      countryName: countryDescription(entryAddress),
    });
    if (address) record.addresses.push(address);
  }

  addIdentifications(record, e.identifications);

  addIdentifier(record, { type: 'eu_ref', value: e.attrs.euReferenceNumber ?? '' });
  for (const unReference of (e.attrs.unitedNationId ?? '').split(/[;,]\s*/))
    addIdentifier(record, { type: 'un_ref', value: unReference });

  const published: string[] = [];
  for (const regulation of e.regulations) {
    addUnique(record.programs, clean(regulation.programme));
    if (clean(regulation.publicationDate)) published.push(regulation.publicationDate!.slice(0, 10));
    if (!record.sourceUrl && clean(regulation.publicationUrl)) record.sourceUrl = clean(regulation.publicationUrl)!;
  }
  // Not every entity carries designationDate; its oldest regulation is when it was first listed.
  const listed = clean(e.attrs.designationDate) ?? published.sort()[0];
  if (listed) record.listingDate = listed.slice(0, 10);
  const remarks = [...e.remarks, clean(e.attrs.designationDetails)].filter((x): x is string => !!x);
  if (remarks.length) record.remarks = [...new Set(remarks)].join('\n');
  if (titles.length) record.titles = titles;
  if (positions.length) record.positions = positions;
  return finishRecord(record);
}

function fromXml(node: XmlNode): EuEntity {
  const attrs = { ...node.attrs };
  const subject = children(node, 'subjectType')[0];
  if (subject) attrs.subjectType = subject.attrs.code ?? subject.attrs.classificationCode ?? '';
  const regulations = children(node, 'regulation').map((r) => {
    const url = clean(children(r, 'publicationUrl')[0]?.text);
    return url ? { ...r.attrs, publicationUrl: url } : r.attrs;
  });
  return {
    attrs,
    remarks: children(node, 'remark')
      .map((r) => clean(r.text))
      .filter((t): t is string => !!t),
    regulations,
    names: children(node, 'nameAlias').map((n) => n.attrs),
    birthdates: children(node, 'birthdate').map((n) => n.attrs),
    citizenships: children(node, 'citizenship').map((n) => n.attrs),
    addresses: children(node, 'address').map((n) => n.attrs),
    identifications: children(node, 'identification').map((n) => n.attrs),
  };
}

async function parseXml(file: string, warnings: string[]): Promise<{ records: ListRecord[]; publishedAt?: string }> {
  // The export repeats an entity (same logicalId) once per regulation regime it is listed under.
  const records = new Map<string, ListRecord>();
  let publishedAt: string | undefined;
  let rootName = '';
  await streamXmlChildren(file, {
    root(name, attrs) {
      rootName = name;
      if (name !== 'export') throw new Error(`${path.basename(file)}: root element <${name}> is not an FSF <export>`);
      publishedAt = clean(attrs.generationDate)?.slice(0, 10);
    },
    child(node) {
      if (node.name !== 'sanctionEntity') return;
      const record = buildRecord(fromXml(node));
      const seen = record && records.get(record.id);
      if (record && seen) mergeRecords(seen, record);
      else if (record) records.set(record.id, record);
      else warnings.push(`sanctionEntity ${node.attrs.logicalId ?? '?'} has no id or name; skipped`);
    },
  });
  void rootName;
  return { records: [...records.values()], publishedAt };
}

/**
 * CSV column prefixes and the XML attribute each column stands for (FSF CSV 1.1 header, e.g.
 * `NameAlias_WholeName`, `BirthDate_YearRangeFrom`, `Identification_TypeCode`).
 */
const CSV_SECTIONS: Record<string, keyof Omit<EuEntity, 'attrs' | 'remarks' | 'regulations'>> = {
  NameAlias: 'names',
  BirthDate: 'birthdates',
  Citizenship: 'citizenships',
  Address: 'addresses',
  Identification: 'identifications',
};
const CSV_RENAMES: Record<string, string> = {
  'BirthDate.BirthDate': 'birthdate',
  'BirthDate.Day': 'dayOfMonth',
  'BirthDate.Month': 'monthOfYear',
  'Identification.TypeCode': 'identificationTypeCode',
  'Identification.TypeDescription': 'identificationTypeDescription',
  'Identification.IssuedDate': 'issueDate',
  'Entity.SubjectType': 'subjectType',
  'Entity.EU_ReferenceNumber': 'euReferenceNumber',
};

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

type CsvEntity = EuEntity & { seen: Set<string> };

function newCsvEntity(id: string): CsvEntity {
  return {
    attrs: { logicalId: id },
    remarks: [],
    regulations: [],
    names: [],
    birthdates: [],
    citizenships: [],
    addresses: [],
    identifications: [],
    seen: new Set(),
  };
}

/** One row's cells by section (`NameAlias_WholeName` -> names.wholeName); the entity's regulation apart. */
function csvSections(header: string[], row: string[]): Map<string, Attrs> {
  const sections = new Map<string, Attrs>();
  for (let index = 0; index < header.length; index++) {
    const col = header[index]!;
    const value = row[index];
    if (value === undefined || value === '') continue;
    const match = /^([A-Za-z]+)_(.+)$/.exec(col);
    if (!match) continue;
    const [, section, rest] = match as unknown as [string, string, string];
    if (rest.startsWith('Regulation_')) {
      if (section === 'Entity') {
        const key = lowerFirst(rest.slice('Regulation_'.length));
        const reg = sections.get('Regulation') ?? {};
        reg[key] = value;
        sections.set('Regulation', reg);
      }
      continue;
    }
    const attrs = sections.get(section) ?? {};
    attrs[CSV_RENAMES[`${section}.${rest}`] ?? lowerFirst(rest)] = value;
    sections.set(section, attrs);
  }
  return sections;
}

/** Adds a row's sections to its entity, each distinct name, date, address... once. */
function addCsvRow(csvEntity: CsvEntity, sections: Map<string, Attrs>): void {
  const entity = sections.get('Entity') ?? {};
  for (const [name, value] of Object.entries(entity)) if (name !== 'remark') csvEntity.attrs[name] ??= value;
  if (entity.remark) addUnique(csvEntity.remarks, clean(entity.remark));
  const reg = sections.get('Regulation');
  if (reg) {
    const key = `reg:${reg.numberTitle ?? ''}:${reg.programme ?? ''}`;
    if (!csvEntity.seen.has(key)) {
      csvEntity.seen.add(key);
      csvEntity.regulations.push(reg);
    }
  }
  for (const [section, target] of Object.entries(CSV_SECTIONS)) {
    const attrs = sections.get(section);
    if (!attrs) continue;
    const meaningful = Object.keys(attrs).some((k) => !['logicalId', 'regulationLanguage'].includes(k));
    if (!meaningful) continue;
    const key = `${section}:${attrs.logicalId ?? JSON.stringify(attrs)}`;
    if (csvEntity.seen.has(key)) continue;
    csvEntity.seen.add(key);
    csvEntity[target].push(attrs);
  }
}

async function parseCsvFile(
  file: string,
  warnings: string[],
): Promise<{ records: ListRecord[]; publishedAt?: string }> {
  let header: string[] | undefined;
  let publishedAt: string | undefined;
  // Rows of one entity are contiguous in the export, but grouping by id does not rely on it.
  const entities = new Map<string, CsvEntity>();
  for await (const row of readCsvRows(file, { delimiter: ';' })) {
    if (!header) {
      header = row.map((h) => h.trim());
      if (!header.includes('Entity_LogicalId')) {
        throw new Error(`${path.basename(file)}: no Entity_LogicalId column; not an FSF CSV file`);
      }
      continue;
    }
    const get = (col: string): string | undefined => {
      const column = header!.indexOf(col);
      return column < 0 ? undefined : clean(row[column]);
    };
    const id = get('Entity_LogicalId');
    if (!id) continue;
    publishedAt ??= parseDmy(get('fileGenerationDate')) ?? get('fileGenerationDate')?.slice(0, 10);
    let csvEntity = entities.get(id);
    if (!csvEntity) {
      csvEntity = newCsvEntity(id);
      entities.set(id, csvEntity);
    }
    addCsvRow(csvEntity, csvSections(header, row));
  }
  if (!header) throw new Error(`${path.basename(file)}: empty file`);
  const records: ListRecord[] = [];
  for (const csvEntity of entities.values()) {
    const record = buildRecord(csvEntity);
    if (record) records.push(record);
    else warnings.push(`entity ${csvEntity.attrs.logicalId} has no name; skipped`);
  }
  return { records, publishedAt };
}

export const euCslAdapter: SourceAdapter = {
  source: 'eu_csl',
  label: SOURCE_LABELS.eu_csl,
  publisherFiles: [
    {
      fileName: 'xmlFullSanctionsList_1_1.xml',
      url: `${FSF_BASE}/xmlFullSanctionsList_1_1/content?token=${FSF_TOKEN}`,
    },
    {
      fileName: 'csvFullSanctionsList_1_1.csv',
      url: `${FSF_BASE}/csvFullSanctionsList_1_1/content?token=${FSF_TOKEN}`,
      optional: true,
    },
  ],
  async parse(dir: string): Promise<ParsedList> {
    const warnings: string[] = [];
    const files = await readListDir(dir);
    const xml = files.matching(/\.xml$/);
    const csv = files.matching(/\.csv$/);
    const preferred = (files: string[], name: RegExp): string | undefined =>
      files.find((f) => name.test(path.basename(f))) ?? files[0];
    const xmlFile = preferred(xml, /^xmlFullSanctionsList/i);
    const csvFile = preferred(csv, /^csvFullSanctionsList/i);
    const file = xmlFile ?? csvFile;
    if (!file) throw new Error(`eu_csl: no FSF XML or CSV file in ${dir}`);
    for (const other of [...xml, ...csv]) if (other !== file) warnings.push(`ignored ${path.basename(other)}`);
    const result = xmlFile ? await parseXml(xmlFile, warnings) : await parseCsvFile(file, warnings);
    if (result.records.length === 0) throw new Error(`eu_csl: ${path.basename(file)} holds no sanctionEntity`);
    return {
      source: 'eu_csl',
      publishedAt: result.publishedAt,
      files: [path.basename(file)],
      format: xmlFile ? 'EU FSF XML 1.1' : 'EU FSF CSV 1.1',
      records: result.records,
      warnings,
    };
  },
};
