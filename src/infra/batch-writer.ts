import type { Db } from './database.js';

type Trx = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];

interface Pending<J> {
  job: J;
  background: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: writes submitted while a transaction is committing are gathered and committed
 * together in the next one. Every caller's promise settles only after its own write is durable, so
 * nothing is acknowledged before it is stored, but one disk sync serves many requests under load.
 * Two batches may be under way at once: the next one commits while the previous one waits for its
 * disk sync (the database serializes the transactions themselves), so a slow sync does not hold
 * back the writes behind it.
 * A job that throws is rolled out of the batch without writing (jobs must check before they write);
 * a failed commit fails every job of the batch.
 * Jobs run in the order of `lockKey` (stable), so that concurrent batches, here or on other nodes,
 * take row locks in one order and cannot deadlock each other.
 * Background jobs (batch rows: throughput counts, not each one's wait) may linger: while only they
 * are queued, fewer than half a batch of them wait up to `lingerMs` for others, so that one commit
 * (its log pages, its sync, its audit head) serves many of them. A job submitted without the flag
 * starts a batch at once and takes the lingering ones with it.
 */
/** What a BatchWriter writes and how: `apply` is the only one required. */
export interface BatchWriterOptions<J> {
  /** Writes one job in the batch's transaction; a job that throws is rolled out of the batch. */
  apply: (trx: Trx, job: J) => Promise<void>;
  /** Orders the jobs of a batch (stable), so that concurrent batches take row locks in one order. */
  lockKey?: (job: J) => string;
  /** Most jobs in one transaction (default 64). */
  maxBatch?: number;
  /** Most batches under way at once (default 2). */
  maxInFlight?: number;
  /** Runs once per batch, in its transaction, after the jobs, with the jobs that wrote (e.g. their audit entries). */
  finish?: (trx: Trx, jobs: J[]) => Promise<void>;
  /** How long lone background jobs wait for others, in ms (default 8). */
  lingerMs?: number;
  /**
   * A batch whose every job `accepts` is written by `write` instead, with no transaction around it:
   * one statement, one round trip (PostgreSQL). `check` runs first for each job, and a job it throws
   * for is rolled out of the batch, as one whose `apply` throws.
   */
  direct?: DirectWrite<J>;
}

/** A batch written in one statement (BatchWriterOptions.direct). */
export interface DirectWrite<J> {
  accepts(job: J): boolean;
  check?(job: J): void;
  write(jobs: J[]): Promise<void>;
}

export class BatchWriter<J> {
  private queue: Pending<J>[] = [];
  private scheduled = false;
  private inFlight = 0;
  /** Queued jobs that are not background jobs. */
  private foreground = 0;
  private linger: NodeJS.Timeout | undefined;
  private lingered = false;
  private readonly apply: (trx: Trx, job: J) => Promise<void>;
  private readonly lockKey: ((job: J) => string) | undefined;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private readonly finish: ((trx: Trx, jobs: J[]) => Promise<void>) | undefined;
  private readonly lingerMs: number;
  private readonly direct: DirectWrite<J> | undefined;

  constructor(
    private readonly db: Db,
    options: BatchWriterOptions<J>,
  ) {
    this.apply = options.apply;
    this.lockKey = options.lockKey;
    this.maxBatch = options.maxBatch ?? 64;
    this.maxInFlight = options.maxInFlight ?? 2;
    this.finish = options.finish;
    this.lingerMs = options.lingerMs ?? 8;
    this.direct = options.direct;
  }

  submit(job: J, options: { background?: boolean } = {}): Promise<void> {
    const background = options.background === true;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ job, background, resolve, reject });
      if (!background) this.foreground++;
      this.schedule();
    });
  }

  /** Only background jobs are queued, too few for a batch, and they have not waited their time yet. */
  private lingering(): boolean {
    if (this.foreground > 0 || this.lingered || this.queue.length >= this.maxBatch / 2) return false;
    this.linger ??= setTimeout(() => {
      this.linger = undefined;
      this.lingered = true;
      this.schedule();
    }, this.lingerMs);
    return true;
  }

  /** Starts a batch on the next turn of the event loop, so that it gathers this turn's writes. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.maxInFlight || this.queue.length === 0 || this.lingering()) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
      const batch = this.queue.splice(0, this.maxBatch);
      for (const item of batch) if (!item.background) this.foreground--;
      this.lingered = false;
      clearTimeout(this.linger);
      this.linger = undefined;
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
      this.schedule();
    });
  }

  private async run(batch: Pending<J>[]): Promise<void> {
    const lockKey = this.lockKey;
    if (lockKey) {
      const keys = new Map(batch.map((item) => [item, lockKey(item.job)]));
      batch.sort((a, b) => (keys.get(a)! < keys.get(b)! ? -1 : keys.get(a)! > keys.get(b)! ? 1 : 0));
    }
    const outcomes: (unknown | undefined)[] = [];
    try {
      if (this.direct && batch.every((item) => this.direct!.accepts(item.job))) {
        await this.writeDirect(this.direct, batch, outcomes);
      } else {
        await this.writeInTransaction(batch, outcomes);
      }
      batch.forEach((item, position) => {
        const error = outcomes[position];
        if (error === undefined) item.resolve();
        else item.reject(error);
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }

  private async writeDirect(direct: DirectWrite<J>, batch: Pending<J>[], outcomes: unknown[]): Promise<void> {
    const written = await settleEach(batch, outcomes, (job) => direct.check?.(job));
    if (written.length > 0) await direct.write(written);
  }

  private async writeInTransaction(batch: Pending<J>[], outcomes: unknown[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const written = await settleEach(batch, outcomes, (job) => this.apply(trx, job));
      if (this.finish && written.length > 0) await this.finish(trx, written);
    });
  }
}

/**
 * Runs `step` for each job of the batch in order, noting in `outcomes` undefined or the error it
 * threw (that job is rolled out of the batch); the jobs it did not throw for.
 */
async function settleEach<J>(batch: Pending<J>[], outcomes: unknown[], step: (job: J) => unknown): Promise<J[]> {
  const written: J[] = [];
  for (const item of batch) {
    try {
      // Only a step that returns a promise is awaited: a check on the group commit's path costs no turn.
      const pending = step(item.job);
      if (pending instanceof Promise) await pending;
      outcomes.push(undefined);
      written.push(item.job);
    } catch (error) {
      outcomes.push(error ?? new Error('write failed'));
    }
  }
  return written;
}
