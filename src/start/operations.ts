import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { hostname } from 'node:os';
import type { OpsConfig } from '../infra/config.js';
import { ping } from '../infra/database.js';
import { releaseLeasesOf } from '../infra/job-lock.js';
import { METRICS_CONTENT_TYPE, type MetricsSample, metricsText } from '../infra/metrics.js';
import { newId } from '../infra/ids.js';
import { bearerMatches, type OperationsDeps } from '../http/operations.js';
import { KeyUsageRecorder } from '../tenants/key-usage.js';
import { outboxBacklog, releaseClaims } from '../webhooks/delivery-store.js';
import type { AppContext } from './context.js';

/**
 * Operating a node (issue 17): readiness and the metrics sample from the application context, the
 * separate metrics listener (METRICS_PORT), the SQLite server lock that `sanctions restore` checks,
 * and what a node gives back when it stops (leases, delivery claims).
 */

export interface NodeOperations {
  deps: OperationsDeps;
  keyUsage: KeyUsageRecorder;
  /** Set on SIGTERM: /health/ready answers 503 from then on. */
  draining: boolean;
}

export function nodeOperations(ctx: AppContext): NodeOperations {
  const { config, clock, database } = ctx;
  const keyUsage = new KeyUsageRecorder(database.db, clock);
  const state: NodeOperations = {
    keyUsage,
    draining: false,
    deps: {
      metricsEnabled: config.ops.metricsPort !== undefined || config.ops.metricsToken !== undefined,
      ...(config.ops.metricsToken !== undefined && config.ops.metricsPort === undefined
        ? { metricsToken: config.ops.metricsToken }
        : {}),
      keyUsed: (keyId) => keyUsage.used(keyId),
      readiness: async () => {
        const databaseUp = await ping(database.db);
        return {
          database: databaseUp,
          listsLoaded: ctx.runtime.current() !== undefined,
          matchingThreads: ctx.matching.healthy(),
          draining: state.draining,
        };
      },
      sample: () => metricsSample(ctx),
    },
  };
  return state;
}

export async function metricsSample(ctx: AppContext): Promise<MetricsSample> {
  const now = ctx.clock.now();
  const [lists, outbox, validation] = await Promise.all([
    ctx.services.lists.status({ ctx: ctx.operator }),
    outboxBacklog(ctx.database.db, now),
    ctx.services.validation.latestSummary({ ctx: ctx.operator }),
  ]);
  return {
    listsLoaded: ctx.runtime.current() !== undefined,
    lists: lists.map((s) => ({
      source: s.source,
      records: s.records,
      ageSeconds: s.fetchedAt
        ? Math.max(0, Math.round((now.getTime() - new Date(s.fetchedAt).getTime()) / 1000))
        : null,
      stale: s.stale,
      lastSyncOk: s.lastAttemptStatus !== 'rejected',
    })),
    outbox,
    matching: {
      queueDepth: ctx.matching.queueDepth(),
      threads: ctx.matching.threads,
      busySeconds: ctx.matching.busySeconds(),
    },
    ...(validation ? { validation } : {}),
  };
}

/** GET /metrics on a port of its own (METRICS_PORT), behind METRICS_TOKEN when that is set too. */
export async function startMetricsListener(
  ops: OpsConfig,
  sample: () => Promise<MetricsSample>,
  now: () => Date,
): Promise<{ url: string; close(): Promise<void> } | undefined> {
  if (ops.metricsPort === undefined) return undefined;
  const token = ops.metricsToken;
  const server: Server = createServer((request, response) => {
    const send = (status: number, code: string, message: string) => {
      response.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': newId('req', now()),
        ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
      });
      response.end(JSON.stringify({ success: false, error: { code, message } }));
    };
    const path = (request.url ?? '').split('?', 1)[0];
    if (request.method !== 'GET' || path !== '/metrics')
      return send(404, 'NOT_FOUND', 'only GET /metrics is served here');
    if (token !== undefined && !bearerMatches(request.headers.authorization, token))
      return send(401, 'UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    metricsText(sample).then(
      (text) => {
        response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'x-request-id': newId('req', now()) });
        response.end(text);
      },
      () => send(500, 'INTERNAL_ERROR', 'the metrics could not be read'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ops.metricsPort, ops.metricsHost, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : ops.metricsPort;
  return {
    url: `http://${ops.metricsHost}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a stopping node gives back once its jobs have stopped: leases and unfinished delivery claims. */
export async function releaseNodeHoldings(ctx: AppContext): Promise<{ leases: number; claims: number }> {
  const [leases, claims] = await Promise.all([
    releaseLeasesOf(ctx.database.db, ctx.nodeId),
    releaseClaims(ctx.database.db, ctx.nodeId),
  ]);
  return { leases, claims };
}

/**
 * The SQLite server lock: `<database file>.server.lock` holds the serving process's pid and host.
 * `sanctions serve` refuses to start while a live process holds it, `sanctions restore` refuses to
 * replace the database under it; a lock left by a process that died (kill -9) is taken over. The
 * pid is checked only on the same host; a lock written on another host counts as held.
 */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
}

export function serverLockPath(databaseFile: string): string {
  return `${databaseFile}.server.lock`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the lock, if any. */
export function lockHolder(databaseFile: string): LockHolder | undefined {
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(serverLockPath(databaseFile), 'utf8')) as LockHolder;
  } catch {
    return undefined;
  }
  if (holder.host !== hostname()) return holder;
  return holder.pid !== process.pid && alive(holder.pid) ? holder : undefined;
}

export function acquireServerLock(databaseFile: string, startedAt: Date): { release(): void } {
  const holder = lockHolder(databaseFile);
  if (holder) {
    throw new Error(
      `another server (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) serves ${databaseFile}; ` +
        `SQLite is served by one process (use PostgreSQL for several nodes)`,
    );
  }
  const path = serverLockPath(databaseFile);
  const mine: LockHolder = { pid: process.pid, host: hostname(), startedAt: startedAt.toISOString() };
  writeFileSync(path, JSON.stringify(mine));
  return {
    release() {
      try {
        const current = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
        if (current.pid === mine.pid && current.host === mine.host) rmSync(path, { force: true });
      } catch {
        // already gone
      }
    },
  };
}
