import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from './config.js';

/**
 * The data directory (DATA_DIR, default ./data) and, on SQLite, the database file's folder: created on
 * first use by the server and every admin command, so a fresh clone needs no set-up step.
 */
export interface DataDirectory {
  /** The absolute path of DATA_DIR. */
  path: string;
  /** The folders this call created (empty when all existed). */
  created: string[];
}

export function ensureDataDirectory(config: Pick<Config, 'dataDir' | 'database'>): DataDirectory {
  const folders = [config.dataDir];
  if (config.database.engine === 'sqlite') folders.push(dirname(config.database.url));
  const created: string[] = [];
  for (const folder of new Set(folders)) {
    // mkdirSync answers the first folder it made, undefined when the folder was there already.
    const made = mkdirSync(folder, { recursive: true });
    if (made !== undefined) created.push(folder);
  }
  return { path: config.dataDir, created };
}
