/**
 * Japan: the Ministry of Finance workbook shisantouketsu<YYYYMMDD>.xlsx (資産凍結等経済制裁対象者リスト).
 * One sheet per regime; each sheet has a few title rows, then a header row starting 告示日付, with
 * columns that differ from sheet to sheet, so they are mapped by their header text.
 */
import path from 'node:path';
import {
  type Address,
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
  type CellValue,
  clean,
  countryCode,
  countryList,
  finishRecord,
  firstFullDate,
  type IdentifierClass,
  numbersIn,
  parseDateCell,
  readListDir,
  readXlsxRows,
  scriptOf,
  splitEnumerated,
} from './kit/index.js';

import { type Field, fieldOf, JA_COUNTRIES } from './jp-mof-columns.js';

const LIST_PAGE =
  'https://www.mof.go.jp/policy/international_policy/gaitame_kawase/gaitame/economic_sanctions/list.html';

/**
 * Numbers the remarks (その他の情報) give with a label, after NFKC: "IMO番号:9123456", "ロシア国家
 * 登録番号:1027700456024", "パキスタン納税番号:(a)1774308 (b)0980338", "電話番号は+96...". Other
 * numbered things the remarks cite (decisions, warrants, prisoner numbers) are not identifiers.
 */
const REMARK_LABELS =
  /IMO(?:番号)?\s*[:は]?\s*|[^\s:、。()]{0,12}?(?:旅券番号|パスポート番号|国家登録番号|会社番号|IDカード番号|ID番号|識別番号|社会保障番号|納税番号|ライセンス番号|電話番号|FAX番号|Identification Number)\s*(?:\([^)]*\))?\s*[:は]\s*/gu;

const LATIN = /[A-Za-z]/;
const JAPANESE = /[\p{Script=Katakana}\p{Script=Hiragana}\p{Script=Han}]/u;

/** Lines of a bilingual cell, each without wrapping brackets and "a.k.a." prefixes. */
/** Brackets in the text pair up: "(a)x(y" is not a line in brackets, "(x (y))" is. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === '(' || char === '（') depth++;
    else if ((char === ')' || char === '）') && --depth < 0) return false;
  }
  return depth === 0;
}

function lines(text: string): string[] {
  return text
    .split(/\n+/)
    .map((l) =>
      l
        .trim()
        .replace(/^[（(]\s*(.*?)\s*[）)]$/, (whole, inner: string) => (balanced(inner) ? inner : whole))
        .replace(/^(?:a\.?k\.?a\.?|f\.?k\.?a\.?)\s*[:,]?\s*/i, '')
        .trim(),
    )
    .filter(Boolean);
}

/**
 * Notes the workbook writes beside names, in brackets or on a line of their own: the kind of name
 * that follows or precedes ((別称) also called, (旧称) formerly called, (以前掲載の氏名) and
 * (formerly listed as) the name as listed before), or when and where the person was born. None is a
 * name. "original script: محمد لكحل" is a name after its label.
 */
const NAME_NOTE =
  /^(?:別称|別名|旧称|以前掲載の氏名|[^()]*以前のリスト記載ぶり.*|a\.?k\.?a\.?|(?:formerly|previously) listed as|original script)\s*:?$/i;
const BIRTH_NOTE = /出生|生まれ|生年月日/;
const ORIGINAL_SCRIPT = /^original script\s*:\s*/i;
/** Where an English birth note starts after a name: "Lased Ben Heni, born 5 Feb. 1969 in Tripoli, …", "(DOB: …". */
const ENGLISH_BIRTH_NOTE = /\s*(?:[,(]?\s*\bborn\s+(?:\d|in\b|on\b)|\(?\s*\b(?:DOB|POB)\s*:).*$/s;

/** The name a piece of a name cell holds, without its label; undefined for a note (NAME_NOTE). */
function nameIn(piece: string): string | undefined {
  const text = piece.trim();
  if (NAME_NOTE.test(text) || BIRTH_NOTE.test(text)) return undefined;
  return text.replace(ORIGINAL_SCRIPT, '');
}

/** Alias cells join names with 、 ； ; and (a)…(b)…, Latin lists also with commas. */
function splitNames(text: string): string[] {
  const out: string[] = [];
  for (const line of lines(text)) {
    // "Mullah(ムラー)": a gloss in the other script is a name of its own.
    const unglossed = line.replace(/\(([^()]*)\)/g, (whole, inner: string) =>
      /^[a-z]$/i.test(inner) || /^\d+$/.test(inner) ? whole : `、${nameIn(inner) ?? ''}、`,
    );
    for (const enumerated of splitEnumerated(unglossed)) {
      // An item of an enumeration that runs over several lines keeps its marker ("b)「カワ」"), and
      // nicknames stand in quotation marks: neither belongs to the name.
      const item = enumerated
        .replace(/^\(?(?:[a-z]|\d{1,2})\)\s*/, '')
        .replace(/[「」“”]/g, ' ')
        .replace(ENGLISH_BIRTH_NOTE, '');
      const seps = JAPANESE.test(item) ? /\s*[、；;]\s*/ : /\s*[;；,、]\s*/;
      for (const piece of item.split(seps)) {
        const cleaned = clean(piece.replace(/^[（(]|[）)]$/g, '').replace(/^(?:a\.?k\.?a\.?|f\.?k\.?a\.?)\s*/i, ''));
        const name = cleaned && nameIn(cleaned);
        if (name && name.length > 1) out.push(name);
      }
    }
  }
  return out;
}

function entityTypeFor(sheetName: string, row: Partial<Record<Field, string>>): 'person' | 'organization' {
  if (/個人/.test(sheetName)) return 'person';
  if (/団体|銀行/.test(sheetName)) return 'organization';
  return row.dob || row.passport || row.nationality || row.title ? 'person' : 'organization';
}

interface SheetState {
  sheetNo: string;
  program: string;
  columns: Map<number, Field>;
}

function rowFields(
  state: SheetState,
  cells: CellValue[],
): { text: Partial<Record<Field, string>>; dobCell?: CellValue } {
  const text: Partial<Record<Field, string>> = {};
  let dobCell: CellValue | undefined;
  for (const [column, field] of state.columns) {
    const cell = cells[column];
    // NFKC turns full-width brackets, letters and digits into ASCII, so "（ａ）" splits like "(a)".
    const cellString = cellText(cell).normalize('NFKC');
    if (!cellString) continue;
    if (field === 'dob' && dobCell === undefined) dobCell = cell ?? null;
    text[field] = text[field] ? `${text[field]}\n${cellString}` : cellString;
  }
  return { text, dobCell };
}

type RowText = Partial<Record<Field, string>>;

function addNameFields(record: ListRecord, fields: RowText): void {
  const addNames = (text: string | undefined, quality: NameQuality, kind: NameKind): void => {
    if (!text) return;
    for (const name of splitNames(text)) addAlias(record, name, quality, kind, scriptOf(name));
  };
  if (fields.ja)
    for (const line of lines(fields.ja)) addAlias(record, line, 'strong', 'aka', scriptOf(line) ?? 'Japanese');
  if (fields.en && clean(fields.en) !== record.name)
    for (const line of lines(fields.en)) {
      const name = nameIn(line);
      if (name) addAlias(record, name, 'strong', 'aka');
    }
  addNames(fields.alias, 'strong', 'aka');
  addNames(fields.former, 'strong', 'fka');
  addNames(fields.weak, 'weak', 'aka');
  if (fields.title) {
    record.titles ??= [];
    for (const title of splitNames(fields.title)) addUnique(record.titles, title);
  }
  if (fields.position) {
    record.positions ??= [];
    for (const line of lines(fields.position))
      for (const position of splitEnumerated(line)) addUnique(record.positions, clean(position));
  }
}

/** Lines of a bilingual cell that are Latin only, else all of them. */
function latinLines(text: string): string[] {
  const latin = lines(text).filter((line) => LATIN.test(line) && !JAPANESE.test(line));
  return latin.length ? latin : lines(text);
}

function addNationalities(record: ListRecord, nationality: string): void {
  const resolved: string[] = [];
  for (const line of lines(nationality)) {
    for (const code of countryList(line)) if (/^[A-Z]{2}$/.test(code)) addUnique(resolved, code);
    let rest = line;
    for (const [japanese, iso] of JA_COUNTRIES) {
      if (!rest.includes(japanese)) continue;
      addUnique(resolved, iso);
      rest = rest.split(japanese).join(' ');
    }
  }
  if (resolved.length) resolved.forEach((code) => addUnique(record.nationalities, code));
  else addUnique(record.nationalities, clean(nationality));
}

function addAddresses(record: ListRecord, addressText: string): void {
  const latin = lines(addressText).filter((line) => LATIN.test(line) && !JAPANESE.test(line));
  for (const line of latin.length ? latin : [lines(addressText).join(' ')]) {
    for (const item of splitEnumerated(line)) {
      const text = clean(item);
      if (!text || record.addresses.some((known) => known.text === text)) continue;
      const address: Address = { text };
      const last = clean(text.split(',').pop());
      const iso = countryCode(last);
      if (iso) {
        address.country = iso;
        address.countryName = last!;
      }
      record.addresses.push(address);
    }
  }
}

function addNumbersAndRemarks(record: ListRecord, fields: RowText): void {
  const columns: [string | undefined, IdentifierClass][] = [
    [fields.passport, { type: 'passport' }],
    [fields.idnumber, { type: 'national_id' }],
    [fields.phone, { type: 'other', kind: 'phone' }],
  ];
  for (const [text, column] of columns) {
    for (const found of numbersIn(text))
      addIdentifier(record, {
        ...column,
        value: found.value,
        note: found.context === found.value ? undefined : found.context,
      });
  }
  for (const match of `${fields.unref ?? ''}\n${fields.remarks ?? ''}`.matchAll(/\b([A-Z]{2,3}[a-z]?\.\d{3})\b/g)) {
    // Only the UN reference column is authoritative; in remarks the pattern also cites other entries.
    if (fields.unref?.includes(match[1]!)) addIdentifier(record, { type: 'un_ref', value: match[1]! });
  }
  for (const text of [fields.remarks, fields.alias]) addLabelledIdentifiers(record, text, REMARK_LABELS);
  if (fields.remarks) {
    const text = fields.remarks.trim();
    if (!(record.remarks ?? '').includes(text)) record.remarks = record.remarks ? `${record.remarks}\n${text}` : text;
  }
}

function applyRow(
  record: ListRecord,
  fields: RowText,
  dobCell: CellValue | undefined,
  combinedDobPlace: boolean,
): void {
  addNameFields(record, fields);
  if (dobCell !== undefined) {
    const dates =
      typeof dobCell === 'string' && combinedDobPlace
        ? parseDateCell(dobCell.split(/出生地|Place of birth/i)[0] ?? '')
        : parseDateCell(dobCell);
    addDates(record.birthDates, dates);
  }
  if (fields.pob) {
    for (const line of latinLines(fields.pob))
      for (const place of splitEnumerated(line)) addUnique(record.birthPlaces, clean(place));
  }
  if (fields.nationality) addNationalities(record, fields.nationality);
  if (fields.address) addAddresses(record, fields.address);
  addNumbersAndRemarks(record, fields);
}

/** shisantouketsu20260305.xlsx → 2026-03-05. */
function fileDate(file: string): string | undefined {
  const match = /(\d{4})(\d{2})(\d{2})/.exec(path.basename(file));
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

/** The newest dated workbook, else the likeliest one; the others are ignored with a warning. */
function chooseWorkbook(files: string[], warnings: string[]): string | undefined {
  const dated = files
    .filter((f) => /^shisantouketsu\d{8}\.xlsx$/i.test(path.basename(f)))
    .sort((a, b) => (fileDate(a) ?? '').localeCompare(fileDate(b) ?? ''));
  const file = dated[dated.length - 1] ?? files.find((f) => /^shisantouketsu/i.test(path.basename(f))) ?? files[0];
  if (file) for (const other of files) if (other !== file) warnings.push(`ignored ${path.basename(other)}`);
  return file;
}

/** A sheet's header row (starting 告示日付): its columns, the regime's number and name. */
function headerState(sheetName: string, cells: CellValue[]): SheetState {
  const columns = new Map<number, Field>();
  cells.forEach((cell, index) => {
    const field = fieldOf(cellText(cell));
    if (field && ![...columns.values()].includes(field)) columns.set(index, field);
    else if (field && ['alias', 'remarks', 'address'].includes(field)) columns.set(index, field);
  });
  return {
    sheetNo: /^(\d+)/.exec(sheetName)![1]!,
    program: sheetName.replace(/^\d+\s*[.．]\s*/, '').trim(),
    columns,
  };
}

/** The record a listing's first row opens, named in English if it can be; undefined without a name. */
function newRecord(entry: { id: string; sheetName: string; program: string; text: RowText }): ListRecord | undefined {
  const { text } = entry;
  const english = text.en ? lines(text.en)[0] : undefined;
  const primary = clean(english) ?? clean(text.ja ? lines(text.ja)[0] : undefined);
  if (!primary) return undefined;
  const record = emptyRecord('jp_mof', entry.id, entityTypeFor(entry.sheetName, text), primary);
  record.programs.push(entry.program);
  const listed = firstFullDate(text.date?.replace(/(\d{4})\.(\d{1,2})\.(\d{1,2})/g, '$1-$2-$3'));
  if (listed) record.listingDate = listed;
  record.sourceUrl = LIST_PAGE;
  return record;
}

export const jpMofAdapter: SourceAdapter = {
  source: 'jp_mof',
  label: SOURCE_LABELS.jp_mof,
  publisherFiles: [
    // MOF links a dated file from its list page; the sync layer resolves the newest link there.
    { fileName: 'shisantouketsu.xlsx', url: LIST_PAGE, linkPattern: 'shisantouketsu\\d{8}\\.xlsx' },
  ],
  async parse(dir: string): Promise<ParsedList> {
    const warnings: string[] = [];
    const file = chooseWorkbook((await readListDir(dir)).matching(/\.xlsx$/), warnings);
    if (!file) throw new Error(`jp_mof: no shisantouketsu<YYYYMMDD>.xlsx in ${dir}`);

    const records = new Map<string, ListRecord>();
    let state: SheetState | undefined;
    let stateSheet = '';
    let current: ListRecord | undefined;
    let deleted = 0;
    let combinedDobPlace = false;
    const skippedSheets = new Set<string>();
    for await (const row of readXlsxRows(file)) {
      if (row.sheetName !== stateSheet) {
        stateSheet = row.sheetName;
        state = undefined;
        current = undefined;
      }
      const name = row.sheetName.trim();
      if (name.includes('【解除】') || !/^\d+\s*[.．]/.test(name)) {
        // Wholly revoked regimes and the index sheet hold no listings.
        skippedSheets.add(name);
        continue;
      }
      const first = cellText(row.cells[0]).replace(/\s+/g, '');
      if (!state) {
        if (first === '告示日付') {
          state = headerState(name, row.cells);
          combinedDobPlace = row.cells.some((cell) => /生年月日・出生地/.test(cellText(cell)));
        }
        continue;
      }
      const { text, dobCell } = rowFields(state, row.cells);
      const number = clean(text.number?.replace(/\s+/g, ''));
      if (text.date?.includes('削除')) {
        deleted++;
        current = undefined;
        continue;
      }
      if (!number && !text.date) {
        // Rows under a merged 告示日付/告示番号 cell continue the entry above.
        if (current) applyRow(current, text, dobCell, combinedDobPlace);
        continue;
      }
      if (!number) {
        warnings.push(`${name} row ${row.rowNumber}: 告示日付 without 告示番号; skipped`);
        current = undefined;
        continue;
      }
      const id = `${state.sheetNo}-${number}`;
      let record = records.get(id);
      if (!record) {
        record = newRecord({ id, sheetName: name, program: state.program, text });
        if (!record) {
          warnings.push(`${name} row ${row.rowNumber}: no name; skipped`);
          current = undefined;
          continue;
        }
        records.set(id, record);
      }
      current = record;
      applyRow(record, text, dobCell, combinedDobPlace);
    }
    if (records.size === 0)
      throw new Error(`jp_mof: ${path.basename(file)} has no sheet with a 告示日付 header and listings`);
    if (deleted) warnings.push(`${deleted} deleted (削除) entries skipped`);
    if (skippedSheets.size) warnings.push(`sheets without listings skipped: ${[...skippedSheets].join(', ')}`);
    return {
      source: 'jp_mof',
      publishedAt: fileDate(file),
      files: [path.basename(file)],
      format: 'MOF economic sanctions workbook XLSX',
      records: [...records.values()].map(finishRecord),
      warnings,
    };
  },
};
