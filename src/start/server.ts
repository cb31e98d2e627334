import type { FastifyInstance } from 'fastify';
import { type Logger, pino } from 'pino';
import { pathToFileURL } from 'node:url';
import { type Config, ConfigError, loadConfig } from '../infra/config.js';
import type { Clock } from '../infra/clock.js';
import type { Log } from '../infra/context.js';
import { buildApp } from '../http/server.js';
import { type AppContext, createContext } from './context.js';

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  url: string;
  stop(): Promise<void>;
}

/** Builds the HTTP app on an existing context (tests use this with a manual clock). */
export async function buildServerApp(
  ctx: AppContext,
  options: { logger?: false; loggerInstance?: Logger } = {},
): Promise<FastifyInstance> {
  const { config, database, clock } = ctx;
  return buildApp({
    config,
    db: database.db,
    clock,
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
          })),
        };
      },
    },
    screening: { screening: ctx.services.screening },
    monitors: { monitors: ctx.services.monitors },
    decisions: { decisions: ctx.services.decisions },
    batches: { batches: ctx.services.batches },
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
  const ctx = await createContext(config, { ...(options.clock ? { clock: options.clock } : {}), log });
  if (options.jobs !== false) ctx.jobs.start();
  const app = await buildServerApp(ctx, { loggerInstance: logger });
  const url = await app.listen({ host: config.http.host, port: config.http.port });
  app.log.info({ url, database: config.database.engine }, 'sanctions screening service listening');
  return {
    app,
    ctx,
    url,
    async stop() {
      await ctx.jobs.stop();
      await app.close();
      await ctx.close();
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
    server.app.log.info({ signal }, 'shutting down');
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
