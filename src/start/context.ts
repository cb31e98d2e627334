import { hostname } from 'node:os';
import type { Clock } from '../infra/clock.js';
import { systemClock } from '../infra/clock.js';
import type { Config } from '../infra/config.js';
import { type DatabaseHandle, ensureSchema, openDatabase } from '../infra/database.js';
import { newId } from '../infra/ids.js';
import { migrateToLatest } from '../infra/migrations.js';
import { ListRuntime } from '../lists/list-runtime.js';
import { MatchingIndex } from '../matching/index.js';
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
  options: { clock?: Clock; migrate?: boolean; log?: (message: string, detail?: Record<string, unknown>) => void } = {},
): Promise<AppContext> {
  await ensureSchema(config.database);
  const database = openDatabase(config.database);
  if (options.migrate !== false) await migrateToLatest(database.db);
  const clock = options.clock ?? systemClock;
  const runtime = new ListRuntime<Screener>({
    db: database.db,
    // Built in steps that yield to the event loop, so a node keeps answering while a new index is built.
    buildIndex: (records) => MatchingIndex.buildAsync(records),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    config,
    database,
    clock,
    runtime,
    nodeId: `${hostname()}:${process.pid}:${newId('node').slice(5, 15)}`,
    close: () => database.close(),
  };
}
