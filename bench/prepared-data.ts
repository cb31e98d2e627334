/**
 * The data a server benchmark starts from: the lists synced, an enterprise organization with its key,
 * and the query mix, prepared once (kept between runs in BENCH_CACHE_DIR when it is set) and copied
 * for each run, so that a run never changes what the next one starts from.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAllLists } from './quality.js';
import { queryMix } from './query-mix.js';
import { prepareServerData } from './server-process.js';

interface Prepared {
  key: string;
  names: string[];
}

/** Prepares `dir` (once: a later call reads what the first wrote). */
async function prepare(cliPath: string, dir: string): Promise<Prepared> {
  const done = join(dir, 'prepared.json');
  if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as Prepared;
  mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const key = prepareServerData(cliPath, env);
  const names = queryMix([...(await loadAllLists(undefined, () => undefined)).values()].flat());
  writeFileSync(done, JSON.stringify({ key, names }));
  return { key, names };
}

/** A fresh copy of the prepared data in a temporary directory (`prefix` names it), and how to remove it. */
export async function preparedCopy(
  cliPath: string,
  prefix: string,
): Promise<Prepared & { dataDir: string; remove: () => void }> {
  const cache = process.env.BENCH_CACHE_DIR;
  const base = cache ?? mkdtempSync(join(tmpdir(), `${prefix}-base-`));
  const { key, names } = await prepare(cliPath, base);
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  cpSync(base, dataDir, { recursive: true });
  return {
    key,
    names,
    dataDir,
    remove: () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (!cache) rmSync(base, { recursive: true, force: true });
    },
  };
}
