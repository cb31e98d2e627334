import type { Logger } from 'pino';
import { withLease } from '../infra/job-lock.js';
import { listStatus, syncSources } from '../lists/sync-service.js';
import { SOURCE_IDS, type OfficialSourceId } from '../lists/model.js';
import type { AppContext } from './context.js';

const SYNC_LEASE_MS = 60 * 60 * 1000;

/** Milliseconds from `now` to the next HH:MM in UTC. */
export function msUntilDaily(now: Date, hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), h, m));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - now.getTime();
}

export interface ListJobs {
  /** Sources being synced right now by this node. */
  syncing: Set<string>;
  stop(): void;
}

/**
 * Inside `sanctions serve`: poll the database for new versions (every node), sync at start-up the
 * sources with no good version, and refresh every source daily at LIST_SYNC_TIME. Syncs run under a
 * lease so one node of a deployment does them.
 */
export function startListJobs(ctx: AppContext, log: Logger, afterSync?: () => Promise<void>): ListJobs {
  const syncing = new Set<string>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  const refresh = async () => {
    try {
      await ctx.runtime.refresh();
    } catch (error) {
      log.error({ err: error }, 'loading lists failed');
    }
  };

  const sync = async (sources: OfficialSourceId[], why: string) => {
    if (sources.length === 0 || stopped) return;
    const ran = await withLease(ctx.database.db, ctx.clock, 'lists-sync', ctx.nodeId, SYNC_LEASE_MS, async () => {
      log.info({ sources, why }, 'list sync started');
      const outcomes = await syncSources(
        {
          db: ctx.database.db,
          clock: ctx.clock,
          lists: ctx.config.lists,
          ownership: ctx.config.ownership,
          onProgress: (source, phase) => {
            if (phase === 'done') syncing.delete(source);
            else syncing.add(source);
          },
        },
        { sources },
      );
      for (const o of outcomes) {
        const level = o.status === 'rejected' ? 'warn' : 'info';
        log[level](
          {
            source: o.source,
            status: o.status,
            records: o.records,
            version: o.version,
            tookMs: o.tookMs,
            message: o.message,
          },
          'list sync',
        );
      }
      return outcomes;
    });
    syncing.clear();
    if (ran === undefined) log.info({ why }, 'list sync skipped: another node holds the lease');
    await refresh();
    if (afterSync) await afterSync();
  };

  const poll = setInterval(() => void refresh(), ctx.config.lists.reloadIntervalMs);
  poll.unref();
  timers.push(poll);

  const scheduleDaily = () => {
    if (stopped) return;
    const timer = setTimeout(
      async () => {
        await sync([...SOURCE_IDS], 'daily refresh').catch((error) => log.error({ err: error }, 'daily sync failed'));
        scheduleDaily();
      },
      msUntilDaily(ctx.clock.now(), ctx.config.lists.syncTime),
    );
    timer.unref();
    timers.push(timer);
  };
  scheduleDaily();

  if (ctx.config.lists.syncOnStart) {
    void (async () => {
      await refresh();
      const status = await listStatus({ db: ctx.database.db, clock: ctx.clock, lists: ctx.config.lists });
      const missing = status.flatMap((s) => (s.version === null && s.source !== 'us_ofac_50' ? [s.source] : []));
      await sync(missing, 'start-up: sources without a good version');
    })().catch((error) => log.error({ err: error }, 'start-up sync failed'));
  } else {
    void refresh();
  }

  return {
    syncing,
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
    },
  };
}
