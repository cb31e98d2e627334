/**
 * XLSX read as a stream: the ZIP central directory gives each part's offset, each part is inflated
 * as a stream, and saxes reads the sheets row by row.
 *
 * exceljs's streaming WorkbookReader cannot be used on the publishers' files: its unzip stream
 * stops on OFSI's ConList.xlsx (ZIP64 data descriptors: "invalid signature: 0x8074b50"), and its
 * shared-strings parser keeps the phonetic reading (<rPh>) of MOF's Japanese strings instead of
 * the text ("告示日付" comes back as "ヒヅケ").
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { SaxesParser } from 'saxes';
import { excelSerialToDate, isoDate } from './excel-dates.js';
import { localName } from './xml.js';

export type CellValue = string | number | Date | boolean | null;

export interface XlsxRow {
  sheetName: string;
  rowNumber: number;
  /** 0-based cells (column A = index 0), flattened to plain values. */
  cells: CellValue[];
}

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
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const tailLength = Math.min(size, 65557 + 20);
    const tail = await readAt(handle, size - tailLength, tailLength);
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
      const z64 = await readAt(handle, u64(tail, eocd - 20 + 8), 56);
      if (z64.readUInt32LE(0) !== 0x06064b50) throw new Error('bad ZIP64 end-of-central-directory record');
      count = u64(z64, 32);
      cdSize = u64(z64, 40);
      cdOffset = u64(z64, 48);
    }
    const directory = await readAt(handle, cdOffset, cdSize);
    const entries = new Map<string, ZipEntry>();
    let entryStart = 0;
    for (let n = 0; n < count; n++) {
      if (entryStart + 46 > directory.length || directory.readUInt32LE(entryStart) !== 0x02014b50)
        throw new Error('corrupt ZIP central directory');
      const method = directory.readUInt16LE(entryStart + 10);
      let compressedSize = directory.readUInt32LE(entryStart + 20);
      let uncompressed = directory.readUInt32LE(entryStart + 24);
      const nameLength = directory.readUInt16LE(entryStart + 28);
      const extraLength = directory.readUInt16LE(entryStart + 30);
      const commentLength = directory.readUInt16LE(entryStart + 32);
      let offset = directory.readUInt32LE(entryStart + 42);
      const name = directory.toString('utf8', entryStart + 46, entryStart + 46 + nameLength);
      let extraAt = entryStart + 46 + nameLength;
      const extraEnd = extraAt + extraLength;
      while (extraAt + 4 <= extraEnd) {
        const id = directory.readUInt16LE(extraAt);
        const len = directory.readUInt16LE(extraAt + 2);
        if (id === 0x0001) {
          let fieldAt = extraAt + 4;
          if (uncompressed === 0xffffffff) {
            uncompressed = u64(directory, fieldAt);
            fieldAt += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = u64(directory, fieldAt);
            fieldAt += 8;
          }
          if (offset === 0xffffffff) offset = u64(directory, fieldAt);
        }
        extraAt += 4 + len;
      }
      entries.set(name, { name, method, compressedSize, offset });
      entryStart = extraEnd + commentLength;
    }
    return entries;
  } finally {
    await handle.close();
  }
}

async function entryStream(file: string, entry: ZipEntry): Promise<NodeJS.ReadableStream> {
  const handle = await fs.open(file, 'r');
  let local: Buffer;
  try {
    local = await readAt(handle, entry.offset, 30);
  } finally {
    await handle.close();
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
    for (const [key, value] of Object.entries(tag.attributes))
      attrs[key] = typeof value === 'string' ? value : (value as { value: string }).value;
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
  let column = 0;
  for (const letter of ref) {
    const code = letter.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column - 1;
}

/** Streams every row of every sheet, in workbook order, with plain cell values. */
export async function* readXlsxRows(file: string): AsyncGenerator<XlsxRow> {
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
            const target = attrs.Target.startsWith('/') ? attrs.Target.slice(1) : `xl/${attrs.Target}`;
            targets.set(attrs.Id, target);
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
            let cellValue: CellValue = null;
            if (value !== '') {
              if (cell.type === 's') cellValue = shared[Number(value)] ?? null;
              else if (cell.type === 'inlineStr' || cell.type === 'str') cellValue = value;
              else if (cell.type === 'b') cellValue = value === '1';
              else if (cell.type === 'e') cellValue = null;
              else {
                const num = Number(value);
                cellValue = Number.isFinite(num) ? (dateStyles.has(cell.style) ? excelSerialToDate(num) : num) : value;
              }
            }
            while (cells.length < cell.col) cells.push(null);
            cells[cell.col] = cellValue;
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
