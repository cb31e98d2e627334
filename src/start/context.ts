import { hostname } from 'node:os';
import type { Clock } from '../infra/clock.js';
import { systemClock } from '../infra/clock.js';
import type { Config } from '../infra/config.js';
import { type DatabaseHandle, ensureSchema, openDatabase } from '../infra/database.js';
import { newId } from '../infra/ids.js';
import { migrateToLatest } from '../infra/migrations.js';
import { ListRuntime } from '../lists/list-runtime.js';
import { MatchingPool, inlineScreener } from './matching-pool.js';
import type { Screener } from '../screening/screening-service.js';

/** The composition root: configuration, database, clock and the list runtime, shared by server and CLI. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  runtime: ListRuntime<Screener>;
  /** Identifies this process in leases and delivery claims. */
  nodeId: string;
  close(): Promise<void>;
}

export async function createContext(
  config: Config,
  options: {
    clock?: Clock;
    migrate?: boolean;
    /** A short-lived command: no background threads (matching or SQLite checkpoints). */
    command?: boolean;
    log?: (message: string, detail?: Record<string, unknown>) => void;
  } = {},
): Promise<AppContext> {
  await ensureSchema(config.database);
  const database = openDatabase(config.database, { backgroundCheckpoints: !options.command });
  if (options.migrate !== false) await migrateToLatest(database.db);
  const clock = options.clock ?? systemClock;
  const threads = options.command ? 0 : config.matching.threads;
  const pool = threads > 0 ? new MatchingPool(threads, options.log ? { log: options.log } : {}) : undefined;
  const runtime = new ListRuntime<Screener>({
    db: database.db,
    // In matching threads, or on this thread in steps that yield to the event loop; either way a node
    // keeps answering against the current lists while the next index is built.
    buildIndex: (records) => (pool ? pool.load(records) : inlineScreener(records)),
    ...(pool
      ? {
          onSwap: (_next: unknown, previous: { index: Screener } | undefined) =>
            previous && pool.retire(previous.index),
        }
      : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    config,
    database,
    clock,
    runtime,
    nodeId: `${hostname()}:${process.pid}:${newId('node').slice(5, 15)}`,
    async close() {
      await pool?.close();
      await database.close();
    },
  };
}
