import type SQLite from 'better-sqlite3';
import { type Db, sqliteConnectionOf } from './database.js';

/**
 * Tells a cache in this process when the rows it copied from some tables may have changed, so it can
 * keep them without reading them again on every use.
 */
export interface TableWatch {
  /**
   * A number that changes whenever one of the watched tables may have changed since the previous
   * call: a commit by another connection (another process, such as the admin command line), or a
   * write through this process's own connection. Undefined while that cannot be told (the connection
   * is inside a transaction): read the tables then.
   *
   * On SQLite a commit by another process is seen through a reading of the connection's
   * `PRAGMA data_version` that every watch of the connection shares for SHARED_READING_MS (each
   * reading takes and releases a lock of the log's index, two system calls, and a screening asks four
   * caches). `fresh` takes a reading of its own: the key check does, so that a key revoked by the admin
   * command line is refused on the next request.
   */
  version(options?: { fresh?: boolean }): number | undefined;
}

/**
 * How long one reading of `PRAGMA data_version` answers for every watch of its connection, in ms: a
 * commit by another process reaches the caches (but the key check's) at most this much later.
 */
export const SHARED_READING_MS = 5;

interface SharedReading {
  statement: SQLite.Statement;
  value: unknown;
  /** performance.now() of the reading; -Infinity for none. */
  at: number;
}

/** The shared reading of each SQLite connection (see SHARED_READING_MS). */
const readings = new WeakMap<SQLite.Database, SharedReading>();

function dataVersionOf(sqlite: SQLite.Database, fresh: boolean): unknown {
  let reading = readings.get(sqlite);
  if (!reading) {
    reading = { statement: sqlite.prepare('PRAGMA data_version').pluck(), value: undefined, at: -Infinity };
    readings.set(sqlite, reading);
  }
  const now = performance.now();
  if (fresh || now - reading.at > SHARED_READING_MS) {
    reading.value = reading.statement.get();
    reading.at = now;
  }
  return reading.value;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
let watches = 0;

/** Watches of a PostgreSQL database handed in by the composition root, by the tables they watch. */
const shared = new WeakMap<Db, { tables: readonly string[]; watch: TableWatch }[]>();

/**
 * Makes `watch` (on PostgreSQL: infra/pg-notify-watch.ts, on its tables' channel) what `watchTables`
 * answers for `tables` of `db`, so that a cache made deep inside a domain works on PostgreSQL as it
 * does on SQLite. Set once, when the node starts, before any request.
 */
export function shareTableWatch(db: Db, tables: readonly string[], watch: TableWatch): void {
  let list = shared.get(db);
  if (!list) shared.set(db, (list = []));
  list.push({ tables, watch });
}

/**
 * Watches `tables` of an SQLite database. On PostgreSQL, where other nodes write the same tables, the
 * watch shared for them by `shareTableWatch` (their triggers' notifications), else undefined: nothing
 * tells this node when another one wrote them, so there is nothing to cache on.
 *
 * Two signals together cover every writer:
 * - `PRAGMA data_version` changes when another connection has committed anything since the previous
 *   call on this connection (it starts a read of its own, so it sees the newest commit in the log);
 *   one reading serves every watch of the connection for SHARED_READING_MS;
 * - this connection's own writes do not change it, so temporary triggers on the watched tables
 *   (they exist only on this connection and fire for its writes only, cascades included) call back
 *   into this process. A rolled-back write still counts: a change reported too often costs one read.
 */
export function watchTables(db: Db, tables: readonly string[]): TableWatch | undefined {
  const sqlite = sqliteConnectionOf(db);
  if (!sqlite) return shared.get(db)?.find((s) => tables.every((t) => s.tables.includes(t)))?.watch;
  for (const table of tables) if (!IDENTIFIER.test(table)) throw new Error(`not a table name: ${table}`);
  const functionName = `sanctions_watch_${++watches}`;
  let version = 0;
  sqlite.function(functionName, { deterministic: false }, () => {
    version++;
    return null;
  });
  let lastDataVersion: unknown;
  let installed = false;

  return {
    version(options) {
      // Inside a transaction (another task's: the connection is shared) the pragma reads the
      // transaction's snapshot, which may predate a commit.
      if (sqlite.inTransaction) return undefined;
      // The triggers are made outside any transaction, where they commit at once: made inside
      // another task's transaction, they would go with it if it rolled back.
      if (!installed) {
        for (const table of tables) {
          for (const operation of ['INSERT', 'UPDATE', 'DELETE']) {
            sqlite.exec(
              `CREATE TEMP TRIGGER ${functionName}_${table}_${operation.toLowerCase()} AFTER ${operation} ON main.${table} BEGIN SELECT ${functionName}(); END`,
            );
          }
        }
        installed = true;
        lastDataVersion = dataVersionOf(sqlite, true);
        return ++version;
      }
      const current = dataVersionOf(sqlite, options?.fresh === true);
      if (current !== lastDataVersion) {
        lastDataVersion = current;
        version++;
      }
      return version;
    },
  };
}
