import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Clock } from '../infra/clock.js';
import type { BatchConfig } from '../infra/config.js';
import type { Log } from '../infra/context.js';
import type { DatabaseHandle } from '../infra/database.js';
import { AppError } from '../infra/errors.js';
import type { InFlight } from '../infra/in-flight.js';
import { PollingJob } from '../infra/polling-job.js';
import type { MonitorService } from '../monitoring/index.js';
import type { ScreeningService } from '../screening/index.js';
import { type Caller, effectiveQuota, TenantsStore, type Tier } from '../tenants/index.js';
import { enqueueDelivery, serializeBatchEvent } from '../webhooks/index.js';
import { batchStatus } from './batch-items.js';
import { type BatchRow, BatchStore, type ClaimedLine } from './batch-store.js';

export interface BatchRunnerDeps {
  database: DatabaseHandle;
  clock: Clock;
  config: BatchConfig;
  nodeId: string;
  screening: ScreeningService;
  monitors: MonitorService;
  /** Whether the lists are loaded: rows wait while they are not. */
  listsReady: () => boolean;
  /** Called when a batch.completed delivery was written. */
  onDeliveries?: () => void;
  /**
   * Interactive requests under way (the HTTP layer counts them): while any is, at most
   * BATCH_BUSY_CONCURRENCY rows are in flight instead of BATCH_CONCURRENCY. Left out, never busy.
   */
  interactive?: InFlight;
  log?: Log;
}

export interface RunReport {
  screened: number;
  errors: number;
  completed: number;
}

/**
 * Rows allowed in flight grow again only once no interactive request has been under way for this
 * long: closed-loop clients leave gaps of well under a millisecond between two requests, and rows let
 * in during such a gap are queued ahead of the next request in the matching thread and the commit.
 */
const QUIET_MS = 20;

/** A batch left 'receiving' this long was broken off by a node that died during its upload. */
const STALE_RECEIVING_MS = 60 * 60 * 1000;

/**
 * Runs batch rows in the background, on every node: a round claims rows of the oldest runnable
 * batch a few at a time (BATCH_CLAIM_SIZE, the next few claimed before the last ones are taken) until
 * none of that batch is left, and screens them through the screening service's own POST /screen
 * path, BATCH_CONCURRENCY at once while no interactive request is under way (so that the group
 * commit and the matching thread get many rows in one go) and at most BATCH_BUSY_CONCURRENCY while
 * one is, so that interactive requests keep their latency. Each
 * row's 'done' mark commits in its screening's transaction; a row's key is its line, so a row is
 * never screened twice. A node that dies leaves its claims to run out (BATCH_LEASE); on SQLite (one
 * process) the claims found at start-up are a dead process's and are released at once.
 */
export class BatchRunner {
  readonly job: PollingJob<RunReport>;
  /** Rows this node finished since it started (the ops hook reads it). */
  rowsDone = 0;
  private startedUp = false;
  /** Rows allowed in flight while no request is under way: grows by one per finished row up to BATCH_CONCURRENCY. */
  private allowed: number;
  /** Workers waiting for `allowed` to grow past their slot. */
  private grown: { slot: number; wake: () => void }[] = [];

  constructor(private readonly deps: BatchRunnerDeps) {
    this.allowed = this.busyLimit();
    this.job = new PollingJob<RunReport>({
      name: 'batches',
      intervalMs: deps.config.pollIntervalMs,
      round: () => this.round(),
      combine: (a, b) =>
        a && b
          ? { screened: a.screened + b.screened, errors: a.errors + b.errors, completed: a.completed + b.completed }
          : (b ?? a),
      ...(deps.log ? { log: deps.log } : {}),
    });
  }

  /** Rows waiting in open batches, on the whole database (the ops hook). */
  queuedRows(): Promise<number> {
    return new BatchStore(this.deps.database.db).queuedRows();
  }

  /** Runs the rows of one batch in this process until none is left (the command line's `screen`). */
  async runBatch(batchId: string): Promise<void> {
    for (;;) {
      const { more } = await this.round(batchId);
      if (!more) return;
    }
  }

  private async round(batchId?: string): Promise<{ more: boolean; report: RunReport }> {
    const { database, clock, nodeId, config } = this.deps;
    const store = new BatchStore(database.db);
    const report: RunReport = { screened: 0, errors: 0, completed: 0 };
    const now = clock.now();
    if (!this.startedUp) {
      this.startedUp = true;
      if (database.engine === 'sqlite') await store.releaseAll();
      for (const id of await store.staleReceiving(new Date(now.getTime() - STALE_RECEIVING_MS).toISOString()))
        await store.deleteBatch(id);
    }
    if (!this.deps.listsReady()) return { more: false, report };
    const batches = new Map<string, { batch: BatchRow; caller: Caller } | null>();
    /** Claimed rows not taken yet, in file order. */
    let queue: ClaimedLine[] = [];
    /**
     * Lines of the round's batch queued or running here: a claim made while they wait may find the
     * lease of some run out (BATCH_LEASE) and claim them again; that renews their lease, and they
     * must not run twice.
     */
    const ours = new Set<number>();
    let claimedAny = false;
    let exhausted = false;
    // The round's first claim names the batch (the oldest runnable one); the next claims take more of
    // that batch only, so that the round ends, and the batch is completed, when its rows have run.
    let roundBatch = batchId;
    const claimMore = async (): Promise<void> => {
      const at = clock.now();
      const claimed = await BatchStore.claim(database, {
        now: at.toISOString(),
        until: new Date(at.getTime() + config.leaseMs).toISOString(),
        nodeId,
        limit: config.claimSize,
        ...(roundBatch !== undefined ? { batchId: roundBatch } : {}),
      });
      if (claimed.length === 0) {
        exhausted = true;
        return;
      }
      claimedAny = true;
      roundBatch ??= claimed[0]!.batch_id;
      for (const id of new Set(claimed.map((c) => c.batch_id))) {
        if (batches.has(id)) continue;
        await store.setStatus(id, ['queued'], { status: 'running', started_at: at.toISOString() });
        batches.set(id, await this.callerOf(store, id));
      }
      const fresh = claimed.filter((c) => !ours.has(c.line));
      for (const row of fresh) ours.add(row.line);
      queue = queue.concat(fresh);
    };
    await claimMore();
    let stop = false;
    /** The claim under way, if any: workers that find the queue empty wait for it. */
    let claiming: Promise<void> | undefined;
    // Resolves once no row is left to take, so that workers waiting for a quiet moment end.
    let drained!: () => void;
    const allTaken = new Promise<void>((resolve) => (drained = resolve));
    const more = () => !stop && !this.job.stopping && (queue.length > 0 || claiming !== undefined || !exhausted);
    /**
     * The next rows are claimed while the last BATCH_CONCURRENCY of these are still to be taken, so
     * that the matching thread never waits for a round to drain, its commit and the next claim.
     */
    const refill = () => {
      if (exhausted || claiming || stop || queue.length > config.concurrency) return;
      claiming = claimMore()
        .catch((error: unknown) => {
          // A failed claim ends the round; the rows already claimed run.
          exhausted = true;
          this.deps.log?.('error', 'claiming batch rows failed', { err: String(error) });
        })
        .finally(() => {
          claiming = undefined;
          if (!more()) drained();
        });
    };
    const worker = async (slot: number) => {
      for (;;) {
        // Back off at once while interactive requests are under way: the slots above the busy
        // limit take no new row until none is (rows already running finish).
        while (more() && slot >= this.limit()) await Promise.race([this.slotFreed(slot), allTaken]);
        refill();
        if (queue.length === 0 && claiming) await claiming;
        if (!more()) break;
        // Others took what the claim brought: claim again (or learn that none is left).
        if (queue.length === 0) continue;
        const line = queue.shift()!;
        if (!more()) drained();
        const owner = batches.get(line.batch_id);
        const outcome = owner ? await this.runRow(line, owner.batch, owner.caller) : 'error';
        ours.delete(line.line);
        if (outcome === 'retry') {
          stop = true;
          drained();
        } else if (outcome === 'done') report.screened++;
        else report.errors++;
        if (outcome !== 'retry') this.rowsDone++;
        this.grow();
        await yieldToEventLoop();
      }
    };
    // Claims to come may bring more rows than the first one did (a claim smaller than the concurrency).
    const slots = exhausted ? Math.min(config.concurrency, Math.max(1, queue.length)) : config.concurrency;
    await Promise.all(Array.from({ length: slots }, (_, slot) => worker(slot)));
    await claiming;
    for (const waiter of this.grown.splice(0)) waiter.wake();
    if (queue.length > 0) await store.release(nodeId, queue);
    report.completed = await this.finishBatches();
    return { more: claimedAny && !stop, report };
  }

  private busyLimit(): number {
    return Math.max(1, Math.min(this.deps.config.busyConcurrency, this.deps.config.concurrency));
  }

  /**
   * Rows allowed in flight now: BATCH_BUSY_CONCURRENCY while interactive requests are under way;
   * once none has been for QUIET_MS, one more per finished row up to BATCH_CONCURRENCY (a gap
   * between two requests lets no more rows in, so the next request finds no burst to wait behind).
   */
  private limit(): number {
    if (this.deps.interactive?.busy) this.allowed = this.busyLimit();
    return this.allowed;
  }

  private grow(): void {
    const { interactive } = this.deps;
    if (this.allowed >= this.deps.config.concurrency) return;
    if (interactive && (interactive.busy || interactive.quietFor() < QUIET_MS)) return;
    this.allowed++;
    // The worker of the slot now allowed: waking another (one whose slot is still above the limit)
    // would leave that slot idle, for the rest of a round that lasts as long as its batch.
    const at = this.grown.findIndex((w) => w.slot < this.allowed);
    if (at >= 0) this.grown.splice(at, 1)[0]!.wake();
  }

  /** Resolves when the worker of `slot` may look again: the requests ended, or the limit grew past it. */
  private slotFreed(slot: number): Promise<void> {
    const { interactive } = this.deps;
    if (interactive?.busy) return interactive.idle();
    return new Promise<void>((wake) => this.grown.push({ slot, wake }));
  }

  /** The caller a batch's rows run as: its creator, with the organization's tier and quota now. */
  private async callerOf(store: BatchStore, batchId: string): Promise<{ batch: BatchRow; caller: Caller } | null> {
    const batch = await this.deps.database.db
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', batchId)
      .executeTakeFirst();
    if (!batch) return null;
    const org = await new TenantsStore(this.deps.database.db).orgById(batch.org_id);
    if (!org) {
      await store.setStatus(batchId, ['queued', 'running'], { status: 'failed', finished_at: this.now() });
      return null;
    }
    const who = JSON.parse(batch.caller) as { keyId: string; userId: string };
    const tier = org.tier as Tier;
    return {
      batch,
      caller: {
        orgId: org.id,
        orgSlug: org.slug,
        orgName: org.name,
        tier,
        quota: effectiveQuota(tier, org.monthly_quota),
        keyId: who.keyId,
        userId: who.userId,
      },
    };
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** Screens one row as POST /screen does; 'retry' gives it back (the lists are not loaded). */
  private async runRow(line: ClaimedLine, batch: BatchRow, caller: Caller): Promise<'done' | 'error' | 'retry'> {
    const { database, clock, nodeId } = this.deps;
    const ctx = { db: database.db, clock, caller, requestId: `${batch.id}:${line.line}` };
    const store = new BatchStore(database.db);
    try {
      const outcome = await this.deps.screening.screen({
        ctx,
        input: {
          body: JSON.parse(line.input),
          background: true,
          alongside: async (trx, screening) => {
            await store.markDone(
              line,
              nodeId,
              {
                screeningId: screening.id,
                riskLevel: screening.risk_level,
                riskScore: screening.risk_score,
                entityId: screening.entity_id,
                entityName: screening.entity_name,
                matchedSources: screening.matched_sources,
                profileId: screening.profile_id,
                profileVersion: screening.profile_version,
              },
              trx,
            );
          },
        },
      });
      if (batch.monitor === 1 && outcome.screeningId !== null) await this.monitor(ctx, outcome.screeningId);
      return 'done';
    } catch (error) {
      if (error instanceof AppError && error.code === 'LISTS_NOT_READY') {
        await store.release(nodeId, [line]);
        return 'retry';
      }
      const known = error instanceof AppError;
      if (!known)
        this.deps.log?.('error', 'batch row failed', { batchId: batch.id, line: line.line, err: String(error) });
      await store.markError(
        line,
        known
          ? { code: error.code, field: error.field ?? null, message: error.message }
          : { code: 'INTERNAL_ERROR', field: null, message: 'the row could not be screened' },
        nodeId,
      );
      return 'error';
    }
  }

  private async monitor(ctx: Parameters<MonitorService['createMonitor']>[0]['ctx'], screeningId: string) {
    try {
      await this.deps.monitors.createMonitor({ ctx, input: { screeningId } });
    } catch (error) {
      // A search already monitored stays as it is.
      if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
    }
  }

  /** Completes every open batch with no row left to run, with its batch.completed delivery. */
  private async finishBatches(): Promise<number> {
    const { database } = this.deps;
    let completed = 0;
    let deliveries = false;
    for (const open of await new BatchStore(database.db).finishedOpen()) {
      const now = this.deps.clock.now();
      await database.db.transaction().execute(async (trx) => {
        const store = new BatchStore(trx);
        const at = now.toISOString();
        if (!(await store.setStatus(open.id, ['queued', 'running'], { status: 'completed', finished_at: at }))) return;
        completed++;
        const org = await new TenantsStore(trx).orgById(open.org_id);
        if (!org?.webhook_url) return;
        const batch = Object.assign({}, open, {
          status: 'completed',
          finished_at: at,
          started_at: open.started_at ?? at,
        });
        const payload = serializeBatchEvent(
          at,
          { id: org.id, slug: org.slug, name: org.name },
          batchStatus(batch, await store.tally(open.id), await store.errors(open.id, 100)),
        );
        await enqueueDelivery(trx, {
          orgId: org.id,
          alertId: null,
          event: 'batch.completed',
          payload,
          isTest: false,
          now,
        });
        deliveries = true;
      });
    }
    if (deliveries) this.deps.onDeliveries?.();
    return completed;
  }
}
