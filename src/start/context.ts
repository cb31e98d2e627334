import { hostname } from 'node:os';
import { type Clock, systemClock } from '../infra/clock.js';
import type { Config } from '../infra/config.js';
import type { Context, Log } from '../infra/context.js';
import { type DatabaseHandle, ensureSchema, openDatabase } from '../infra/database.js';
import { newId } from '../infra/ids.js';
import { migrateToLatest } from '../infra/migrations.js';
import { RedisCounters } from '../infra/redis-counters.js';
import { type ClosableWatch, pgNotifyWatch } from '../infra/pg-notify-watch.js';
import { shareTableWatch } from '../infra/table-watch.js';
import { ListRuntime } from '../lists/index.js';
import type { Screener } from '../screening/index.js';
import { KEY_AUTH_TABLES } from '../tenants/index.js';
import { PROFILE_CHANNEL, PROFILE_TABLES } from '../profiles/index.js';
import { inlineScreener, MatchingPool } from './matching-pool.js';
import { ValidationThread } from './validation-thread-client.js';
import { type Jobs, type Services, wire } from './services.js';

/**
 * The composition root: configuration, database, clock, the list runtime, and the domain services
 * and jobs wired on them; shared by the server, the command line and the tests.
 */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  runtime: ListRuntime<Screener>;
  /** Identifies this process in leases and delivery claims. */
  nodeId: string;
  services: Services;
  jobs: Jobs;
  /** The counters shared by the nodes (REDIS_URL); undefined without Redis. */
  counters: RedisCounters | undefined;
  /** PostgreSQL: the key tables' change notifications (the API key cache of every node). */
  keyWatch: ClosableWatch | undefined;
  /** The matching threads, as /metrics and /health/ready see them. */
  matching: { threads: number; queueDepth(): number; busySeconds(): number; healthy(): boolean };
  /** The context of a call made by an operator (the command line) or a job: the database and the clock, no caller. */
  operator: Context;
  close(): Promise<void>;
}

/**
 * PostgreSQL: the per-organization answers of two reads of every screening (migration 0023), does it
 * have any effective decision, does it monitor anything, told of every node's changes; SQLite watches
 * its own tables.
 */
function screeningReadWatches(config: Config, database: DatabaseHandle): ClosableWatch[] {
  const watches: ClosableWatch[] = [];
  for (const [table, channel] of [
    ['decisions', 'sanctions_decisions'],
    ['monitors', 'sanctions_monitors'],
  ] as const) {
    const watch = pgNotifyWatch(config.database, [table], channel);
    shareTableWatch(database.db, [table], watch);
    watches.push(watch);
  }
  return watches;
}

export async function createContext(
  config: Config,
  options: {
    clock?: Clock;
    migrate?: boolean;
    /** A short-lived command: no background threads (matching or SQLite checkpoints). */
    command?: boolean;
    log?: Log;
  } = {},
): Promise<AppContext> {
  await ensureSchema(config.database);
  const database = openDatabase(config.database, { backgroundCheckpoints: !options.command });
  if (options.migrate !== false) await migrateToLatest(database.db);
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const threads = options.command ? 0 : config.matching.threads;
  const pool =
    threads > 0
      ? new MatchingPool(threads, log ? { log: (message, detail) => log('warn', message, detail) } : {})
      : undefined;
  const runtime = new ListRuntime<Screener>({
    db: database.db,
    clock,
    // In matching threads, or on this thread in steps that yield to the event loop; either way a node
    // keeps answering against the current lists while the next index is built.
    buildIndex: async (shelves, records) => (pool ? pool.loadShelves(shelves) : inlineScreener(await records())),
    ...(pool
      ? {
          onSwap: (_next: unknown, previous: { index: Screener } | undefined) => {
            if (previous) void pool.retire(previous.index);
          },
        }
      : {}),
    ...(log ? { log: (message: string, detail?: Record<string, unknown>) => log('info', message, detail) } : {}),
  });
  const nodeId = `${hostname()}:${process.pid}:${newId('node', clock.now()).slice(-10)}`;
  const counters = config.redis && !options.command ? new RedisCounters(config.redis) : undefined;
  const keyWatch =
    config.database.engine === 'postgres' && !options.command
      ? pgNotifyWatch(config.database, KEY_AUTH_TABLES)
      : undefined;
  // Screening profiles, cached per node and told of every node's changes (migration 0021_profile_notify).
  const profileWatch =
    config.database.engine === 'postgres' && !options.command
      ? pgNotifyWatch(config.database, PROFILE_TABLES, PROFILE_CHANNEL)
      : undefined;
  const readWatches =
    config.database.engine === 'postgres' && !options.command ? screeningReadWatches(config, database) : [];
  // Validation runs work in a thread of their own, through the matching threads (validation-thread.ts).
  const validationThread = pool ? new ValidationThread(config.database, pool) : undefined;
  const { services, jobs } = wire({
    config,
    database,
    clock,
    runtime,
    nodeId,
    profileWatch,
    ...(pool
      ? { probes: { build: (records) => pool.load(records), release: (probe) => void pool.retire(probe) } }
      : {}),
    ...(validationThread ? { validationElsewhere: validationThread.run } : {}),
    ...(counters ? { counters } : {}),
    ...(log ? { log } : {}),
  });
  return {
    config,
    database,
    clock,
    runtime,
    nodeId,
    services,
    jobs,
    counters,
    keyWatch,
    operator: { db: database.db, clock },
    matching: {
      threads,
      queueDepth: () => pool?.queueDepth ?? 0,
      busySeconds: () => pool?.busySeconds ?? 0,
      healthy: () => pool?.healthy ?? true,
    },
    async close() {
      await jobs.stop();
      await validationThread?.close();
      await pool?.close();
      await counters?.close();
      await keyWatch?.close();
      await profileWatch?.close();
      for (const watch of readWatches) await watch.close();
      await database.close();
    },
  };
}
