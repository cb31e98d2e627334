import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import type { OpsConfig } from '../infra/config.js';
import { ping } from '../infra/database.js';
import { releaseLeasesOf } from '../infra/job-lock.js';
import { METRICS_CONTENT_TYPE, type MetricsSample, metricsText } from '../infra/metrics.js';
import { newId } from '../infra/ids.js';
import { bearerMatches, type OperationsDeps } from '../http/operations.js';
import { KeyUsageRecorder } from '../tenants/index.js';
import { outboxBacklog, releaseClaims } from '../webhooks/index.js';
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
      lastSyncOk: s.lastCheckStatus !== null ? s.checkFailures === 0 : s.lastAttemptStatus !== 'rejected',
      checkFailures: s.checkFailures,
      checkAgeSeconds: s.lastCheckAt
        ? Math.max(0, Math.round((now.getTime() - new Date(s.lastCheckAt).getTime()) / 1000))
        : null,
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
 *
 * Taking it is atomic: the holder's record is written to a file of its own, then hard-linked to the
 * lock's name, which fails when the name exists (create-exclusive, and the lock is never seen half
 * written). A stale lock is removed only under a second create-exclusive file (`.takeover`), after
 * reading it again, so that of two processes finding the same dead holder one removes it and both
 * then race for the name again: exactly one wins.
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

/** The lock file's text; undefined when there is no such file. */
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function parseHolder(text: string | undefined): LockHolder | undefined {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as LockHolder);
  } catch {
    return undefined;
  }
}

function readHolder(path: string): LockHolder | undefined {
  return parseHolder(readText(path));
}

/** Held: on another host, or by another live process on this one. */
function holds(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  return holder.pid !== process.pid && alive(holder.pid);
}

/** The live holder of the lock, if any. */
export function lockHolder(databaseFile: string): LockHolder | undefined {
  const holder = readHolder(serverLockPath(databaseFile));
  return holder && holds(holder) ? holder : undefined;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Creates `path` holding `text` only when no file of that name exists; false when one does. */
function createExclusive(path: string, text: string): boolean {
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(draft, text, { flag: 'wx' });
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

function sameHolder(a: LockHolder | undefined, b: LockHolder): boolean {
  return a !== undefined && a.pid === b.pid && a.host === b.host && a.startedAt === b.startedAt;
}

/**
 * Removes the stale lock whose text is `stale` unless it changed since it was read. Only a process
 * holding the `.takeover` guard removes a lock, so under the guard the file can change in one way
 * only: from absent to a new holder's (by link). Comparing the text under the guard is therefore safe.
 */
function removeStale(path: string, stale: string): void {
  const guard = `${path}.takeover`;
  const holder: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  if (!createExclusive(guard, JSON.stringify(holder))) {
    // Another process is taking over; its guard stays behind only if it died within these few lines.
    const other = readHolder(guard);
    if (other && !holds(other) && other.pid !== process.pid) rmSync(guard, { force: true });
    return;
  }
  try {
    if (readText(path) === stale) rmSync(path, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

export function acquireServerLock(databaseFile: string, startedAt: Date): { release(): void } {
  const path = serverLockPath(databaseFile);
  mkdirSync(dirname(path), { recursive: true });
  const mine: LockHolder = { pid: process.pid, host: hostname(), startedAt: startedAt.toISOString() };
  // Each round creates the lock, finds a live holder, or removes a dead one (or sees it gone): a
  // few rounds cover processes dying and racing at once.
  for (let round = 0; round < 50; round++) {
    if (round > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    if (createExclusive(path, JSON.stringify(mine))) return lockHandle(path, mine);
    const text = readText(path);
    if (text === undefined) continue;
    const holder = parseHolder(text);
    if (holder && holds(holder)) {
      throw new Error(
        `another server (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) serves ${databaseFile}; ` +
          `SQLite is served by one process (use PostgreSQL for several nodes)`,
      );
    }
    // Dead, or not written by this code (a lock is linked whole, never seen half written).
    removeStale(path, text);
  }
  throw new Error(`could not take the server lock ${path}: it keeps changing hands`);
}

function lockHandle(path: string, mine: LockHolder): { release(): void } {
  return {
    release() {
      if (sameHolder(readHolder(path), mine)) rmSync(path, { force: true });
    },
  };
}
