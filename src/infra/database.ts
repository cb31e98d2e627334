import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from './config.js';
import type { Database } from './db-schema.js';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  engine: DatabaseConfig['engine'];
  close(): Promise<void>;
}

// PostgreSQL returns BIGINT and NUMERIC as strings; counts and sums here always fit a double.
pg.types.setTypeParser(20, (value) => Number(value));
pg.types.setTypeParser(1700, (value) => Number(value));

export function openDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.engine === 'sqlite') {
    mkdirSync(dirname(config.url), { recursive: true });
    const sqlite = new SQLite(config.url);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma(`synchronous = ${config.sqliteSynchronous}`);
    sqlite.pragma('foreign_keys = ON');
    // Several processes (server, admin command line) share the file: wait for a lock instead of failing.
    sqlite.pragma('busy_timeout = 10000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, engine: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: stripSchemaParam(config.url),
    max: config.poolSize,
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

/**
 * Kysely prepares every query anew; on the request path the same few statements run thousands of
 * times a second, so keep the prepared statements, keyed by their SQL text. The cache is bounded (least
 * recently used out) so that generated SQL of many shapes cannot grow it without end. Only Kysely's
 * single connection uses it, one query at a time, so a cached statement is never busy when reused.
 */
function withStatementCache(sqlite: SQLite.Database, capacity = 512): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string) {
      let statement = statements.get(source);
      if (statement) {
        statements.delete(source);
      } else {
        statement = sqlite.prepare(source);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(source, statement);
      return statement;
    },
  };
}

function stripSchemaParam(url: string): string {
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
