import { createHash } from 'node:crypto';
import type { Clock } from '../infra/clock.js';
import type { Log } from '../infra/context.js';
import type { DatabaseHandle } from '../infra/database.js';
import type { InFlight } from '../infra/in-flight.js';
import type { ShelfMemory } from '../infra/json-shelf.js';
import { PollingJob } from '../infra/polling-job.js';
import type { ListSnapshot } from '../lists/index.js';
import type { Screener } from '../screening/index.js';
import { TenantsStore } from '../tenants/index.js';
import { enqueueDelivery, serializeValidationEvent } from '../webhooks/index.js';
import { screenerEngine } from './engine.js';
import type { Progress, RunSizes } from './figures.js';
import { DEFAULT_SEED } from './run-validation.js';
import { resolveRunProfile } from './run-profile.js';
import {
  type RunOptions,
  type RunRequest,
  type RunResult,
  paceWhile,
  produceRun,
  runOptions,
} from './validation-job.js';
import { type ValidationRunHead, ValidationStore, queuedRun } from './validation-store.js';

/** Runs a request's work in another thread, telling its progress; undefined when it cannot. */
export type RunElsewhere = (
  request: RunRequest,
  screener: Screener,
  how: {
    onProgress: (progress: Progress) => void;
    /** InFlight.shared: interactive requests under way, which the run waits for. */
    interactive: Int32Array | undefined;
    /** The records of the request's versions, on the node's shelves (ListSnapshot.shelves). */
    shelves: readonly ShelfMemory[];
  },
) => Promise<RunResult> | undefined;

export interface ValidationRunnerDeps {
  database: DatabaseHandle;
  clock: Clock;
  nodeId: string;
  /** The lists in force and the engine over them. */
  lists: () => ListSnapshot<Screener> | undefined;
  signingKey: string | undefined;
  floor: number;
  /** Interactive requests under way: the run slows down while any is. */
  interactive?: InFlight;
  /** Listed names of the fixed sample an activation run self-screens besides the new and changed entries; 0: no activation runs. */
  activationSample?: number;
  /**
   * Does a run's work in another thread (start/validation-thread.ts) and resolves with its result;
   * undefined when it cannot for these lists (no matching threads): the run is then done on this thread.
   */
  elsewhere?: RunElsewhere;
  /** Called when webhook deliveries were written (validation.missed). */
  onDeliveries?: () => void;
  leaseMs?: number;
  pollIntervalMs?: number;
  log?: Log;
}

/** Queries in flight at once while no interactive request is under way (one while any is). */
const CONCURRENCY = 8;
/** Progress is written at most this often, which also extends the claim. */
const PROGRESS_EVERY_MS = 1000;

/**
 * Runs queued validation runs in the background, one at a time per node, through the same matching
 * engine the API screens with: the run's queries go to the matching threads as background work (held
 * back to travel together), and while an interactive request is under way the run waits between
 * groups of queries, so the API keeps its latency. A run is claimed for a while and its claim
 * extended with each progress write; a run whose node died is taken over and run again from the start.
 */
export class ValidationRunner {
  readonly job: PollingJob<number>;
  private readonly leaseMs: number;

  constructor(private readonly deps: ValidationRunnerDeps) {
    this.leaseMs = deps.leaseMs ?? 60_000;
    this.job = new PollingJob<number>({
      name: 'validation runs',
      intervalMs: deps.pollIntervalMs ?? 5000,
      round: () => this.round(),
      combine: (a, b) => (a ?? 0) + (b ?? 0),
      ...(deps.log ? { log: deps.log } : {}),
    });
  }

  /**
   * Records a quick run for a list activation (the lists in force changed from `previous` to `next`):
   * the new and changed entries self-screened, plus a fixed sample. Every node sees the activation;
   * the run's id comes from the versions, so it is recorded once.
   */
  async activated(next: ListSnapshot<Screener>, previous: ListSnapshot<Screener> | undefined): Promise<void> {
    const sample = this.deps.activationSample ?? 0;
    if (!previous || sample <= 0 || !this.deps.signingKey) return;
    const pairs = (s: ListSnapshot<Screener>) => s.versions.map((v) => ({ source: v.source, version: v.version }));
    const sizes: Partial<RunSizes> = {
      selfScreen: sample,
      perturbationsPerKind: 0,
      negatives: 0,
      listedIdentifiers: 0,
      randomIdentifiersPerType: 0,
      latencySamples: 50,
    };
    const options = runOptions({
      quick: true,
      seed: DEFAULT_SEED,
      sizes,
      activation: { previous: pairs(previous), current: pairs(next) },
    });
    const now = this.deps.clock.now();
    const id = `val_act_${createHash('sha256').update(next.fingerprint).digest('hex').slice(0, 24)}`;
    const inserted = await new ValidationStore(this.deps.database.db).insertOnce(
      queuedRun({
        id,
        org_id: null,
        kind: 'activation',
        options: JSON.stringify(options),
        created_by: null,
        created_at: now.toISOString(),
      }),
    );
    if (inserted) this.job.kick();
  }

  private until(): string {
    return new Date(this.deps.clock.now().getTime() + this.leaseMs).toISOString();
  }

  private async round(): Promise<{ more: boolean; report: number }> {
    const snapshot = this.deps.lists();
    if (!snapshot) return { more: false, report: 0 };
    const { db } = this.deps.database;
    const store = new ValidationStore(db);
    const run = await store.claim(this.deps.nodeId, this.deps.clock.now().toISOString(), this.until());
    if (!run) return { more: false, report: 0 };
    await this.execute(run, snapshot, store);
    return { more: true, report: 1 };
  }

  /** Progress writes, at most every PROGRESS_EVERY_MS (and at the end), each extending the claim. */
  private progressWriter(run: ValidationRunHead, store: ValidationStore) {
    let last = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const onProgress = (progress: Progress) => {
      const at = performance.now();
      if (at - last < PROGRESS_EVERY_MS && progress.done !== progress.total) return;
      last = at;
      writing = writing.then(() =>
        store.progress(run.id, this.deps.nodeId, {
          phase: progress.phase,
          done: progress.done,
          total: progress.total,
          claimed_until: this.until(),
        }),
      );
    };
    return { onProgress, written: () => writing };
  }

  /** The run's request: its options, organization and profile resolved, the lists in force named. */
  private async request(run: ValidationRunHead, snapshot: ListSnapshot<Screener>): Promise<RunRequest> {
    if (!this.deps.signingKey) throw new Error('VALIDATION_SIGNING_KEY is not set');
    const { db } = this.deps.database;
    const org = run.org_id ? await new TenantsStore(db).orgById(run.org_id) : undefined;
    const options = JSON.parse(run.options) as RunOptions;
    const profile = await resolveRunProfile(db, {
      orgId: run.org_id,
      profileId: options.profile,
      floor: this.deps.floor,
      field: 'profile',
    });
    return {
      runId: run.id,
      organization: org ? { slug: org.slug, name: org.name } : null,
      versions: snapshot.versions,
      fingerprint: snapshot.fingerprint,
      options,
      profile,
      floor: this.deps.floor,
      signingKey: this.deps.signingKey,
      clockOffsetMs: this.deps.clock.now().getTime() - Date.now(),
      concurrency: CONCURRENCY,
    };
  }

  /**
   * The run's work: in a thread of its own when the node has one (its allocations and collections
   * then never hold an analyst's request), else on this thread, giving way to interactive requests.
   */
  private async produce(run: ValidationRunHead, snapshot: ListSnapshot<Screener>, store: ValidationStore) {
    const request = await this.request(run, snapshot);
    const progress = this.progressWriter(run, store);
    const interactive = this.deps.interactive;
    const elsewhere = this.deps.elsewhere?.(request, snapshot.index, {
      onProgress: progress.onProgress,
      interactive: interactive?.shared,
      shelves: snapshot.shelves,
    });
    const result = await (elsewhere ??
      produceRun(request, {
        db: this.deps.database.db,
        // From the node's shelves, a page at a time (no database read; reading 130,000 records held
        // the HTTP thread for a second).
        records: await snapshot.records(),
        engine: screenerEngine(snapshot.index),
        latencyEngine: screenerEngine(snapshot.index, {}),
        pace: paceWhile(() => interactive?.busy === true),
        onProgress: progress.onProgress,
      }));
    await progress.written();
    return result;
  }

  /** The run's row and its alerts, written together: a completed activation run with misses always has them. */
  private async complete(run: ValidationRunHead, result: RunResult) {
    const { activation } = result;
    const missed = result.focusMissed;
    const at = this.deps.clock.now().toISOString();
    let delivered = false;
    await this.deps.database.db.transaction().execute(async (trx) => {
      const ok = await new ValidationStore(trx).finish(run.id, this.deps.nodeId, {
        status: 'completed',
        finished_at: at,
        error: null,
        passed: result.passed ? 1 : 0,
        summary: JSON.stringify(result.summary),
        report_json: result.json,
        report_html: result.html,
      });
      if (!ok || run.kind !== 'activation' || missed.length === 0) return;
      for (const org of await new TenantsStore(trx).listOrgs()) {
        if (!org.webhook_url) continue;
        const payload = serializeValidationEvent(at, org, {
          runId: run.id,
          versions: activation?.current ?? [],
          newOrChanged: result.focusNames,
          missed,
        });
        await enqueueDelivery(trx, {
          orgId: org.id,
          alertId: null,
          event: 'validation.missed',
          payload,
          isTest: false,
          now: this.deps.clock.now(),
        });
        delivered = true;
      }
    });
    if (delivered) this.deps.onDeliveries?.();
  }

  private async execute(
    run: ValidationRunHead,
    snapshot: ListSnapshot<Screener>,
    store: ValidationStore,
  ): Promise<void> {
    try {
      await this.complete(run, await this.produce(run, snapshot, store));
    } catch (error) {
      this.deps.log?.('error', 'validation run failed', { id: run.id, err: String(error) });
      await store.finish(run.id, this.deps.nodeId, {
        status: 'failed',
        finished_at: this.deps.clock.now().toISOString(),
        error: error instanceof Error ? error.message : String(error),
        passed: null,
        summary: null,
        report_json: null,
        report_html: null,
      });
    }
  }
}
