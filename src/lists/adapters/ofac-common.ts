/**
 * Helpers shared by the un_csl, us_ofac and us_csl adapters: streaming XML and CSV readers,
 * publisher date parsing, script detection and small record-building utilities.
 */
import { createReadStream } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { parse as parseCsv } from 'csv-parse';
import iconv from 'iconv-lite';
import { SaxesParser } from 'saxes';
import { toCountryCode } from '../countries.js';
import type { Identifier, ListName, ListRecord, NameKind, NameQuality, PartialDate } from '../model.js';

// ---------------------------------------------------------------------------------------------
// Files

/** Map of lower-cased file name to the real name, for the files directly inside `dir`. */
export async function listFiles(dir: string): Promise<Map<string, string>> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new Error(`cannot read list directory ${dir}: ${(err as Error).message}`);
  }
  const byLower = new Map<string, string>();
  for (const entry of entries) if (entry.isFile()) byLower.set(entry.name.toLowerCase(), entry.name);
  return byLower;
}

/** The real name of the first of `names` present (case-insensitively), or undefined. */
export function pickFile(files: Map<string, string>, ...names: string[]): string | undefined {
  for (const name of names) {
    const hit = files.get(name.toLowerCase());
    if (hit) return hit;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Streaming XML

/** A captured element: local name, attributes by local name, trimmed direct text, children. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: XmlNode[];
}

export interface XmlHandler {
  /**
   * Called for every element opened outside a captured subtree. Return true to capture the element
   * with its subtree; `onNode` then receives it once it closes. Only captured subtrees are held in
   * memory, so a 100 MB file streams in bounded space as long as records are captured one by one.
   */
  open(name: string, attrs: Record<string, string>, stack: readonly string[]): boolean;
  node(node: XmlNode, stack: readonly string[]): void;
}

function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon === -1 ? qname : qname.slice(colon + 1);
}

/** Reads the encoding from the XML declaration, defaulting to UTF-8. */
async function sniffXmlEncoding(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(200);
    const { bytesRead } = await handle.read(buf, 0, 200, 0);
    const head = buf.subarray(0, bytesRead).toString('latin1');
    const match = /^\uFEFF?<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(head.replace(/^\xEF\xBB\xBF/, ''));
    return match?.[1]?.toLowerCase() ?? 'utf-8';
  } finally {
    await handle.close();
  }
}

/**
 * Streams an XML file through saxes. Names are matched on local names because the publishers
 * change namespaces between releases. Throws an Error naming the file on malformed XML.
 */
export async function streamXml(file: string, handler: XmlHandler): Promise<void> {
  const encoding = await sniffXmlEncoding(file);
  const parser = new SaxesParser({ xmlns: false, position: true });
  const stack: string[] = [];
  // Open elements of the captured subtree; captured[0] is its root.
  const captured: XmlNode[] = [];
  let textParts: string[][] = [];
  let sawRoot = false;

  parser.on('opentag', (tag) => {
    sawRoot = true;
    const name = localName(tag.name);
    const attrs: Record<string, string> = {};
    for (const [key, value] of Object.entries(tag.attributes)) {
      if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
      attrs[localName(key)] = String(value);
    }
    if (captured.length > 0) {
      const node: XmlNode = { name, attrs, text: '', children: [] };
      captured[captured.length - 1]!.children.push(node);
      captured.push(node);
      textParts.push([]);
    } else if (handler.open(name, attrs, stack)) {
      captured.push({ name, attrs, text: '', children: [] });
      textParts = [[]];
    }
    stack.push(name);
  });
  const onText = (text: string): void => {
    if (captured.length > 0) textParts[textParts.length - 1]!.push(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    stack.pop();
    if (captured.length === 0) return;
    const node = captured.pop()!;
    node.text = textParts.pop()!.join('').trim();
    if (captured.length === 0) handler.node(node, stack);
  });

  const decoder: NodeJS.ReadableStream =
    encoding === 'utf-8' || encoding === 'utf8'
      ? createReadStream(file)
      : createReadStream(file).pipe(iconv.decodeStream(encoding));
  const utf8 = new StringDecoder('utf8');
  const base = path.basename(file);
  let first = true;
  try {
    for await (const chunk of decoder) {
      let text = typeof chunk === 'string' ? chunk : utf8.write(chunk as Buffer);
      if (first && text) {
        text = text.replace(/^\uFEFF/, '');
        first = false;
      }
      if (text) parser.write(text);
    }
    const rest = utf8.end();
    if (rest) parser.write(rest);
    parser.close();
  } catch (err) {
    throw new Error(`${base}: malformed XML: ${(err as Error).message}`);
  }
  if (!sawRoot) throw new Error(`${base}: no XML root element`);
}

/** First child with the given local name. */
export function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

/** All children with the given local name. */
export function children(node: XmlNode | undefined, name: string): XmlNode[] {
  return node ? node.children.filter((c) => c.name === name) : [];
}

/** Trimmed text of the first child with that name, undefined when absent or empty. */
export function childText(node: XmlNode | undefined, name: string): string | undefined {
  const text = child(node, name)?.text;
  return text ? text : undefined;
}

// ---------------------------------------------------------------------------------------------
// Streaming CSV

/**
 * Streams CSV rows of a file decoded from `encoding`. Lenient about quotes and column counts
 * because the OFAC legacy files contain stray quotes inside remarks.
 */
export async function* readCsvRows(
  file: string,
  options: { encoding?: string; skipFirst?: boolean } = {},
): AsyncGenerator<string[]> {
  const encoding = options.encoding ?? 'utf-8';
  const input =
    encoding === 'utf-8'
      ? createReadStream(file, { encoding: 'utf8' })
      : createReadStream(file).pipe(iconv.decodeStream(encoding));
  const parser = input.pipe(
    parseCsv({
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      from_line: options.skipFirst ? 2 : 1,
    }),
  );
  const base = path.basename(file);
  try {
    for await (const row of parser) yield row as string[];
  } catch (err) {
    throw new Error(`${base}: malformed CSV: ${(err as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Dates

const MONTHS: Record<string, string> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

function pad2(n: string | number): string {
  return String(n).padStart(2, '0');
}

/** Every year of a range as approximate partial dates (the model's rule for "1955 to 1958"). */
export function yearRange(from: number, to: number): PartialDate[] {
  if (!(from > 0) || !(to >= from) || to - from > 30)
    return from > 0 ? [{ date: String(from), approximate: true }] : [];
  const out: PartialDate[] = [];
  for (let y = from; y <= to; y++) out.push({ date: String(y), approximate: true });
  return out;
}

/**
 * Parses one date as publishers write it: `1957-03-12`, `12 Mar 1957`, `Mar 1957`, `1962`,
 * `circa 1960`, `1955 to 1958`, `between 1955 and 1958`, `12/03/1957` (dd/mm/yyyy).
 * Returns [] when nothing date-like is found.
 */
export function parseLooseDate(raw: string | undefined): PartialDate[] {
  if (!raw) return [];
  let text = raw.trim().replace(/\.$/, '');
  let approximate = false;
  const circa = /^(?:circa|approx(?:imately|\.)?|about|ca\.?|c\.)\s+/i.exec(text);
  if (circa) {
    approximate = true;
    text = text.slice(circa[0].length);
  }
  const range = /^(?:between\s+)?(\d{4})\s*(?:to|-|–|and)\s*(\d{4})$/i.exec(text);
  if (range) return yearRange(Number(range[1]), Number(range[2]));
  const mark = (date: string): PartialDate[] => [approximate ? { date, approximate } : { date }];
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (m) {
    if (m[2] === '00') return mark(m[1]!);
    if (m[3] === '00') return mark(`${m[1]}-${m[2]}`);
    return mark(`${m[1]}-${m[2]}-${m[3]}`);
  }
  m = /^(\d{4})-(\d{2})$/.exec(text);
  if (m) return mark(`${m[1]}-${m[2]}`);
  m = /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(text);
  if (m && MONTHS[m[2]!.toLowerCase()]) return mark(`${m[3]}-${MONTHS[m[2]!.toLowerCase()]}-${pad2(m[1]!)}`);
  m = /^([A-Za-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(text);
  if (m && MONTHS[m[1]!.toLowerCase()]) return mark(`${m[2]}-${MONTHS[m[1]!.toLowerCase()]}`);
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (m) {
    if (m[2] === '00' || m[2] === '0') return mark(m[3]!);
    if (m[1] === '00' || m[1] === '0') return mark(`${m[3]}-${pad2(m[2]!)}`);
    return mark(`${m[3]}-${pad2(m[2]!)}-${pad2(m[1]!)}`);
  }
  m = /^(\d{4})$/.exec(text);
  if (m) return mark(m[1]!);
  return [];
}

/** `MM/DD/YYYY` (OFAC's Publish_Date) to `YYYY-MM-DD`. */
export function usDate(raw: string | undefined): string | undefined {
  const m = raw ? /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw.trim()) : null;
  return m ? `${m[3]}-${pad2(m[1]!)}-${pad2(m[2]!)}` : undefined;
}

/** The first `YYYY-MM-DD` in the text (ISO timestamps included). */
export function isoDay(raw: string | undefined): string | undefined {
  return raw ? /\d{4}-\d{2}-\d{2}/.exec(raw)?.[0] : undefined;
}

/** Adds dates not already present (same date and approximation). */
export function pushDates(target: PartialDate[], dates: PartialDate[]): void {
  for (const d of dates) {
    if (!target.some((t) => t.date === d.date && !!t.approximate === !!d.approximate)) target.push(d);
  }
}

// ---------------------------------------------------------------------------------------------
// Countries

// Spellings these three publishers use that countries.ts does not know (yet).
const EXTRA_COUNTRIES: Record<string, string> = {
  'united republic of tanzania': 'TZ',
  'state of palestine': 'PS',
  'trinidad and tobago': 'TT',
  'korea, north': 'KP',
  'korea, south': 'KR',
  palestinian: 'PS',
  'region: gaza': 'PS',
  'region: west bank': 'PS',
  'congo, democratic republic of the': 'CD',
  'congo, republic of the': 'CG',
  'burma (myanmar)': 'MM',
  'netherlands antilles': 'AN',
  'serbia and montenegro': 'CS',
  yugoslavia: 'YU',
  'sint maarten': 'SX',
  curacao: 'CW',
  curaçao: 'CW',
};

/** ISO2 for a country as these publishers write it, or undefined. */
export function countryCode(value: string | undefined | null): string | undefined {
  const text = clean(value);
  if (!text) return undefined;
  return EXTRA_COUNTRIES[text.toLowerCase()] ?? toCountryCode(text);
}

// ---------------------------------------------------------------------------------------------
// Names

const SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Arabic}/u, 'Arabic'],
  [/\p{Script=Cyrillic}/u, 'Cyrillic'],
  [/\p{Script=Hangul}/u, 'Hangul'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'Japanese'],
  [/\p{Script=Han}/u, 'Han'],
  [/\p{Script=Hebrew}/u, 'Hebrew'],
  [/\p{Script=Greek}/u, 'Greek'],
  [/\p{Script=Georgian}/u, 'Georgian'],
  [/\p{Script=Armenian}/u, 'Armenian'],
  [/\p{Script=Thai}/u, 'Thai'],
  [/\p{Script=Devanagari}/u, 'Devanagari'],
  [/\p{Script=Ethiopic}/u, 'Ethiopic'],
  [/\p{Script=Myanmar}/u, 'Myanmar'],
  [/\p{Script=Khmer}/u, 'Khmer'],
];

/** The non-Latin script of a name (ISO 15924 English name), or undefined for Latin text. */
export function detectScript(text: string): string | undefined {
  for (const [re, name] of SCRIPTS) if (re.test(text)) return name;
  return undefined;
}

/** Collapses whitespace; undefined for empty and OFAC's `-0-` placeholder. */
export function clean(value: string | undefined | null): string | undefined {
  if (value == null) return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  if (!text || text === '-0-') return undefined;
  return text;
}

/** "LAST, First" to "First LAST"; undefined when the name has no single comma split. */
export function reorderLastFirst(name: string): string | undefined {
  const parts = name.split(',');
  if (parts.length !== 2) return undefined;
  const last = parts[0]!.trim();
  const first = parts[1]!.trim();
  if (!last || !first) return undefined;
  return `${first} ${last}`;
}

/** Adds an alias unless it equals the primary name or an alias already present (case-insensitively). */
export function addAlias(
  record: ListRecord,
  name: string | undefined,
  quality: NameQuality,
  kind: NameKind,
  script?: string,
): void {
  const text = clean(name);
  if (!text) return;
  const key = text.toLowerCase();
  if (record.name.toLowerCase() === key) return;
  const existing = record.aliases.find((a) => a.name.toLowerCase() === key);
  if (existing) {
    // A name listed both strong and weak is matched as strong.
    if (existing.quality === 'weak' && quality === 'strong') existing.quality = 'strong';
    return;
  }
  const alias: ListName = { name: text, quality, kind };
  const detected = script ?? detectScript(text);
  if (detected) alias.script = detected;
  record.aliases.push(alias);
}

/** Adds an identifier unless the same type and value is already present. */
export function addIdentifier(record: ListRecord, id: Identifier): void {
  const value = clean(id.value);
  if (!value) return;
  const same = record.identifiers.find(
    (i) => i.type === id.type && i.value.toLowerCase() === value.toLowerCase() && i.country === id.country,
  );
  if (same) return;
  const out: Identifier = { type: id.type, value };
  if (id.country) out.country = id.country;
  if (id.label) out.label = id.label;
  if (id.note) out.note = id.note;
  record.identifiers.push(out);
}

export function addUnique(target: string[], value: string | undefined): void {
  const text = clean(value);
  if (text && !target.includes(text)) target.push(text);
}

export function genderOf(value: string | undefined): 'male' | 'female' | undefined {
  const v = value?.trim().toLowerCase();
  if (v === 'male' || v === 'm') return 'male';
  if (v === 'female' || v === 'f') return 'female';
  return undefined;
}
