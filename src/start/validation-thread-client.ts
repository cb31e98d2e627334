import type { MessagePort } from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import type { DatabaseConfig } from '../infra/config.js';
import type { ShelfMemory } from '../infra/json-shelf.js';
import type { Progress, RunElsewhere, RunRequest, RunResult } from '../validation/index.js';
import type { MatchingPool } from './matching-pool.js';

/** What a validation thread is started with. */
export interface ValidationThreadData {
  database: DatabaseConfig;
}

export interface ValidationThreadRequest {
  type: 'run';
  request: RunRequest;
  /** The matching threads' generation of the lists in force, and a port to each (MatchingPool.lend). */
  generation: number;
  ports: MessagePort[];
  /** InFlight.shared's buffer: the run waits while interactive requests are under way. */
  interactive: SharedArrayBuffer;
  /** The records of the request's versions, one shelf a version, in their order: shared, not copied. */
  shelves: readonly ShelfMemory[];
}

export type ValidationThreadReply =
  { type: 'progress'; progress: Progress } | { type: 'done'; result: RunResult } | { type: 'failed'; error: string };

/** A thread with no run for this long is stopped, and the records it kept are freed. */
const IDLE_MS = 60_000;

/**
 * Runs validation runs in a thread of their own (start/validation-thread.ts), one at a time, through
 * the matching threads of a pool. The thread is started for a run and stopped after a minute without
 * one; a thread that dies fails the run under way, and the next run starts another.
 */
export class ValidationThread {
  private worker: Worker | undefined;
  private idle: NodeJS.Timeout | undefined;
  private current:
    { resolve: (r: RunResult) => void; reject: (e: Error) => void; onProgress: (p: Progress) => void } | undefined;

  constructor(
    private readonly database: DatabaseConfig,
    private readonly pool: MatchingPool,
  ) {}

  /** ValidationRunnerDeps.elsewhere: undefined when the lists are not the pool's, or no interactive count is shared. */
  readonly run: RunElsewhere = (request, screener, how) => {
    if (!how.interactive || this.current) return undefined;
    const lent = this.pool.lend(screener);
    if (!lent) return undefined;
    clearTimeout(this.idle);
    const worker = this.started();
    const done = new Promise<RunResult>((resolve, reject) => {
      this.current = { resolve, reject, onProgress: how.onProgress };
    });
    const message: ValidationThreadRequest = {
      type: 'run',
      request,
      generation: lent.generation,
      ports: lent.ports,
      interactive: how.interactive.buffer as SharedArrayBuffer,
      shelves: how.shelves,
    };
    worker.postMessage(message, lent.ports);
    return done.finally(() => {
      lent.release();
      this.current = undefined;
      this.idle = setTimeout(() => void this.close(), IDLE_MS).unref();
    });
  };

  async close(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const workerData: ValidationThreadData = { database: this.database };
    const worker = new Worker(new URL('./validation-thread.js', import.meta.url), { workerData });
    // Never keeps a process alive on its own; a server is kept alive by its sockets.
    worker.unref();
    worker.on('message', (message: ValidationThreadReply) => {
      if (message.type === 'progress') this.current?.onProgress(message.progress);
      else if (message.type === 'done') this.current?.resolve(message.result);
      else this.current?.reject(new Error(message.error));
    });
    worker.on('error', (error) => this.current?.reject(error));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      this.current?.reject(new Error(`the validation thread stopped (exit code ${code})`));
    });
    this.worker = worker;
    return worker;
  }
}
