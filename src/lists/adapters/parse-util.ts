/**
 * Shared helpers for the list adapters: finding the publisher's files, streaming XML, XLSX and CSV,
 * and turning the publishers' free-text dates, names and countries into the normalized model.
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import zlib from 'node:zlib';
import { parse as parseCsv } from 'csv-parse';
import iconv from 'iconv-lite';
import { toCountryCode } from '../countries.js';
import type { Identifier, ListName, ListRecord, NameKind, NameQuality, PartialDate } from '../model.js';

// ---------------------------------------------------------------------------------------------
// Files

/** Regular files directly inside `dir` whose name matches `pattern` (tested case-insensitively). */
export async function findFiles(dir: string, pattern: RegExp): Promise<string[]> {
  const flags = pattern.flags.includes('i') ? pattern.flags : `${pattern.flags}i`;
  const re = new RegExp(pattern.source, flags);
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new Error(`cannot read list directory ${dir}: ${(err as Error).message}`);
  }
  return entries
    .filter((e) => e.isFile() && re.test(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// XML: stream the file, hand over each child of the root as a small tree

export interface XmlNode {
  /** Local name (namespace prefix removed). */
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export interface XmlRecordHandlers {
  onRoot?(name: string, attrs: Record<string, string>): void;
  /** Called once per complete child element of the root. */
  onChild(node: XmlNode): void;
}

function localName(qname: string): string {
  const i = qname.indexOf(':');
  return i < 0 ? qname : qname.slice(i + 1);
}

/**
 * Streams an XML file and builds one tree per child of the root, so memory stays bounded by the
 * largest record rather than the file. Throws a clear Error when the file is not well-formed
 * (truncated downloads must never pass for a shorter list).
 */
export async function streamXmlRecords(file: string, handlers: XmlRecordHandlers): Promise<{ root: string }> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: XmlNode[] = [];
  let root = '';
  let failure: Error | undefined;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('opentag', (tag) => {
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(tag.attributes)) {
      if (k === 'xmlns' || k.startsWith('xmlns:')) continue;
      attrs[localName(k)] = typeof v === 'string' ? v : (v as { value: string }).value;
    }
    const node: XmlNode = { name: localName(tag.name), attrs, children: [], text: '' };
    if (stack.length === 0) {
      root = node.name;
      handlers.onRoot?.(node.name, attrs);
    } else if (stack.length > 1) {
      stack[stack.length - 1]!.children.push(node);
    }
    stack.push(node);
  });
  const onText = (t: string): void => {
    // Text directly under the root is only whitespace; do not accumulate it.
    if (stack.length > 1) stack[stack.length - 1]!.text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const node = stack.pop();
    if (node && stack.length === 1) handlers.onChild(node);
  });

  const stream = createReadStream(file, { encoding: 'utf8' });
  try {
    for await (const chunk of stream) {
      parser.write(chunk as string);
      if (failure) break;
    }
    if (!failure) parser.close();
  } catch (err) {
    // saxes reports syntax errors through the 'error' event; anything thrown here came from a
    // handler (an adapter refusing the document) and keeps its own message.
    if (!failure) throw err;
  } finally {
    stream.destroy();
  }
  if (failure) {
    throw new Error(`${path.basename(file)}: not well-formed XML (${failure.message.split('\n')[0]})`);
  }
  if (!root) throw new Error(`${path.basename(file)}: empty XML document`);
  return { root };
}

export function kids(node: XmlNode | undefined, name: string): XmlNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

export function kid(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

/** All descendants with that local name, depth first. */
export function descendants(node: XmlNode | undefined, name: string, out: XmlNode[] = []): XmlNode[] {
  if (!node) return out;
  for (const c of node.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** Trimmed text of the first child with that name, or undefined when missing or blank. */
export function kidText(node: XmlNode | undefined, name: string): string | undefined {
  return clean(kid(node, name)?.text);
}

/** Trimmed text of every descendant with that name, blanks dropped. */
export function texts(node: XmlNode | undefined, name: string): string[] {
  return descendants(node, name)
    .map((n) => clean(n.text))
    .filter((t): t is string => t !== undefined);
}

// ---------------------------------------------------------------------------------------------
// XLSX

export type CellValue = string | number | Date | boolean | null;

export interface XlsxRow {
  sheetName: string;
  rowNumber: number;
  /** 0-based cells (column A = index 0), flattened to plain values. */
  cells: CellValue[];
}

// exceljs's streaming WorkbookReader cannot be used on the publishers' files: its unzip stream
// stops on OFSI's ConList.xlsx (ZIP64 data descriptors: "invalid signature: 0x8074b50"), and its
// shared-strings parser keeps the phonetic reading (<rPh>) of MOF's Japanese strings instead of
// the text ("告示日付" comes back as "ヒヅケ"). So XLSX is read here: the ZIP central directory gives
// each part's offset, each part is inflated as a stream, and saxes parses the sheet row by row.

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  offset: number;
}

async function readAt(fh: fs.FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

function u64(buf: Buffer, at: number): number {
  return Number(buf.readBigUInt64LE(at));
}

async function zipEntries(file: string): Promise<Map<string, ZipEntry>> {
  const fh = await fs.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const tailLength = Math.min(size, 65557 + 20);
    const tail = await readAt(fh, size - tailLength, tailLength);
    let eocd = -1;
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new Error('no ZIP end-of-central-directory record (truncated or not a ZIP file)');
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if ((cdOffset === 0xffffffff || count === 0xffff) && eocd >= 20 && tail.readUInt32LE(eocd - 20) === 0x07064b50) {
      const z64 = await readAt(fh, u64(tail, eocd - 20 + 8), 56);
      if (z64.readUInt32LE(0) !== 0x06064b50) throw new Error('bad ZIP64 end-of-central-directory record');
      count = u64(z64, 32);
      cdSize = u64(z64, 40);
      cdOffset = u64(z64, 48);
    }
    const cd = await readAt(fh, cdOffset, cdSize);
    const entries = new Map<string, ZipEntry>();
    let p = 0;
    for (let n = 0; n < count; n++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt ZIP central directory');
      const method = cd.readUInt16LE(p + 10);
      let compressedSize = cd.readUInt32LE(p + 20);
      let uncompressed = cd.readUInt32LE(p + 24);
      const nameLength = cd.readUInt16LE(p + 28);
      const extraLength = cd.readUInt16LE(p + 30);
      const commentLength = cd.readUInt16LE(p + 32);
      let offset = cd.readUInt32LE(p + 42);
      const name = cd.toString('utf8', p + 46, p + 46 + nameLength);
      let e = p + 46 + nameLength;
      const extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        const id = cd.readUInt16LE(e);
        const len = cd.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressed === 0xffffffff) {
            uncompressed = u64(cd, q);
            q += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = u64(cd, q);
            q += 8;
          }
          if (offset === 0xffffffff) offset = u64(cd, q);
        }
        e += 4 + len;
      }
      entries.set(name, { name, method, compressedSize, offset });
      p = extraEnd + commentLength;
    }
    return entries;
  } finally {
    await fh.close();
  }
}

async function entryStream(file: string, entry: ZipEntry): Promise<NodeJS.ReadableStream> {
  const fh = await fs.open(file, 'r');
  let local: Buffer;
  try {
    local = await readAt(fh, entry.offset, 30);
  } finally {
    await fh.close();
  }
  if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50)
    throw new Error(`bad ZIP local header for ${entry.name}`);
  const start = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const raw = createReadStream(file, { start, end: Math.max(start, start + entry.compressedSize - 1) });
  if (entry.method === 0) return raw;
  if (entry.method !== 8) throw new Error(`unsupported ZIP compression method ${entry.method} for ${entry.name}`);
  const inflate = zlib.createInflateRaw();
  raw.on('error', (e) => inflate.destroy(e));
  return raw.pipe(inflate);
}

type SaxHandlers = {
  open?(name: string, attrs: Record<string, string>): void;
  close?(name: string): void;
  text?(t: string): void;
};

/** Streams one XML part of the package through saxes, pausing after each chunk (one yield per chunk). */
async function* saxChunks(file: string, entry: ZipEntry, handlers: SaxHandlers): AsyncGenerator<void> {
  const parser = new SaxesParser({ xmlns: false });
  let failure: Error | undefined;
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('opentag', (tag) => {
    if (!handlers.open) return;
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(tag.attributes))
      attrs[k] = typeof v === 'string' ? v : (v as { value: string }).value;
    handlers.open(localName(tag.name), attrs);
  });
  if (handlers.close) parser.on('closetag', (tag) => handlers.close!(localName(tag.name)));
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of await entryStream(file, entry)) {
    parser.write(decoder.decode(chunk as Buffer, { stream: true }));
    if (failure) break;
    yield;
  }
  if (!failure) parser.close();
  if (failure) throw new Error(`${entry.name}: ${failure.message.split('\n')[0]}`);
}

async function saxPart(file: string, entry: ZipEntry, handlers: SaxHandlers): Promise<void> {
  for await (const _ of saxChunks(file, entry, handlers)) void _;
}

async function readSharedStrings(file: string, entry: ZipEntry | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!entry) return strings;
  let current: string[] | undefined;
  let inT = false;
  let phonetic = 0;
  await saxPart(file, entry, {
    open(name) {
      if (name === 'si') current = [];
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inT = true;
    },
    close(name) {
      if (name === 'si') {
        strings.push((current ?? []).join(''));
        current = undefined;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inT = false;
    },
    text(t) {
      if (inT && phonetic === 0 && current) current.push(t);
    },
  });
  return strings;
}

/** Style indexes whose number format is a date (built-in 14-22, 45-47, or a custom d/m/y code). */
async function readDateStyles(file: string, entry: ZipEntry | undefined): Promise<Set<number>> {
  const dates = new Set<number>();
  if (!entry) return dates;
  const customDate = new Set<number>();
  let inXfs = false;
  let index = 0;
  await saxPart(file, entry, {
    open(name, attrs) {
      if (name === 'numFmt') {
        const code = (attrs.formatCode ?? '').replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
        if (/[dmy]/i.test(code) && !/^[#0.,%E+-]*$/.test(code)) customDate.add(Number(attrs.numFmtId));
      } else if (name === 'cellXfs') inXfs = true;
      else if (name === 'xf' && inXfs) {
        const id = Number(attrs.numFmtId ?? 0);
        if ((id >= 14 && id <= 22) || (id >= 45 && id <= 47) || customDate.has(id)) dates.add(index);
        index++;
      }
    },
    close(name) {
      if (name === 'cellXfs') inXfs = false;
    },
  });
  return dates;
}

function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref) {
    const c = ch.charCodeAt(0);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

/** Streams every row of every sheet, in workbook order, with plain cell values. */
export async function* streamXlsxRows(file: string): AsyncGenerator<XlsxRow> {
  const base = path.basename(file);
  let entries: Map<string, ZipEntry>;
  try {
    entries = await zipEntries(file);
  } catch (err) {
    throw new Error(`${base}: not a readable XLSX workbook (${(err as Error).message})`);
  }
  const workbook = entries.get('xl/workbook.xml');
  if (!workbook) throw new Error(`${base}: not an XLSX workbook (no xl/workbook.xml)`);
  try {
    const sheets: { name: string; rid: string }[] = [];
    await saxPart(file, workbook, {
      open(name, attrs) {
        if (name === 'sheet') sheets.push({ name: attrs.name ?? '', rid: attrs['r:id'] ?? attrs.id ?? '' });
      },
    });
    const targets = new Map<string, string>();
    const rels = entries.get('xl/_rels/workbook.xml.rels');
    if (rels) {
      await saxPart(file, rels, {
        open(name, attrs) {
          if (name === 'Relationship' && attrs.Id && attrs.Target) {
            const t = attrs.Target.startsWith('/') ? attrs.Target.slice(1) : `xl/${attrs.Target}`;
            targets.set(attrs.Id, t);
          }
        },
      });
    }
    const shared = await readSharedStrings(file, entries.get('xl/sharedStrings.xml'));
    const dateStyles = await readDateStyles(file, entries.get('xl/styles.xml'));
    for (const sheet of sheets) {
      const entry = entries.get(targets.get(sheet.rid) ?? '');
      if (!entry) continue;
      const ready: XlsxRow[] = [];
      let cells: CellValue[] = [];
      let rowNumber = 0;
      let cell: { col: number; type: string; style: number } | undefined;
      let value = '';
      let inValue = false;
      let phonetic = 0;
      const sheetName = sheet.name;
      const handlers: SaxHandlers = {
        open(name, attrs) {
          if (name === 'row') {
            rowNumber = Number(attrs.r ?? rowNumber + 1);
            cells = [];
          } else if (name === 'c') {
            cell = {
              col: attrs.r ? columnIndex(attrs.r) : cells.length,
              type: attrs.t ?? 'n',
              style: Number(attrs.s ?? 0),
            };
            value = '';
          } else if (name === 'v' || name === 't') inValue = true;
          else if (name === 'rPh') phonetic++;
        },
        close(name) {
          if (name === 'v' || name === 't') inValue = false;
          else if (name === 'rPh') phonetic--;
          else if (name === 'c' && cell) {
            let v: CellValue = null;
            if (value !== '') {
              if (cell.type === 's') v = shared[Number(value)] ?? null;
              else if (cell.type === 'inlineStr' || cell.type === 'str') v = value;
              else if (cell.type === 'b') v = value === '1';
              else if (cell.type === 'e') v = null;
              else {
                const num = Number(value);
                v = Number.isFinite(num)
                  ? dateStyles.has(cell.style)
                    ? new Date(Math.round((num - 25569) * 86400000))
                    : num
                  : value;
              }
            }
            while (cells.length < cell.col) cells.push(null);
            cells[cell.col] = v;
            cell = undefined;
          } else if (name === 'row') {
            if (cells.some((c) => c !== null && c !== '')) ready.push({ sheetName, rowNumber, cells });
          }
        },
        text(t) {
          if (inValue && phonetic === 0 && cell) value += t;
        },
      };
      // Rows are handed over after each chunk, so memory holds one chunk's rows, not the sheet.
      for await (const _ of saxChunks(file, entry, handlers)) {
        void _;
        if (ready.length) yield* ready.splice(0, ready.length);
      }
      yield* ready.splice(0, ready.length);
    }
  } catch (err) {
    const msg = (err as Error).message;
    throw new Error(msg.startsWith(base) ? msg : `${base}: not a readable XLSX workbook (${msg})`);
  }
}

/** Cell as trimmed text ('' when empty). Dates become YYYY-MM-DD. */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return isoDate(value);
  return String(value).replace(/\r\n?/g, '\n').trim();
}

// ---------------------------------------------------------------------------------------------
// CSV

export interface CsvOptions {
  delimiter?: string;
  encoding?: 'utf8' | 'windows-1252';
}

/** Streams CSV records as arrays of strings; the BOM is dropped, short rows are allowed. */
export async function* streamCsvRows(file: string, options: CsvOptions = {}): AsyncGenerator<string[]> {
  const source = createReadStream(file);
  const decoded =
    options.encoding === 'windows-1252' ? source.pipe(iconv.decodeStream('win1252')) : source.setEncoding('utf8');
  const parser = decoded.pipe(
    parseCsv({
      delimiter: options.delimiter ?? ',',
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }),
  );
  try {
    for await (const rec of parser) yield rec as string[];
  } catch (err) {
    throw new Error(`${path.basename(file)}: not readable CSV (${(err as Error).message})`);
  } finally {
    source.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Text

/** Collapses whitespace; returns undefined for blank and placeholder values ("NA", "-", "n/a"). */
export function clean(value: string | undefined | null): string | undefined {
  if (value === undefined || value === null) return undefined;
  const t = String(value).replace(/\s+/g, ' ').trim();
  if (!t || /^(n\/?a|na|none|-+|null|unknown|不明|なし|－|ー)$/i.test(t)) return undefined;
  return t;
}

export function joinParts(parts: (string | undefined | null)[], sep = ' '): string {
  return parts
    .map((p) => clean(p))
    .filter((p): p is string => !!p)
    .join(sep);
}

export function pushUnique<T>(list: T[], value: T | undefined): void {
  if (value === undefined || value === '') return;
  if (!list.includes(value)) list.push(value);
}

/**
 * Splits a publisher's enumerations: "a) x b) y", "(a) x (b) y", "1) x 2) y", "(1) x (2) y".
 * Text without markers comes back as one item.
 */
export function splitEnumerated(text: string): string[] {
  const t = text.trim();
  const marker = /(^|[\s,;、])\(?([a-z]|\d{1,2})\)\s*/g;
  const found: { start: number; end: number; label: string }[] = [];
  let m: RegExpExecArray | null;
  while ((m = marker.exec(t))) {
    found.push({ start: m.index + m[1]!.length, end: m.index + m[0].length, label: m[2]! });
  }
  // Accept only a sequence that starts at a/1 and counts up, so "Road 3) " stays text.
  const seq: typeof found = [];
  for (const p of found) {
    const prev = seq[seq.length - 1];
    const ok = prev
      ? /^\d+$/.test(prev.label)
        ? p.label === String(Number(prev.label) + 1)
        : p.label.length === 1 && p.label.charCodeAt(0) === prev.label.charCodeAt(0) + 1
      : p.label === 'a' || p.label === '1';
    if (ok) seq.push(p);
  }
  if (seq.length === 0) return t ? [t] : [];
  const out: string[] = [];
  const before = t.slice(0, seq[0]!.start).replace(/[\s,;、:]+$/, '');
  if (before) out.push(before);
  for (let i = 0; i < seq.length; i++) {
    const piece = t.slice(seq[i]!.end, seq[i + 1]?.start);
    const c = piece.replace(/^[\s,;、]+|[\s,;、]+$/g, '');
    if (c) out.push(c);
  }
  return out;
}

/** ISO 15924 script name of a name that is not Latin, else undefined. */
export function scriptOf(name: string): string | undefined {
  const kana = /[\p{Script=Katakana}\p{Script=Hiragana}]/u.test(name);
  const han = /\p{Script=Han}/u.test(name);
  if (kana) return han ? 'Japanese' : 'Katakana';
  if (han) return 'Han';
  const scripts: [RegExp, string][] = [
    [/\p{Script=Cyrillic}/u, 'Cyrillic'],
    [/\p{Script=Arabic}/u, 'Arabic'],
    [/\p{Script=Hangul}/u, 'Hangul'],
    [/\p{Script=Greek}/u, 'Greek'],
    [/\p{Script=Hebrew}/u, 'Hebrew'],
    [/\p{Script=Georgian}/u, 'Georgian'],
    [/\p{Script=Armenian}/u, 'Armenian'],
    [/\p{Script=Thai}/u, 'Thai'],
    [/\p{Script=Myanmar}/u, 'Myanmar'],
    [/\p{Script=Ethiopic}/u, 'Ethiopic'],
    [/\p{Script=Devanagari}/u, 'Devanagari'],
  ];
  for (const [re, label] of scripts) if (re.test(name)) return label;
  return undefined;
}

/** Adds an alias unless it repeats the primary name or an alias already present. */
export function addAlias(
  record: ListRecord,
  name: string | undefined,
  quality: NameQuality,
  kind: NameKind,
  script?: string,
): void {
  const n = clean(name);
  if (!n) return;
  const key = n.toLocaleLowerCase();
  if (record.name.toLocaleLowerCase() === key) return;
  const existing = record.aliases.find((a) => a.name.toLocaleLowerCase() === key);
  if (existing) {
    // A name listed both ways counts as strong.
    if (quality === 'strong') existing.quality = 'strong';
    return;
  }
  const alias: ListName = { name: n, quality, kind };
  const s = script ?? scriptOf(n);
  if (s) alias.script = s;
  record.aliases.push(alias);
}

export function addIdentifier(record: ListRecord, id: Identifier): void {
  const value = clean(id.value);
  if (!value) return;
  const dup = record.identifiers.some((x) => x.type === id.type && x.value === value && x.country === id.country);
  if (dup) return;
  const out: Identifier = { type: id.type, value };
  if (id.country) out.country = id.country;
  if (clean(id.label)) out.label = clean(id.label)!;
  if (clean(id.note)) out.note = clean(id.note)!;
  record.identifiers.push(out);
}

export function addDates(record: ListRecord, dates: PartialDate[]): void {
  for (const d of dates) {
    const existing = record.birthDates.find((x) => x.date === d.date);
    if (existing) {
      if (!d.approximate) delete existing.approximate;
      continue;
    }
    record.birthDates.push(d.approximate ? { date: d.date, approximate: true } : { date: d.date });
  }
}

/** Removes empty optional arrays' siblings: drops undefined optional fields so records stay lean. */
export function finishRecord(record: ListRecord): ListRecord {
  if (record.titles && record.titles.length === 0) delete record.titles;
  if (record.positions && record.positions.length === 0) delete record.positions;
  if (record.remarks !== undefined && !record.remarks) delete record.remarks;
  return record;
}

// ---------------------------------------------------------------------------------------------
// Dates

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

function pad(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

export function isoDate(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Excel's 1900 date system serial (45607 = 2024-11-11) to YYYY-MM-DD. */
export function excelSerialToIso(serial: number): string {
  const ms = Math.round((serial - 25569) * 86400000);
  return isoDate(new Date(ms));
}

function validYmd(y: number, m?: number, d?: number): boolean {
  if (y < 1800 || y > 2100) return false;
  if (m === undefined) return true;
  if (m < 1 || m > 12) return false;
  if (d === undefined) return true;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

function ymd(y: number, m?: number, d?: number): string | undefined {
  if (!validYmd(y, m, d)) return undefined;
  if (m === undefined) return String(y);
  if (d === undefined) return `${y}-${pad(m)}`;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** "dd/mm/yyyy" as OFSI and FCDO write it; "00", "dd", "mm" stand for unknown parts. */
export function parseDmy(text: string | undefined): string | undefined {
  const t = clean(text);
  if (!t) return undefined;
  const m = /^(\d{1,2}|dd|00)[/.-](\d{1,2}|mm|00)[/.-](\d{4})$/i.exec(t);
  if (!m) {
    if (/^\d{4}$/.test(t)) return ymd(Number(t));
    if (/^\d{4}-\d{2}-\d{2}/.test(t)) return ymd(Number(t.slice(0, 4)), Number(t.slice(5, 7)), Number(t.slice(8, 10)));
    return undefined;
  }
  const y = Number(m[3]);
  const mo = /^\d+$/.test(m[2]!) && Number(m[2]) > 0 ? Number(m[2]) : undefined;
  const d = mo !== undefined && /^\d+$/.test(m[1]!) && Number(m[1]) > 0 ? Number(m[1]) : undefined;
  return ymd(y, mo, d);
}

const MON = '(jan|feb|mar|apr|may|jun|jul|aug|sept?|oct|nov|dec)[a-z]*\\.?';
const DATE_TOKEN = new RegExp(
  [
    '(?<iso>(?<!\\d)(\\d{4})-(\\d{1,2})-(\\d{1,2})(?!\\d))',
    '(?<dmy>(?<![\\d/])(\\d{1,2}|dd|00)[/.](\\d{1,2}|mm|00)[/.](\\d{4})(?!\\d))',
    `(?<dmon>(?<!\\d)(\\d{1,2})\\.?\\s*${MON},?\\s*(\\d{4})(?!\\d))`,
    `(?<mond>\\b${MON}\\s+(\\d{1,2}),?\\s+(\\d{4})(?!\\d))`,
    `(?<mony>\\b${MON}[\\s,-]*(\\d{4})(?!\\d))`,
    '(?<range>(?<!\\d)(\\d{4})\\s*年?\\s*(?:-|–|—|~|～|to|and|until|から)\\s*(\\d{4})(?!\\d))',
    '(?<jp>(\\d{4})\\s*年(?:\\s*(\\d{1,2})\\s*月(?:\\s*(\\d{1,2})\\s*日)?)?)',
    '(?<ym>(?<!\\d)(\\d{4})-(\\d{2})(?![\\d-]))',
    '(?<year>(?<!\\d)(1[89]\\d\\d|20\\d\\d)(?!\\d))',
  ].join('|'),
  'gi',
);

const APPROX = /approx|circa|\bca\.|\babout\b|\baround\b|\bbetween\b|頃|ごろ|約|推定|early|late|mid|の間/i;

/** Years in a range, marked approximate (ranges wider than 30 years keep only their ends). */
function expandRange(from: number, to: number): PartialDate[] {
  if (to < from) [from, to] = [to, from];
  if (to - from > 30)
    return [
      { date: String(from), approximate: true },
      { date: String(to), approximate: true },
    ];
  const out: PartialDate[] = [];
  for (let y = from; y <= to; y++) if (validYmd(y)) out.push({ date: String(y), approximate: true });
  return out;
}

/** Dates found in one text item (no enumeration splitting). */
function scanDates(item: string): PartialDate[] {
  const approx = APPROX.test(item);
  const out: PartialDate[] = [];
  const add = (date: string | undefined): void => {
    if (date) out.push(approx ? { date, approximate: true } : { date });
  };
  DATE_TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DATE_TOKEN.exec(item))) {
    const g = m.groups!;
    const num = (i: number): number => Number(m![i]);
    if (g.iso) add(ymd(num(2), num(3), num(4)));
    else if (g.dmy) add(parseDmy(`${m[6]}/${m[7]}/${m[8]}`));
    else if (g.dmon) add(ymd(num(12), MONTHS[m[11]!.toLowerCase().slice(0, 3)], num(10)));
    else if (g.mond) add(ymd(num(16), MONTHS[m[14]!.toLowerCase().slice(0, 3)], num(15)));
    else if (g.mony) add(ymd(num(19), MONTHS[m[18]!.toLowerCase().slice(0, 3)]));
    else if (g.range) out.push(...expandRange(num(21), num(22)));
    else if (g.jp) add(ymd(num(24), m[25] ? num(25) : undefined, m[25] && m[26] ? num(26) : undefined));
    else if (g.ym) add(ymd(num(28), num(29)));
    else if (g.year) add(ymd(num(31)));
  }
  return out;
}

/**
 * Dates of birth from a publisher's free text: "a) Approximately 1955-1958 b) 1960",
 * "26 Dec. 1955", "19/08/1974", "Between 1975 and 1979", "1963年頃", "(a)1958年 (b)1959年",
 * "1965-07-15 OR 1969-09-28". Ranges become their years, marked approximate.
 */
export function parseDateText(text: string | undefined | null): PartialDate[] {
  const t = clean(text ?? undefined);
  if (!t) return [];
  const out: PartialDate[] = [];
  for (const item of splitEnumerated(t).flatMap((s) => s.split(/\s*(?:;|>>|\n|\bor\b|又は|若しくは|、)\s*/i))) {
    for (const d of scanDates(item)) {
      const existing = out.find((x) => x.date === d.date);
      if (existing) {
        if (!d.approximate) delete existing.approximate;
      } else out.push(d);
    }
  }
  return out;
}

/** A birth date cell that may be an Excel date, a serial number, a year or free text. */
export function parseDateCell(value: CellValue | undefined): PartialDate[] {
  if (value === null || value === undefined) return [];
  if (value instanceof Date) return [{ date: isoDate(value) }];
  if (typeof value === 'number') {
    if (value >= 1800 && value <= 2100) return [{ date: String(value) }];
    if (value > 0 && value < 80000) return [{ date: excelSerialToIso(value) }];
    return [];
  }
  return parseDateText(String(value));
}

/** First full date (YYYY-MM-DD) in a text, for listing dates like "Listed on 12 Apr. 2000 (amended ...)". */
export function firstFullDate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return scanDates(text).find((d) => d.date.length === 10)?.date;
}

// ---------------------------------------------------------------------------------------------
// Countries

/** Nationality adjectives the publishers write instead of country names. */
const DEMONYMS: Record<string, string> = {
  afghan: 'AF',
  albanian: 'AL',
  algerian: 'DZ',
  american: 'US',
  angolan: 'AO',
  argentine: 'AR',
  argentinian: 'AR',
  armenian: 'AM',
  australian: 'AU',
  austrian: 'AT',
  azerbaijani: 'AZ',
  bahraini: 'BH',
  bangladeshi: 'BD',
  belarusian: 'BY',
  belarussian: 'BY',
  belgian: 'BE',
  bosnian: 'BA',
  brazilian: 'BR',
  british: 'GB',
  bulgarian: 'BG',
  burmese: 'MM',
  burundian: 'BI',
  cambodian: 'KH',
  cameroonian: 'CM',
  canadian: 'CA',
  'central african': 'CF',
  chadian: 'TD',
  chilean: 'CL',
  chinese: 'CN',
  colombian: 'CO',
  comoran: 'KM',
  comorian: 'KM',
  congolese: 'CD',
  croatian: 'HR',
  cuban: 'CU',
  cypriot: 'CY',
  czech: 'CZ',
  danish: 'DK',
  djiboutian: 'DJ',
  dutch: 'NL',
  ecuadorian: 'EC',
  egyptian: 'EG',
  emirati: 'AE',
  eritrean: 'ER',
  estonian: 'EE',
  ethiopian: 'ET',
  filipino: 'PH',
  finnish: 'FI',
  french: 'FR',
  gambian: 'GM',
  georgian: 'GE',
  german: 'DE',
  ghanaian: 'GH',
  greek: 'GR',
  guinean: 'GN',
  haitian: 'HT',
  hungarian: 'HU',
  indian: 'IN',
  indonesian: 'ID',
  iranian: 'IR',
  iraqi: 'IQ',
  irish: 'IE',
  israeli: 'IL',
  italian: 'IT',
  ivorian: 'CI',
  jamaican: 'JM',
  japanese: 'JP',
  jordanian: 'JO',
  kazakh: 'KZ',
  kazakhstani: 'KZ',
  kenyan: 'KE',
  korean: 'KR',
  'north korean': 'KP',
  kosovar: 'XK',
  kuwaiti: 'KW',
  kyrgyz: 'KG',
  lao: 'LA',
  laotian: 'LA',
  latvian: 'LV',
  lebanese: 'LB',
  liberian: 'LR',
  libyan: 'LY',
  lithuanian: 'LT',
  macedonian: 'MK',
  malaysian: 'MY',
  malian: 'ML',
  maldivian: 'MV',
  maltese: 'MT',
  mauritanian: 'MR',
  mexican: 'MX',
  moldovan: 'MD',
  mongolian: 'MN',
  montenegrin: 'ME',
  moroccan: 'MA',
  mozambican: 'MZ',
  myanmar: 'MM',
  namibian: 'NA',
  nepalese: 'NP',
  nepali: 'NP',
  nicaraguan: 'NI',
  nigerian: 'NG',
  nigerien: 'NE',
  norwegian: 'NO',
  omani: 'OM',
  pakistani: 'PK',
  palestinian: 'PS',
  panamanian: 'PA',
  peruvian: 'PE',
  polish: 'PL',
  portuguese: 'PT',
  qatari: 'QA',
  romanian: 'RO',
  russian: 'RU',
  rwandan: 'RW',
  saudi: 'SA',
  'saudi arabian': 'SA',
  senegalese: 'SN',
  serbian: 'RS',
  'sierra leonean': 'SL',
  singaporean: 'SG',
  slovak: 'SK',
  slovenian: 'SI',
  somali: 'SO',
  'south african': 'ZA',
  'south sudanese': 'SS',
  spanish: 'ES',
  'sri lankan': 'LK',
  sudanese: 'SD',
  swedish: 'SE',
  swiss: 'CH',
  syrian: 'SY',
  taiwanese: 'TW',
  tajik: 'TJ',
  tajikistani: 'TJ',
  tanzanian: 'TZ',
  thai: 'TH',
  trinidadian: 'TT',
  tunisian: 'TN',
  turkish: 'TR',
  turkmen: 'TM',
  ugandan: 'UG',
  ukrainian: 'UA',
  uruguayan: 'UY',
  uzbek: 'UZ',
  uzbekistani: 'UZ',
  venezuelan: 'VE',
  vietnamese: 'VN',
  yemeni: 'YE',
  yemenite: 'YE',
  zambian: 'ZM',
  zimbabwean: 'ZW',
  bahamian: 'BS',
  barbadian: 'BB',
  belizean: 'BZ',
  beninese: 'BJ',
  bhutanese: 'BT',
  bolivian: 'BO',
  botswanan: 'BW',
  bruneian: 'BN',
  burkinabe: 'BF',
  'cape verdean': 'CV',
  'costa rican': 'CR',
  dominican: 'DO',
  'equatorial guinean': 'GQ',
  fijian: 'FJ',
  gabonese: 'GA',
  guatemalan: 'GT',
  guyanese: 'GY',
  honduran: 'HN',
  icelandic: 'IS',
  luxembourgish: 'LU',
  malagasy: 'MG',
  malawian: 'MW',
  mauritian: 'MU',
  'new zealander': 'NZ',
  paraguayan: 'PY',
  salvadoran: 'SV',
  seychellois: 'SC',
  surinamese: 'SR',
  togolese: 'TG',
  tongan: 'TO',
  dprk: 'KP',
  soviet: 'SU',
  yugoslav: 'YU',
  cypriote: 'CY',
  sahrawi: 'EH',
  kirghiz: 'KG',
};

/** ISO2 for a country name, code or nationality adjective; undefined when unknown. */
export function countryCode(value: string | undefined | null): string | undefined {
  const t = clean(value);
  if (!t) return undefined;
  const stripped = t.replace(/^(citizen|national|nationality)\s+of\s+/i, '').replace(/[.\s]+$/, '');
  const demonym = DEMONYMS[stripped.toLowerCase().replace(/\s+(national|citizen)$/, '')];
  if (demonym) return demonym;
  return toCountryCode(stripped);
}

/**
 * One or several countries from a publisher's wording ("Russian and Ukrainian", "(1) Pakistan (2)
 * Afghanistan", "Syria; Lebanon"): ISO2 where resolvable, else the wording itself.
 */
export function countryList(value: string | undefined | null): string[] {
  const t = clean(value);
  if (!t) return [];
  const out: string[] = [];
  for (const piece of splitEnumerated(t).flatMap((p) => p.split(/\s*;\s*/))) {
    const p0 = clean(piece.replace(/^(possibly|reportedly|allegedly|probably)\s+/i, ''));
    if (!p0) continue;
    const whole = countryCode(p0);
    if (whole) {
      pushUnique(out, whole);
      continue;
    }
    for (const part of p0.split(/\s*(?:,|\band\b|\bor\b|、|・)\s*/i)) {
      const p = clean(part);
      if (p) pushUnique(out, countryCode(p) ?? p);
    }
  }
  return out;
}

/** Folds `other` into `into` (same publisher id listed twice, e.g. under two EU programmes). */
export function mergeRecords(into: ListRecord, other: ListRecord): ListRecord {
  addAlias(into, other.name, 'strong', 'aka');
  for (const a of other.aliases) addAlias(into, a.name, a.quality, a.kind, a.script);
  addDates(into, other.birthDates);
  for (const p of other.birthPlaces) pushUnique(into.birthPlaces, p);
  for (const c of other.nationalities) pushUnique(into.nationalities, c);
  for (const c of other.citizenships) pushUnique(into.citizenships, c);
  for (const a of other.addresses) {
    const key = JSON.stringify(a);
    if (!into.addresses.some((x) => JSON.stringify(x) === key)) into.addresses.push(a);
  }
  for (const i of other.identifiers) addIdentifier(into, i);
  for (const p of other.programs) pushUnique(into.programs, p);
  if (other.listingDate && (!into.listingDate || other.listingDate < into.listingDate))
    into.listingDate = other.listingDate;
  into.gender ??= other.gender;
  into.sourceUrl ??= other.sourceUrl;
  if (other.titles?.length) into.titles = [...new Set([...(into.titles ?? []), ...other.titles])];
  if (other.positions?.length) into.positions = [...new Set([...(into.positions ?? []), ...other.positions])];
  if (other.remarks && !(into.remarks ?? '').includes(other.remarks)) {
    into.remarks = into.remarks ? `${into.remarks}\n${other.remarks}` : other.remarks;
  }
  return into;
}
