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
  const parser = decoded.pipe(
    parse({
      delimiter: options.delimiter ?? ',',
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }),
  );
  try {
    for await (const record of parser) yield record as string[];
  } catch (err) {
    throw new Error(`${path.basename(file)}: malformed CSV (${(err as Error).message})`);
  } finally {
    source.destroy();
  }
}
