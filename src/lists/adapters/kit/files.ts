/**
 * The files of one source in a list directory, named as the publisher names them. Publishers and
 * mirrors disagree on letter case (SDN.CSV, sdn.csv), so names are compared without it.
 */
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';

export interface ListDir {
  dir: string;
  /** Full path of the first of `names` present, letter case ignored. */
  named(...names: string[]): string | undefined;
  /** Full paths of the files whose name matches `pattern` (letter case ignored), sorted by name. */
  matching(pattern: RegExp): string[];
  /**
   * The file to read among those matching `pattern`: the first whose name matches `preferred`, else
   * the first by name; the others are reported in `warnings` as ignored.
   */
  choose(pattern: RegExp, preferred: RegExp, warnings: string[]): string | undefined;
}

/** Reads the regular files directly inside `dir`; a directory that cannot be read is an error. */
export async function readListDir(dir: string): Promise<ListDir> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new Error(`cannot read list directory ${dir}: ${(err as Error).message}`);
  }
  const names = entries
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
  const matching = (pattern: RegExp): string[] => {
    const caseless = new RegExp(pattern.source, pattern.flags.includes('i') ? pattern.flags : `${pattern.flags}i`);
    return names.filter((n) => caseless.test(n)).map((n) => path.join(dir, n));
  };
  return {
    dir,
    named(...wanted) {
      for (const want of wanted) {
        const hit = names.find((n) => n.toLowerCase() === want.toLowerCase());
        if (hit) return path.join(dir, hit);
      }
      return undefined;
    },
    matching,
    choose(pattern, preferred, warnings) {
      const files = matching(pattern);
      const file = files.find((f) => preferred.test(path.basename(f))) ?? files[0];
      for (const other of files) if (other !== file) warnings.push(`ignored ${path.basename(other)}`);
      return file;
    },
  };
}

/**
 * UTF-8, or Windows-1252 when any byte sequence is not UTF-8 (OFSI's older CSV files). The whole
 * file is scanned once, chunk by chunk: a single stray byte decides.
 */
export async function detectEncoding(file: string): Promise<'utf8' | 'windows-1252'> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const stream = createReadStream(file);
  try {
    for await (const chunk of stream) decoder.decode(chunk as Buffer, { stream: true });
    decoder.decode();
    return 'utf8';
  } catch {
    return 'windows-1252';
  } finally {
    stream.destroy();
  }
}
