import type { Context, Log } from '../infra/context.js';
import { withLease } from '../infra/job-lock.js';
import { PollingJob } from '../infra/polling-job.js';
import {
  type ListRuntime,
  type ListSyncService,
  type OfficialSourceId,
  pollIntervalOf,
  PollStateStore,
  SOURCE_IDS,
} from '../lists/index.js';
import type { ListsConfig } from '../infra/config.js';
import type { Screener } from '../screening/index.js';

/** One sync under the lease at most this long: a node that dies mid-sync frees it after this. */
const SYNC_LEASE_MS = 60 * 60 * 1000;

/** Milliseconds from `now` to the next HH:MM in UTC. */
export function msUntilDaily(now: Date, hhmm: string): number {
  const [hour, minute] = hhmm.split(':').map(Number) as [number, number];
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour, minute));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next.getTime() - now.getTime();
}

export interface ListJobsDeps {
  config: ListsConfig;
  /** The context syncs run in (an operator's: no caller). */
  ctx: Context;
  nodeId: string;
  runtime: ListRuntime<Screener>;
  lists: ListSyncService;
  log?: Log;
}

/**
 * The list work of `sanctions serve`, as one polling job: every LIST_RELOAD_INTERVAL it loads new
 * versions from the database (every node); on its first round it syncs the sources that have no good
 * version (LIST_SYNC_ON_START); it checks every source whose next check is due (LIST_POLL_INTERVAL,
 * conditional requests, backoff after failures: lists/poll-state.ts); and once the clock passes
 * LIST_SYNC_TIME it refreshes every source in full, then waits for the next day. Syncs run under a
 * lease so one node of a deployment does them; a node that finds the lease held skips that sync as
 * done. Times are read from the injected clock, so a test moves the clock instead of waiting.
 */
export class ListJobs {
  readonly job: PollingJob;
  /** Sources being synced right now by this node (GET /health). */
  readonly syncing = new Set<string>();
  private startupDone = false;
  private nextDaily: number | undefined;

  constructor(private readonly deps: ListJobsDeps) {
    this.job = new PollingJob({
      name: 'lists',
      intervalMs: deps.config.reloadIntervalMs,
      round: async () => {
        await this.round();
        return { more: false };
      },
      ...(deps.log ? { log: deps.log } : {}),
    });
  }

  private async round(): Promise<void> {
    await this.refresh();
    const now = this.deps.ctx.clock.now();
    this.nextDaily ??= now.getTime() + msUntilDaily(now, this.deps.config.syncTime);
    if (!this.startupDone) {
      this.startupDone = true;
      if (this.deps.config.syncOnStart) {
        const status = await this.deps.lists.status({ ctx: this.deps.ctx });
        const missing = status.flatMap((s) =>
          s.version === null && (SOURCE_IDS as readonly string[]).includes(s.source)
            ? [s.source as OfficialSourceId]
            : [],
        );
        await this.sync(missing, 'start-up: sources without a good version');
      }
    }
    if (now.getTime() >= this.nextDaily) {
      this.nextDaily = now.getTime() + msUntilDaily(now, this.deps.config.syncTime);
      await this.sync([...SOURCE_IDS], 'daily refresh');
    }
    const due = await this.dueForCheck();
    if (due.length > 0) await this.sync(due, 'poll', true);
  }

  /** The sources whose next check (LIST_POLL_INTERVAL, or the backoff after a failure) has come. */
  private async dueForCheck(): Promise<OfficialSourceId[]> {
    const { config, ctx } = this.deps;
    const polled = SOURCE_IDS.filter((s) => pollIntervalOf(config, s) > 0);
    if (polled.length === 0) return [];
    const states = await new PollStateStore(ctx.db).all();
    const now = ctx.clock.now().toISOString();
    return polled.filter((s) => {
      const next = states.get(s)?.next_check_at;
      return next === null || next === undefined || next <= now;
    });
  }

  private async refresh(): Promise<void> {
    try {
      await this.deps.runtime.refresh();
    } catch (error) {
      this.deps.log?.('error', 'loading lists failed', { err: String(error) });
    }
  }

  private async sync(sources: OfficialSourceId[], why: string, poll = false): Promise<void> {
    if (sources.length === 0) return;
    const { ctx, nodeId, log } = this.deps;
    const ran = await withLease(ctx.db, ctx.clock, 'lists-sync', nodeId, SYNC_LEASE_MS, async () => {
      log?.('info', 'list sync started', { sources, why });
      // One source at a time, so that a stopping server ends after the source under way.
      for (const source of sources) {
        if (this.job.stopping) break;
        const outcomes = await this.deps.lists.syncSources({
          ctx,
          input: {
            sources: [source],
            ...(poll ? { poll } : {}),
            onProgress: (s, phase) => {
              if (phase === 'done') this.syncing.delete(s);
              else this.syncing.add(s);
            },
          },
        });
        for (const outcome of outcomes) {
          if (
            poll &&
            (outcome.status === 'not_modified' || outcome.status === 'unchanged' || outcome.status === 'skipped')
          )
            continue;
          log?.(outcome.status === 'rejected' ? 'warn' : 'info', 'list sync', {
            source: outcome.source,
            status: outcome.status,
            records: outcome.records,
            version: outcome.version,
            tookMs: outcome.tookMs,
            message: outcome.message,
          });
        }
      }
      return true;
    }).catch((error: unknown) => {
      log?.('error', 'list sync failed', { why, err: String(error) });
      return false;
    });
    this.syncing.clear();
    if (ran === undefined) log?.('info', 'list sync skipped: another node holds the lease', { why });
    await this.refresh();
  }
}
