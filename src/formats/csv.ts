/** Streaming CSV with csv-parse, decoded from the publisher's encoding. */
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';

export interface CsvOptions {
  /** OFAC's legacy files and OFSI's older ConList are Windows-1252; the rest UTF-8. */
  encoding?: 'utf8' | 'windows-1252';
  delimiter?: string;
}

/**
 * Streams the records of a CSV file as arrays of strings: the BOM dropped, blank lines skipped,
 * short rows allowed. Lenient about quotes because OFAC's remarks hold stray ones.
 */
export async function* readCsvRows(file: string, options: CsvOptions = {}): AsyncGenerator<string[]> {
  const source = createReadStream(file);
  const decoded =
    options.encoding === 'windows-1252' ? source.pipe(iconv.decodeStream('win1252')) : source.setEncoding('utf8');
  try {
    for await (const { record } of readCsvStream(decoded, path.basename(file), options)) yield record;
  } finally {
    source.destroy();
  }
}

/** One record of a CSV stream and the line of the file it starts on (from 1). */
export interface CsvRecord {
  record: string[];
  line: number;
}

/** The records of decoded CSV text arriving as a stream (an upload), with the same leniency as readCsvRows. */
export async function* readCsvStream(
  decoded: NodeJS.ReadableStream,
  label: string,
  options: Pick<CsvOptions, 'delimiter'> = {},
): AsyncGenerator<CsvRecord> {
  const parser = decoded.pipe(
    parse({
      delimiter: options.delimiter ?? ',',
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      info: true,
    }),
  );
  try {
    for await (const item of parser) {
      const { record, info } = item as { record: string[]; info: { lines: number } };
      yield { record, line: info.lines };
    }
  } catch (err) {
    throw new Error(`${label}: malformed CSV (${(err as Error).message})`);
  }
}
