import type { Db } from './database.js';

type Trx = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];

interface Pending<J> {
  job: J;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: writes submitted while a transaction is committing are gathered and committed
 * together in the next one. Every caller's promise settles only after its own write is durable, so
 * nothing is acknowledged before it is stored, but one disk sync serves many requests under load.
 * A job that throws is rolled out of the batch without writing (jobs must check before they write);
 * a failed commit fails every job of the batch.
 */
export class BatchWriter<J> {
  private queue: Pending<J>[] = [];
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly apply: (trx: Trx, job: J) => Promise<void>,
    private readonly maxBatch = 64,
  ) {}

  submit(job: J): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      const outcomes: (unknown | undefined)[] = [];
      try {
        await this.db.transaction().execute(async (trx) => {
          for (const item of batch) {
            try {
              await this.apply(trx, item.job);
              outcomes.push(undefined);
            } catch (error) {
              outcomes.push(error ?? new Error('write failed'));
            }
          }
        });
        batch.forEach((item, i) => {
          const error = outcomes[i];
          if (error === undefined) item.resolve();
          else item.reject(error);
        });
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    this.running = false;
  }
}
