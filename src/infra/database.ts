import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { type InsertQueryBuilder, type InsertResult, Kysely, PostgresAdapter, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from './config.js';
import type { Database } from './db-schema.js';
import { DurableSqliteDialect, WalSyncer } from './sqlite-driver.js';
import { writeCounter } from './write-counter.js';

export type Db = Kysely<Database>;

/**
 * One insert of a statement made of several (PostgreSQL's data-modifying WITH): a store gives its
 * rows as one, and the caller puts them together (screening-service.ts: a group commit in one
 * statement).
 */
export type InsertPart<T extends keyof Database> = InsertQueryBuilder<Database, T, InsertResult>;

export interface DatabaseHandle {
  db: Db;
  engine: DatabaseConfig['engine'];
  close(): Promise<void>;
}

// PostgreSQL returns BIGINT and NUMERIC as strings; counts and sums here always fit a double.
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1700, (value) => Number(value));

export interface OpenOptions {
  /**
   * SQLite: checkpoint the write-ahead log from a thread of its own instead of inside commits (the
   * server; a short-lived command keeps SQLite's automatic checkpoints).
   */
  backgroundCheckpoints?: boolean;
  /** How often the background checkpointer runs (default one second). */
  checkpointIntervalMs?: number;
}

/** The better-sqlite3 connection behind each SQLite database, for what only SQLite can tell (table-watch.ts). */
const sqliteConnections = new WeakMap<Db, SQLite.Database>();

/** Whether `db` (or a transaction of it) is a PostgreSQL database. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The SQLite connection behind `db`; undefined on PostgreSQL. */
export function sqliteConnectionOf(db: Db): SQLite.Database | undefined {
  return sqliteConnections.get(db);
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): DatabaseHandle {
  if (config.engine === 'sqlite') {
    mkdirSync(dirname(config.url), { recursive: true });
    const sqlite = new SQLite(config.url);
    sqlite.pragma('journal_mode = WAL');
    // FULL is kept by syncing the log off the event loop after each commit (sqlite-driver.ts): the
    // connection itself runs NORMAL, so COMMIT does not block the thread on the disk.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    // Several processes (server, admin command line) and the checkpointer thread share the file. A
    // lock another one holds is waited for by the driver, on a timer (sqlite-driver.ts): SQLite's
    // busy handler would sleep the event loop.
    sqlite.pragma('busy_timeout = 0');
    const syncer = config.sqliteSynchronous === 'FULL' ? new WalSyncer(`${config.url}-wal`) : undefined;
    const db = new Kysely<Database>({ dialect: new DurableSqliteDialect(sqlite, syncer) });
    sqliteConnections.set(db, sqlite);
    if (!options.backgroundCheckpoints) return { db, engine: 'sqlite', close: () => db.destroy() };
    sqlite.pragma('wal_autocheckpoint = 0');
    const checkpointer = startCheckpointer(config.url, options.checkpointIntervalMs ?? 1000);
    return {
      db,
      engine: 'sqlite',
      async close() {
        await db.destroy();
        await checkpointer.stop();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: stripSchemaParam(config.url),
    max: config.poolSize,
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  // A connection the server ends (idle_in_transaction_session_timeout on a rescreen claim held by a
  // node that hung, a database restart) emits 'error'; with no listener that would crash the process.
  // Its queries fail instead, with the error, and the pool drops it when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  // The write counter tells this node's caches of its own writes to the tables they copy (pg-notify-watch.ts).
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [writeCounter] });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

function startCheckpointer(file: string, intervalMs: number): { stop(): Promise<void> } {
  const worker = new Worker(new URL('./sqlite-checkpointer.js', import.meta.url), { workerData: { file, intervalMs } });
  worker.unref();
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'error') console.error(`SQLite checkpoint failed: ${message.message}`);
  });
  worker.on('error', (error) => console.error(`SQLite checkpointer stopped: ${error.message}`));
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.on('message', (message: { type: string }) => {
          if (message.type === 'stopped') void worker.terminate();
        });
        worker.postMessage({ type: 'stop' });
        // A checkpointer that does not answer is not worth waiting for: the log is checkpointed on the next open.
        setTimeout(() => void worker.terminate(), 5000).unref();
      }),
  };
}

export function stripSchemaParam(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.delete('schema');
  return parsed.toString();
}

/** Creates the configured PostgreSQL schema when it is missing (tests and multi-tenant deployments). */
export async function ensureSchema(config: DatabaseConfig): Promise<void> {
  if (config.engine !== 'postgres' || !config.schema) return;
  const client = new pg.Client({ connectionString: stripSchemaParam(config.url) });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`);
  } finally {
    await client.end();
  }
}

export async function ping(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
