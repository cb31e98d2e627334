import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { pathToFileURL } from 'node:url';
import { type Config, ConfigError, loadConfig } from '../infra/config.js';
import type { Clock } from '../infra/clock.js';
import { ensureDataDirectory } from '../infra/data-dir.js';
import type { Log } from '../infra/context.js';
import { buildApp } from '../http/server.js';
import { changePage } from '../lists/index.js';
import { type AppContext, createContext } from './context.js';
import {
  type NodeOperations,
  acquireServerLock,
  nodeOperations,
  releaseNodeHoldings,
  startMetricsListener,
} from './operations.js';

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  stop(): Promise<void>;
}

/** Builds the HTTP app on an existing context (tests use this with a manual clock). */
export async function buildServerApp(
  ctx: AppContext,
  options: { logger?: false; loggerInstance?: Logger; operations?: NodeOperations } = {},
): Promise<FastifyInstance> {
  const { config, database, clock } = ctx;
  return buildApp({
    operations: (options.operations ?? nodeOperations(ctx)).deps,
    config,
    db: database.db,
    clock,
    ...(ctx.counters ? { counters: ctx.counters } : {}),
    ...(ctx.keyWatch ? { keyWatch: ctx.keyWatch } : {}),
    ...(options.logger === false ? { logger: false } : {}),
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : {}),
    health: {
      db: database.db,
      lists: async () => {
        const status = await ctx.services.lists.status({ ctx: ctx.operator });
        const loaded = new Set(ctx.runtime.current()?.versions.map((v) => v.version) ?? []);
        const now = clock.now().getTime();
        return {
          ready: ctx.runtime.current() !== undefined,
          sources: status.map((s) => ({
            source: s.source,
            version: s.version,
            records: s.records,
            publishedAt: s.publishedAt,
            fetchedAt: s.fetchedAt,
            ageSeconds: s.fetchedAt ? Math.round((now - new Date(s.fetchedAt).getTime()) / 1000) : null,
            stale: s.stale,
            loaded: s.version !== null && loaded.has(s.version),
            syncing: ctx.jobs.lists.syncing.has(s.source),
            lastError: s.lastError,
            lastCheckAt: s.lastCheckAt,
            lastCheckStatus: s.lastCheckStatus,
            lastChangeAt: s.lastChangeAt,
            nextCheckAt: s.nextCheckAt,
            checkFailures: s.checkFailures,
          })),
        };
      },
    },
    screening: { screening: ctx.services.screening },
    monitors: { monitors: ctx.services.monitors },
    decisions: { decisions: ctx.services.decisions },
    batches: { batches: ctx.services.batches },
    lists: { changes: changePage },
    validation: { validation: ctx.services.validation },
    profiles: { profiles: ctx.services.profiles },
    interactive: ctx.jobs.interactive,
    console: { config, db: database.db, clock, services: ctx.services },
  });
}

/** `sanctions serve`: migrations, list jobs, HTTP. */
export async function startServer(
  config: Config,
  options: { clock?: Clock; jobs?: boolean } = {},
): Promise<RunningServer> {
  const logger = pino({ level: config.logLevel });
  const log: Log = (level, message, detail) => logger[level](detail ?? {}, message);
  // A fresh clone has no ./data: make it (and say where) before the lock and the database are written there.
  const dataDirectory = ensureDataDirectory(config);
  for (const folder of dataDirectory.created) logger.info({ folder }, 'created the data directory');
  // SQLite is served by one process: the lock tells `sanctions restore` (and a second serve) so.
  const lock = config.database.engine === 'sqlite' ? acquireServerLock(config.database.url, new Date()) : undefined;
  const ctx = await createContext(config, { ...(options.clock ? { clock: options.clock } : {}), log });
  if (options.jobs !== false) ctx.jobs.start();
  const operations = nodeOperations(ctx);
  const app = await buildServerApp(ctx, { loggerInstance: logger, operations });
  const url = await app.listen({ host: config.http.host, port: config.http.port });
  const metrics = await startMetricsListener(config.ops, operations.deps.sample, () => ctx.clock.now());
  app.log.info(
    {
      url,
      database: config.database.engine,
      dataDir: dataDirectory.path,
      ...(metrics ? { metrics: metrics.url } : {}),
    },
    'sanctions screening service listening',
  );
  return {
    app,
    ctx,
    url,
    /**
     * Drains: /health/ready turns 503, the listener stops accepting while requests under way finish
     * (and with them their group commits), jobs finish their round, then leases and delivery claims are
     * given back, API key uses written, and the database closed.
     */
    async stop() {
      operations.draining = true;
      // A keep-alive connection whose request ends during the drain turns idle after close() looked
      // for idle ones: close those as they turn idle, or they would hold the drain for the keep-alive time.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
      await Promise.all([
        app
          .close()
          .finally(() => clearInterval(reaper))
          .then(() => app.log.info('drain: requests finished, listener closed')),
        ctx.jobs.stop().then(() => app.log.info('drain: jobs stopped')),
      ]);
      await operations.keyUsage.flush();
      // The audit entries of the last screenings are sealed before the node goes (another node would).
      await ctx.jobs.auditSeal.sealNow().catch((error: unknown) => app.log.error({ err: String(error) }, 'audit seal'));
      const released = await releaseNodeHoldings(ctx).catch(() => ({ leases: 0, claims: 0 }));
      app.log.info(released, 'drained');
      await metrics?.close();
      await ctx.close();
      lock?.release();
    },
  };
}

export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const server = await startServer(config);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal, timeoutMs: config.ops.shutdownTimeoutMs }, 'shutting down');
    // A drain that takes longer than SHUTDOWN_TIMEOUT gives up: exit 1 (what was acknowledged is durable).
    setTimeout(() => {
      server.app.log.error({ timeoutMs: config.ops.shutdownTimeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, config.ops.shutdownTimeoutMs).unref();
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
