/**
 * The rows of an uploaded batch file, streamed: CSV and NDJSON are parsed as the bytes arrive; an XLSX
 * workbook is a ZIP whose directory sits at its end, so it is spooled to a temporary file first and
 * then read row by row. CSV and XLSX go through the list adapters' own readers (src/lists/adapters/kit).
 * Memory holds one chunk of rows whatever the file's size.
 */
import { createWriteStream, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, validationError } from '../infra/errors.js';
import { cellText, readCsvStream, readXlsxRows } from '../formats/index.js';

/** The largest batch file: 50 MB (issue 14). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

export type FileKind = 'csv' | 'ndjson' | 'xlsx';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The columns a CSV or XLSX header may name, matched without regard to case. */
export const COLUMNS = ['name', 'entityType', 'country', 'birthDate', 'externalId'] as const;

/** One row of a batch as read: its line (the row's key) and its POST /screen body, or why it cannot be one. */
export interface ReadRow {
  line: number;
  item: Record<string, unknown>;
}

/** The kind of a file from its content type (and, for multipart uploads, its file name). */
export function fileKindOf(contentType: string, fileName?: string): FileKind {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'text/csv' || type === 'application/csv') return 'csv';
  if (type === 'application/x-ndjson' || type === 'application/ndjson' || type === 'application/jsonl') return 'ndjson';
  if (type === XLSX_TYPE) return 'xlsx';
  const extension = /\.([a-z]+)$/i.exec(fileName ?? '')?.[1]?.toLowerCase();
  if (extension === 'csv') return 'csv';
  if (extension === 'ndjson' || extension === 'jsonl') return 'ndjson';
  if (extension === 'xlsx') return 'xlsx';
  throw validationError(
    'file',
    `"${type || 'no content type'}" is not a batch file: send text/csv, application/x-ndjson or an XLSX workbook (${XLSX_TYPE})`,
  );
}

/** Counts the bytes going through and fails the stream past the limit (413). */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(new AppError('PAYLOAD_TOO_LARGE', `the batch file is over ${limit / 1024 / 1024} MB`));
      else done(null, chunk);
    },
  });
}

/** The column index of each known header name; a file without a name column is refused. */
function headerMap(header: string[]): Map<(typeof COLUMNS)[number], number> {
  const columns = new Map<(typeof COLUMNS)[number], number>();
  header.forEach((cell, index) => {
    const known = COLUMNS.find((c) => c.toLowerCase() === cell.trim().toLowerCase());
    if (known && !columns.has(known)) columns.set(known, index);
  });
  if (!columns.has('name')) {
    throw validationError(
      'file',
      `the header row has no "name" column (columns, in any letter case: ${COLUMNS.join(', ')}); it reads: ${header.slice(0, 10).join(', ') || '(empty)'}`,
    );
  }
  return columns;
}

/** A table row as a POST /screen body: empty cells are left out. */
function tableItem(columns: Map<(typeof COLUMNS)[number], number>, cells: string[]): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const [column, index] of columns) {
    const value = (cells[index] ?? '').trim();
    if (value !== '') item[column] = value;
  }
  if (!('name' in item)) item.name = '';
  return item;
}

async function* csvRows(stream: Readable): AsyncGenerator<ReadRow> {
  let columns: Map<(typeof COLUMNS)[number], number> | undefined;
  for await (const { record, line } of readCsvStream(stream.setEncoding('utf8'), 'the batch file')) {
    if (!columns) {
      columns = headerMap(record);
      continue;
    }
    if (record.every((c) => c.trim() === '')) continue;
    yield { line, item: tableItem(columns, record) };
  }
  if (!columns) throw validationError('file', 'the file is empty: it has no header row');
}

async function* ndjsonRows(stream: Readable): AsyncGenerator<ReadRow> {
  let line = 0;
  for await (const text of createInterface({ input: stream.setEncoding('utf8'), crlfDelay: Infinity })) {
    line++;
    const trimmed = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
    if (trimmed === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      // A line that is not JSON is that row's error, not the file's.
      yield { line, item: { __error: 'the line is not valid JSON' } };
      continue;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      yield { line, item: { __error: 'the line is not a JSON object' } };
      continue;
    }
    yield { line, item: parsed as Record<string, unknown> };
  }
}

async function* xlsxRows(stream: Readable): AsyncGenerator<ReadRow> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'sanctions-batch-'));
  const file = join(dir, 'upload.xlsx');
  try {
    await pipeline(stream, createWriteStream(file));
    let columns: Map<(typeof COLUMNS)[number], number> | undefined;
    let sheet: string | undefined;
    try {
      for await (const row of readXlsxRows(file)) {
        // The first sheet is the batch.
        if (sheet !== undefined && row.sheetName !== sheet) break;
        sheet = row.sheetName;
        const cells = row.cells.map((c) => cellText(c));
        if (!columns) {
          columns = headerMap(cells);
          continue;
        }
        yield { line: row.rowNumber, item: tableItem(columns, cells) };
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw validationError('file', `not a readable XLSX workbook (${(error as Error).message.split(': ').at(-1)})`);
    }
    if (!columns) throw validationError('file', 'the workbook is empty: its first sheet has no header row');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The rows of a batch file, streamed; a file over `limit` bytes fails with 413 PAYLOAD_TOO_LARGE. */
export function readBatchFile(stream: Readable, kind: FileKind, limit = MAX_FILE_BYTES): AsyncGenerator<ReadRow> {
  const limited = stream.pipe(byteLimit(limit));
  stream.on('error', (error) => limited.destroy(error));
  if (kind === 'csv') return csvRows(limited);
  if (kind === 'ndjson') return ndjsonRows(limited);
  return xlsxRows(limited);
}
