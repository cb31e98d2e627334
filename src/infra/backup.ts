import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * SQLite backups with SQLite's online backup API (better-sqlite3's `backup`): the copy is one
 * consistent snapshot of the database (committed log included) while the server keeps reading and
 * writing: all pages are copied in one step, inside one read transaction, which under WAL blocks no
 * writer (copied in small steps, every commit of the server would restart the copy).
 */

const ALL_PAGES = 0x7fffffff;

export interface BackupReport {
  file: string;
  bytes: number;
  pages: number;
}

export async function backupSqlite(databaseFile: string, to: string): Promise<BackupReport> {
  if (!existsSync(databaseFile)) throw new Error(`there is no database at ${databaseFile}`);
  mkdirSync(dirname(to), { recursive: true });
  const source = new SQLite(databaseFile, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 10000');
    // Every page in one step: one read transaction, so writes by the server cannot restart the copy.
    const progress = await source.backup(to, { progress: () => ALL_PAGES });
    return { file: to, bytes: statSync(to).size, pages: progress.totalPages };
  } finally {
    source.close();
  }
}

/** Checks that `file` is an intact database of this service (integrity and its migrations table). */
export function checkBackup(file: string): { migrations: string[] } {
  if (!existsSync(file)) throw new Error(`there is no backup at ${file}`);
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`${file} is damaged: ${String(check)}`);
    const table = db.prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) throw new Error(`${file} is not a database of this service (no migrations table)`);
    const rows = db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
    return { migrations: rows };
  } finally {
    db.close();
  }
}

/**
 * Replaces the database at `databaseFile` with a copy of `from` (the caller has made sure no server
 * uses it): the backup API copies `from` next to it, then the old log and shared-memory files are
 * removed and the copy renamed into place, so the result is the old database or the complete new one.
 */
export async function restoreSqlite(from: string, databaseFile: string): Promise<BackupReport> {
  mkdirSync(dirname(databaseFile), { recursive: true });
  const staging = `${databaseFile}.restoring`;
  rmSync(staging, { force: true });
  const source = new SQLite(from, { readonly: true, fileMustExist: true });
  let pages: number;
  try {
    pages = (await source.backup(staging, { progress: () => ALL_PAGES })).totalPages;
  } finally {
    source.close();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${databaseFile}${suffix}`, { force: true });
  renameSync(staging, databaseFile);
  return { file: databaseFile, bytes: statSync(databaseFile).size, pages };
}
