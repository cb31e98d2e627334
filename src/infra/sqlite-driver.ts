import { type FileHandle, open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  SqliteDriver,
} from 'kysely';
import { observeSqliteLockWait } from './metrics.js';

/**
 * Kysely over better-sqlite3, made for a request path that writes on every request:
 *
 * - Prepared statements are kept (bounded, least recently used out) instead of prepared per query.
 * - Durability without blocking the thread. With `synchronous=FULL` SQLite syncs the write-ahead log
 *   inside COMMIT, and better-sqlite3 is synchronous, so every commit stopped the whole event loop for
 *   a disk sync. Here the connection runs `synchronous=NORMAL` (the log is written, not synced, at
 *   commit) and a write's promise settles only after the log has been synced with fdatasync on
 *   libuv's thread pool. A transaction is durable once its commit record is on disk in the log, so a
 *   caller is told "done" exactly when FULL would have told it, but the event loop keeps serving and
 *   one sync covers every commit made while the previous one ran (group commit).
 *   The sync is awaited after the connection is released, so reads do not queue behind it.
 * - No wait for a lock on the thread. Another connection may hold SQLite's write lock for a moment
 *   (the checkpointer thread's RESTART, which copies the log's last pages and syncs the database
 *   file; the admin command line). SQLite's own busy handler would sleep the calling thread, the
 *   event loop, in steps of 1, 2, 5, 10 ms: every request in flight would stall with it. The
 *   connection runs with `busy_timeout = 0` instead: transactions begin IMMEDIATE (the write lock
 *   taken at BEGIN, so no statement inside one meets a lock), and a BEGIN or a statement outside a
 *   transaction that finds the lock taken is tried again on a timer, up to LOCK_WAIT_MS, while the
 *   event loop goes on serving.
 */

/** How long a statement waits for a lock another connection holds before it fails (SQLite's busy timeout). */
export const LOCK_WAIT_MS = 10_000;

function lockTaken(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * `attempt()` until it does not fail for a lock held by another connection: tried again every
 * millisecond at first (a RESTART holds the lock for a few), then less often, until LOCK_WAIT_MS.
 */
async function whenUnlocked<T>(attempt: () => T): Promise<T> {
  const started = performance.now();
  const deadline = started + LOCK_WAIT_MS;
  try {
    for (let tries = 1; ; tries++) {
      await sleep(tries <= 20 ? 1 : Math.min(tries - 19, 20));
      try {
        return attempt();
      } catch (error) {
        if (!lockTaken(error) || performance.now() >= deadline) throw error;
      }
    }
  } finally {
    observeSqliteLockWait((performance.now() - started) / 1000);
  }
}

/** Syncs the write-ahead log; concurrent callers share syncs, and every caller's writes precede its sync. */
export class WalSyncer {
  private handle: FileHandle | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private closed = false;
  private completed = 0;

  constructor(private readonly walPath: string) {}

  /** Syncs completed so far. */
  get syncs(): number {
    return this.completed;
  }

  /** Resolves when everything written to the log before this call is on disk. */
  durable(): Promise<void> {
    if (!this.running) return this.start();
    // A sync under way may have started before our write: wait for it, then one more for everyone
    // who arrived meanwhile.
    this.queued ??= this.running.then(
      () => this.next(),
      () => this.next(),
    );
    return this.queued;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.running?.catch(() => undefined);
    await this.queued?.catch(() => undefined);
    await this.handle?.close();
    this.handle = undefined;
  }

  private next(): Promise<void> {
    this.queued = undefined;
    return this.start();
  }

  private start(): Promise<void> {
    const sync = this.syncOnce().finally(() => {
      if (this.running === sync) this.running = undefined;
    });
    this.running = sync;
    return sync;
  }

  private async syncOnce(): Promise<void> {
    if (this.closed) throw new Error('the database is closed');
    // The log exists from the first write on and stays (same file) while this connection is open.
    this.handle ??= await open(this.walPath, 'r');
    await this.handle.datasync();
    this.completed++;
  }
}

class DurableConnection implements DatabaseConnection {
  /** A write committed by the current holder of the connection that is not yet known to be on disk. */
  unsynced = false;
  /** A write made since the last time the connection was outside a transaction. */
  private dirty = false;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly statements: StatementCache,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(this.execute<R>(compiledQuery));
    } catch (error) {
      // Inside a transaction (begun IMMEDIATE, holding the write lock) a lock error is not waited out.
      if (!lockTaken(error) || this.sqlite.inTransaction) return Promise.reject(error as Error);
      return whenUnlocked(() => this.execute<R>(compiledQuery));
    }
  }

  private execute<R>(compiledQuery: CompiledQuery): QueryResult<R> {
    const statement = this.statements.get(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    let result: QueryResult<R>;
    if (statement.reader) {
      result = { rows: statement.all(parameters) as R[] };
    } else {
      const { changes, lastInsertRowid } = statement.run(parameters);
      result = { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    }
    // SQLite calls BEGIN and COMMIT read-only (they only time the writes of others), so what counts is
    // whether anything was written since the connection was last outside a transaction.
    if (!statement.readonly) this.dirty = true;
    if (this.dirty && !this.sqlite.inTransaction) {
      this.unsynced = true;
      this.dirty = false;
    }
    return result;
  }

  /** BEGIN IMMEDIATE: the write lock now, or a lock error when another connection holds it. */
  begin(): void {
    this.execute(BEGIN_IMMEDIATE);
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not used with SQLite');
  }
}

class StatementCache {
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly capacity: number,
  ) {}

  get(source: string): SQLite.Statement {
    let statement = this.statements.get(source);
    if (statement) {
      this.statements.delete(source);
    } else {
      statement = this.sqlite.prepare(source);
      if (this.statements.size >= this.capacity) this.statements.delete(this.statements.keys().next().value as string);
    }
    this.statements.set(source, statement);
    return statement;
  }
}

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');

class DurableSqliteDriver extends SqliteDriver implements Driver {
  private readonly connection: DurableConnection;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly syncer: WalSyncer | undefined,
  ) {
    super({ database: sqlite });
    this.connection = new DurableConnection(sqlite, new StatementCache(sqlite, 512));
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    // The base class serializes use of SQLite's one connection; hand out ours.
    await super.acquireConnection();
    return this.connection;
  }

  override async beginTransaction(): Promise<void> {
    try {
      this.connection.begin();
    } catch (error) {
      if (!lockTaken(error)) throw error;
      await whenUnlocked(() => this.connection.begin());
    }
  }

  override async releaseConnection(): Promise<void> {
    const unsynced = this.connection.unsynced;
    this.connection.unsynced = false;
    await super.releaseConnection();
    if (unsynced && this.syncer) await this.syncer.durable();
  }

  override async destroy(): Promise<void> {
    await this.syncer?.close();
    this.sqlite.close();
  }
}

/**
 * The dialect for one better-sqlite3 connection, which must run with `busy_timeout = 0` (locks are
 * waited for here, off the thread). `syncer` given: the connection must run with
 * `synchronous=NORMAL` in WAL mode, and writes settle once the log is synced (FULL's guarantee).
 */
export class DurableSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly syncer: WalSyncer | undefined,
  ) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new DurableSqliteDriver(this.sqlite, this.syncer);
  }
}
