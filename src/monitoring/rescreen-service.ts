import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Clock } from '../infra/clock.js';
import type { MatchingConfig, MonitoringConfig } from '../infra/config.js';
import type { Log } from '../infra/context.js';
import type { DatabaseHandle, Db } from '../infra/database.js';
import { releaseLease, tryAcquireLease } from '../infra/job-lock.js';
import { observeRescreenPass } from '../infra/metrics.js';
import { PollingJob } from '../infra/polling-job.js';
import { type ListRecord, type ListSnapshot, ListStore } from '../lists/index.js';
import type { ProfileResolver, Screener } from '../screening/index.js';
import { customerGroupKey, customerKeyOf, decisionsByCustomer, ensureReviewed } from '../decisions/index.js';
import { affectedMonitors, changedEntities, keyNewMonitors } from './delta-rescreen.js';
import { announceListChanges } from './lists-changed.js';
import { type MonitorScreening, type RescreenedMonitor, screenMonitor } from './monitor-screening.js';
import { type DueMonitor, MonitorStore } from './monitor-store.js';
import { type Generation, writeBatch } from './rescreen-write.js';

export interface RescreenDeps {
  database: DatabaseHandle;
  clock: Clock;
  matching: MatchingConfig;
  monitoring: MonitoringConfig;
  nodeId: string;
  lists: () => ListSnapshot<Screener> | undefined;
  /**
   * Builds a screener over a few records: the changed entities a delta pass screens every monitor
   * against (delta-rescreen.ts). Without it, list changes are followed by full passes only.
   */
  probe?: (records: ListRecord[]) => Promise<Screener>;
  /** Frees a screener `probe` built once the delta pass is done with it (matching threads hold it). */
  releaseProbe?: (probe: Screener) => void;
  /** Called when a batch wrote webhook deliveries (the delivery job sends them at once). */
  onDeliveries?: () => void;
  log?: Log;
  /** The screening profiles (src/profiles/): a rescreen runs under its organization's profile. */
  profileOf?: ProfileResolver;
  /** PUBLIC_URL: the `lists.changed` webhook's links to the change feed start with it. */
  publicUrl?: string;
}

export interface PassReport {
  fingerprint: string;
  rescreened: number;
  changed: number;
  alerts: number;
  batches: number;
  /** The delta pass that ran first, when list versions had changed (its monitors count above too). */
  delta?: DeltaReport;
  /** Why the pass stopped early, if it did. */
  stopped?: string;
}

export interface DeltaReport {
  /** Entities added, removed or changed since the lists the monitors were last screened against. */
  entities: number;
  /** Monitors those entities can affect: rescreened before the rest. */
  /** Monitors their names, identifiers and last matches reached through the index (delta-rescreen.ts). */
  reached: number;
  monitors: number;
  alerts: number;
  /** From the start of the delta pass to its last alert written, in ms. */
  tookMs: number;
}

/** `delta`: only the monitors the last list change can affect; `full`: every due monitor, no delta first. */
export type PassMode = 'delta' | 'full' | 'delta-then-full';

/** A swap of the lists that no delta pass has followed yet. */
interface PendingDelta {
  previous: ListSnapshot<Screener>;
  next: ListSnapshot<Screener>;
}

const LEASE_NAME = 'monitors-rescreen';
/** Times a PostgreSQL pass looks again from the first monitor for rows a dead node left (see runPass). */
const MAX_RESTARTS = 3;
/** Longest stretch of screening between two yields to the event loop, so API requests are served during a pass. */
const SLICE_MS = 20;
/**
 * Monitors of a batch screened at once per matching thread (see screenAll): the pool admits two
 * background jobs per thread; one more waits at the gate to follow at once.
 */
const IN_FLIGHT_PER_THREAD = 3;
/** How often the job looks for monitors due by age (the daily rescreen) when no list change kicks it. */
const POLL_MS = 60_000;

/** Monitors a batch of a full pass looks among (MonitorStore.due), in batches of RESCREEN_BATCH_SIZE. */
const WINDOW_BATCHES = 4;

/** A batch's monitors: these (a delta pass), the window after the cursor, or every due one after it. */
type BatchScope = string[] | 'window' | 'rest';

/** A batch once claimed (and screened): what the pass needs to go on to the next one. */
interface BatchHead {
  count: number;
  /** Where the next batch starts looking. */
  lastId: string;
  /** No monitor comes after the cursor: the pass has been everywhere. */
  end?: boolean;
  /** SQLite: the pass lease expired while the batch was screened and another node holds it now. */
  leaseLost?: boolean;
}

interface BatchOutcome extends BatchHead {
  changed: number;
  alerts: number;
}

function noneWritten(head: BatchHead): BatchOutcome {
  return Object.assign({ changed: 0, alerts: 0 }, head);
}

/**
 * Rescreens monitors against the lists in force (api-v1.md 1 and 3; DECISIONS.md "Monitors", "Alerts
 * and webhooks"). A monitor is due when it was last screened against other list versions than the
 * loaded ones (its rescreen_generation), or longer ago than RESCREEN_INTERVAL. A pass works in batches
 * of RESCREEN_BATCH_SIZE and yields to the event loop inside and between them. On SQLite it runs
 * under a lease; on PostgreSQL every node runs passes at once, each batch claimed with FOR UPDATE
 * SKIP LOCKED, so the nodes share the work. After a list change a pass starts with a delta pass
 * (delta-rescreen.ts) over the monitors the changed entities can affect. The monitor's new state, its alert and the alert's webhook delivery are
 * written in one transaction, so a crash neither loses an alert nor raises it twice.
 *
 * `job` runs passes in the background (every list change kicks it; it also polls for monitors due
 * by age); `runPass` runs one now.
 */
export class Rescreener {
  readonly job: PollingJob<PassReport>;
  private pending: PendingDelta | undefined;

  constructor(private readonly deps: RescreenDeps) {
    this.job = new PollingJob<PassReport>({
      name: 'rescreen',
      intervalMs: Math.min(deps.monitoring.maxIntervalMs, POLL_MS),
      round: async () => {
        const report = await this.runPass();
        return { more: false, ...(report ? { report } : {}) };
      },
      ...(deps.log ? { log: deps.log } : {}),
    });
  }

  /**
   * Called on every swap of the lists (start/services.ts): the next pass begins with a delta pass
   * over the monitors the changed entities can affect. Swaps that follow one another before a pass
   * runs make one delta, from the lists the last pass saw to the newest.
   */
  noteSwap(next: ListSnapshot<Screener>, previous: ListSnapshot<Screener> | undefined): void {
    if (!previous || !this.deps.probe) {
      this.pending = undefined;
      return;
    }
    const from = this.pending && this.pending.next === previous ? this.pending.previous : previous;
    this.pending = { previous: from, next };
  }

  /**
   * One pass over every due monitor, after a delta pass when the lists changed since the last pass;
   * undefined when lists are not loaded or another node holds the lease.
   */
  async runPass(mode: PassMode = 'delta-then-full'): Promise<PassReport | undefined> {
    const snapshot = this.deps.lists();
    if (!snapshot) return undefined;
    const { db, engine } = this.deps.database;
    const holder = this.deps.nodeId;
    // On PostgreSQL every node rescreens at once: each batch is claimed with FOR UPDATE SKIP LOCKED
    // in the transaction that writes its results, so N nodes share a pass, and the batch of a node
    // that dies is unlocked when its transaction aborts, for another node's pass to take. On SQLite
    // (one process) the lease keeps passes from overlapping.
    const shared = engine === 'postgres';
    // SQLite: the pass lease, renewed every batch, outlives a dead node by RESCREEN_CLAIM_TIMEOUT.
    const leaseMs = this.deps.monitoring.claimTimeoutMs;
    if (!shared && !(await tryAcquireLease(db, this.deps.clock, LEASE_NAME, holder, leaseMs))) {
      this.deps.log?.('info', 'rescreen skipped: another node holds the lease');
      return undefined;
    }
    const started = performance.now();
    const report: PassReport = { fingerprint: snapshot.fingerprint, rescreened: 0, changed: 0, alerts: 0, batches: 0 };
    const cache = new Map<string, MonitorScreening>();
    let cursor = '';
    let restarts = 0;
    let sweptSome = false;
    // The last batch started, its write perhaps in flight while the next one is claimed and screened
    // (PostgreSQL).
    let writing: Promise<BatchOutcome> | undefined;
    try {
      // Delistings in the versions since the last review, before any suppression is judged (suppression.ts).
      await ensureReviewed(db, this.deps.clock, snapshot.fingerprint);
      // New monitors' terms, for this pass's delta or the next one's (delta-rescreen.ts).
      if (this.deps.probe) await keyNewMonitors(db, this.deps.clock.now().toISOString(), () => this.job.stopping);
      const pending = this.pending;
      if (mode !== 'full' && pending && pending.next === snapshot) {
        this.pending = undefined;
        report.delta = await this.deltaPass(snapshot, pending, report, cache);
      }
      for (;;) {
        if (mode === 'delta') break;
        if (this.job.stopping) {
          report.stopped = 'stopping';
          break;
        }
        if (!(await this.listsCurrent(snapshot))) {
          // The runtime's next swap kicks the job again, against the new lists.
          report.stopped = 'lists changed during the pass';
          break;
        }
        if (!shared && !(await tryAcquireLease(db, this.deps.clock, LEASE_NAME, holder, leaseMs))) {
          report.stopped = 'lease lost';
          break;
        }
        const started = this.startBatch(snapshot, cursor, cache, restarts === 0 ? 'window' : 'rest');
        const batch = await started.head;
        // Two batches at most: the previous one is committed before the next is claimed.
        const previous = writing;
        writing = started.done;
        this.tally(report, await previous);
        if (batch.leaseLost) {
          report.stopped = 'lease lost';
          break;
        }
        if (batch.end) {
          this.tally(report, await writing);
          writing = undefined;
          // Rows another node held (locked) when this pass went by are due again if that node died:
          // look once more from the start, after a sweep that found work (locked rows are skipped,
          // so this ends).
          if (shared && sweptSome && restarts++ < MAX_RESTARTS) {
            cursor = '';
            sweptSome = false;
            continue;
          }
          break;
        }
        cursor = batch.lastId;
        if (batch.count === 0) continue;
        sweptSome = true;
        await yieldToEventLoop();
      }
      this.tally(report, await writing);
    } catch (error) {
      // No transaction is left running behind a failed pass.
      await writing?.catch(() => undefined);
      throw error;
    } finally {
      if (!shared) await releaseLease(db, LEASE_NAME, holder).catch(() => undefined);
    }
    observeRescreenPass(report, (performance.now() - started) / 1000);
    if (report.rescreened > 0 || report.stopped) {
      this.deps.log?.('info', 'rescreen pass', { tookMs: Math.round(performance.now() - started), ...report });
    }
    return report;
  }

  /** Counts a written batch into the pass's report; its deliveries go out at once. */
  private tally(report: PassReport, outcome: BatchOutcome | undefined): void {
    if (!outcome || outcome.count === 0) return;
    report.batches++;
    report.rescreened += outcome.count;
    report.changed += outcome.changed;
    report.alerts += outcome.alerts;
    if (outcome.alerts > 0) this.deps.onDeliveries?.();
  }

  /** A node whose lists lag behind the database must not rescreen (it would flip monitors back). */
  private async listsCurrent(snapshot: ListSnapshot<Screener>): Promise<boolean> {
    const active = (await new ListStore(this.deps.database.db).activeVersions()).map((v) => v.id).join(',');
    return active === snapshot.fingerprint && this.deps.lists() === snapshot;
  }

  /** Rescreens the monitors the entities changed between the two snapshots can affect. */
  private async deltaPass(
    snapshot: ListSnapshot<Screener>,
    pending: PendingDelta,
    report: PassReport,
    cache: Map<string, MonitorScreening>,
  ): Promise<DeltaReport> {
    const started = performance.now();
    const { db } = this.deps.database;
    const changed = await changedEntities(db, pending.next, pending.previous);
    // The organizations that opted in hear what changed before the alerts it brings.
    const announced = await announceListChanges(db, {
      versionIds: changed.versionIds,
      now: this.deps.clock.now(),
      ...(this.deps.publicUrl ? { publicUrl: this.deps.publicUrl } : {}),
    });
    if (announced > 0) this.deps.onDeliveries?.();
    const delta: DeltaReport = { entities: changed.entityIds.size, reached: 0, monitors: 0, alerts: 0, tookMs: 0 };
    if (changed.records.length > 0 && this.deps.probe) {
      const probe = await this.deps.probe(changed.records);
      const { ids, reached } = await affectedMonitors(
        db,
        changed,
        probe,
        this.deps.matching,
        () => this.job.stopping,
      ).finally(() => this.deps.releaseProbe?.(probe));
      delta.reached = reached;
      delta.monitors = ids.length;
      for (let i = 0; i < ids.length && !this.job.stopping; i += this.deps.monitoring.batchSize) {
        if (!(await this.listsCurrent(snapshot))) break;
        const batch = await this.processBatch(snapshot, '', cache, ids.slice(i, i + this.deps.monitoring.batchSize));
        if (batch.leaseLost) break;
        this.tally(report, batch);
        delta.alerts += batch.alerts;
        await yieldToEventLoop();
      }
    }
    delta.tookMs = Math.round(performance.now() - started);
    this.deps.log?.('info', 'delta rescreen', { ...delta });
    return delta;
  }

  private async screenAll(
    db: Db,
    snapshot: ListSnapshot<Screener>,
    rows: DueMonitor[],
    cache: Map<string, MonitorScreening>,
  ) {
    const results: RescreenedMonitor[] = new Array<RescreenedMonitor>(rows.length);
    const now = this.deps.clock.now();
    const customerOf = (monitor: DueMonitor) => customerKeyOf(monitor.external_id, monitor.search_key);
    // The decisions of the batch's customers, in one read.
    const decisions = await decisionsByCustomer(db, rows.map(customerOf));
    const step = { snapshot, matching: this.deps.matching, profileOf: this.deps.profileOf, now, cache };
    let sliceStart = performance.now();
    let next = 0;
    // A few monitors in flight at once, so the matching thread has the next one queued while it
    // answers one (the pool admits two background jobs per thread); results keep the batch's order.
    const lane = async () => {
      for (let i = next++; i < rows.length; i = next++) {
        const monitor = rows[i]!;
        const own = decisions.get(customerGroupKey(monitor.org_id, customerOf(monitor))) ?? [];
        results[i] = await screenMonitor(db, monitor, Object.assign({}, step, { decisions: own }));
        if (performance.now() - sliceStart >= SLICE_MS) {
          await yieldToEventLoop();
          sliceStart = performance.now();
        }
      }
    };
    const inFlight = IN_FLIGHT_PER_THREAD * Math.max(1, this.deps.matching.threads);
    await Promise.all(Array.from({ length: Math.min(inFlight, rows.length) }, lane));
    return results;
  }

  /** A batch claimed, screened and written before the next begins (a delta pass). */
  private processBatch(...args: Parameters<Rescreener['startBatch']>): Promise<BatchOutcome> {
    return this.startBatch(...args).done;
  }

  /**
   * Claims the batch after `cursor`, screens it and writes it. `head` is known once it is screened on
   * PostgreSQL, while its write goes on (`done`), so that the pass claims and screens the next batch
   * meanwhile: the matching threads do not wait for the database. On SQLite `head` waits for the write.
   */
  private startBatch(
    snapshot: ListSnapshot<Screener>,
    cursor: string,
    cache: Map<string, MonitorScreening>,
    scope: BatchScope,
  ): { head: Promise<BatchHead>; done: Promise<BatchOutcome> } {
    if (this.deps.database.engine !== 'postgres') {
      const done = this.sqliteBatch(snapshot, cursor, cache, scope);
      return { head: done, done };
    }
    let screened!: (head: BatchHead) => void;
    const head = new Promise<BatchHead>((resolve) => (screened = resolve));
    const done = this.postgresBatch(snapshot, cursor, cache, scope, screened);
    // Awaited later, or never when the claim failed (head rejects with the same error then).
    done.catch(() => undefined);
    return { head: Promise.race([head, done]), done };
  }

  /** What a batch reads and writes: the filter of its claim, its generation, how it finds the next cursor. */
  private batchPlan(snapshot: ListSnapshot<Screener>, cursor: string, scope: BatchScope) {
    const now = this.deps.clock.now();
    const limit = this.deps.monitoring.batchSize;
    const window = limit * WINDOW_BATCHES;
    const ids = Array.isArray(scope) ? scope : undefined;
    // A sweep looks window after window; a second sweep, for the few rows a dead node left, asks
    // for due rows with no bound (one read, where windows would read every monitor again).
    const bounded = scope === 'window';
    const filter = {
      fingerprint: snapshot.fingerprint,
      cursor,
      cutoff: new Date(now.getTime() - this.deps.monitoring.maxIntervalMs).toISOString(),
      limit,
      ...(ids ? { ids } : bounded ? { window } : {}),
    };
    const generation: Generation = {
      fingerprint: snapshot.fingerprint,
      versions: JSON.stringify(snapshot.versions),
      at: now.toISOString(),
    };
    // Past the batch's last row: the rest of the window when the batch did not fill (nothing due
    // there, or held by another node), or the end of the monitors.
    const next = async (store: MonitorStore, rows: DueMonitor[]): Promise<Pick<BatchOutcome, 'lastId' | 'end'>> => {
      if (rows.length === limit || !bounded)
        return { lastId: rows.at(-1)?.id ?? cursor, ...(rows.length ? {} : { end: true }) };
      const end = await store.windowEnd(cursor, window);
      if (end !== undefined) return { lastId: end };
      return rows.length > 0 ? { lastId: rows.at(-1)!.id } : { lastId: cursor, end: true };
    };
    return { now, filter, generation, next };
  }

  /**
   * Claim, screen and write inside one transaction: the row locks are the claim. A node silent for
   * RESCREEN_CLAIM_TIMEOUT while it holds them (hung, or its network gone) has its session ended by
   * the database, its transaction rolled back and the rows free for another node.
   */
  private postgresBatch(
    snapshot: ListSnapshot<Screener>,
    cursor: string,
    cache: Map<string, MonitorScreening>,
    scope: BatchScope,
    screened: (head: BatchHead) => void,
  ): Promise<BatchOutcome> {
    const { now, filter, generation, next } = this.batchPlan(snapshot, cursor, scope);
    const claimMs = Math.round(this.deps.monitoring.claimTimeoutMs);
    return this.deps.database.db.transaction().execute(async (trx) => {
      await sql`set local idle_in_transaction_session_timeout = ${sql.raw(String(claimMs))}`.execute(trx);
      const store = new MonitorStore(trx);
      const rows = await store.due(Object.assign({}, filter, { lock: true }));
      const head: BatchHead = { count: rows.length, ...(await next(store, rows)) };
      if (rows.length === 0) {
        screened(head);
        return noneWritten(head);
      }
      const results = await this.screenAll(trx, snapshot, rows, cache);
      screened(head);
      return Object.assign({}, head, await writeBatch(this.deps.database.db, trx, results, generation, now));
    });
  }

  /**
   * SQLite has one writer and the service one process: screen outside the transaction so the
   * connection is free for API requests meanwhile, then write the batch at once.
   */
  private async sqliteBatch(
    snapshot: ListSnapshot<Screener>,
    cursor: string,
    cache: Map<string, MonitorScreening>,
    scope: BatchScope,
  ): Promise<BatchOutcome> {
    const { db } = this.deps.database;
    const { now, filter, generation, next } = this.batchPlan(snapshot, cursor, scope);
    const store = new MonitorStore(db);
    const rows = await store.due(Object.assign({}, filter, { lock: false }));
    const at = await next(store, rows);
    const head: BatchHead = { count: rows.length, ...at };
    if (rows.length === 0) return noneWritten(head);
    const results = await this.screenAll(db, snapshot, rows, cache);
    const written = await db.transaction().execute(async (trx) => {
      // A node that hung past its lease while screening finds another took the pass over: it writes
      // nothing, so no alert is raised twice. Holding the lease still, it renews it.
      const { clock, nodeId, monitoring } = this.deps;
      if (!(await tryAcquireLease(trx, clock, LEASE_NAME, nodeId, monitoring.claimTimeoutMs))) return undefined;
      return writeBatch(this.deps.database.db, trx, results, generation, now);
    });
    if (!written) return Object.assign(noneWritten(head), { count: 0, leaseLost: true });
    return Object.assign(head, written);
  }
}
