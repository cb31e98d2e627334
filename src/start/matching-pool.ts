import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { JsonShelf, type ShelfMemory } from '../infra/json-shelf.js';
import { SOURCE_LABELS, type ListRecord, type RecordShelf, type SourceId } from '../lists/index.js';
import {
  briefOutcome,
  MatchingIndex,
  type MatchOptions,
  type MatchQuery,
  type ScreenBrief,
  type ScreenSummary,
  type SourceLabel,
  summarizeOutcome,
} from '../matching/index.js';
import type { MatchIndex, Screener, ScreenHints } from '../screening/index.js';
import { indexMatches } from './match-index.js';

export interface MatchingJob {
  id: number;
  generation: number;
  query: MatchQuery;
  options: MatchOptions;
  /** More option sets for the same query (Screener.screenVariants), answered in `variants`. */
  variants?: MatchOptions[];
  /** Answer in brief only (Screener.screenBrief), in `brief`. */
  brief?: true;
}

export interface MatchingAnswer {
  id: number;
  outcome?: ScreenSummary;
  /** The outcomes of the job's `variants`, in order. */
  variants?: ScreenSummary[];
  /** The answer of a `brief` job. */
  brief?: ScreenBrief;
  /** The index of the outcome's matches (ScreenHints.indexed). */
  index?: MatchIndex;
  error?: string;
  /** How long the matching took in the thread, in ms. */
  ms?: number;
}

/**
 * Screenings travel in batches: every screening the HTTP thread starts in one turn of its event loop
 * goes in one message, and the matching thread answers in as few messages as keep the first answers
 * from waiting long.
 */
export type WorkerRequest =
  | { type: 'screen'; jobs: MatchingJob[]; background?: true }
  /** The generation's records, on shelves whose memory every thread shares (infra/json-shelf.ts). */
  | { type: 'load'; generation: number; shelves: ShelfMemory[] }
  | { type: 'drop'; generation: number }
  /** A port on which another thread sends screenings and gets their answers (MatchingPool.lend). */
  | { type: 'channel'; port: MessagePort };

export type WorkerReply =
  | { type: 'screened'; results: MatchingAnswer[]; busyMs: number }
  | { type: 'loaded'; generation: number; error?: string };

/** What a matching thread is started with. */
export interface MatchingThreadData {
  sourceLabels: Record<SourceId, string>;
  /**
   * One Int32: messages of interactive screenings posted to the thread and not yet received by it. The
   * pool adds one before it posts such a message, the thread takes one away when it receives it; while
   * it is above zero the thread sets background jobs aside, so the analyst's screening, already in its
   * queue, is answered before them.
   */
  interactive: SharedArrayBuffer;
}

/** The lists' display labels (`datasetLabel`), added to the engine's matches, which name sources by id only. */
export const sourceLabel: SourceLabel = (source) => SOURCE_LABELS[source];

/** A screener over an index built in this thread (the command line, and MATCH_THREADS=0). */
export function inlineScreener(records: ListRecord[]): Promise<Screener> {
  return MatchingIndex.buildAsync(records).then((index) => ({
    screen: (query: MatchQuery, options?: MatchOptions, hints?: ScreenHints) => {
      const screened = index.screen(query, options);
      hints?.indexed?.(indexMatches(screened));
      return Promise.resolve(summarizeOutcome(screened, sourceLabel));
    },
    screenVariants: (query: MatchQuery, variants: readonly MatchOptions[]) =>
      Promise.resolve(index.screenVariants(query, variants).map((o) => summarizeOutcome(o, sourceLabel))),
    screenBrief: (query: MatchQuery, options?: MatchOptions) =>
      Promise.resolve(briefOutcome(index.screen(query, options))),
  }));
}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
  /** Told the thread's matching time (ScreenHints.matched). */
  matched?: ((ms: number) => void) | undefined;
  /** Told the index of the answer's matches (ScreenHints.indexed). */
  indexed?: ((index: MatchIndex) => void) | undefined;
  /** A background job (see Thread.background). */
  background?: boolean | undefined;
}

interface Build extends Waiter<void> {
  done: Promise<void>;
}

interface Thread {
  worker: Worker;
  /** MatchingThreadData.interactive, as the pool counts it. */
  interactive: Int32Array;
  /** Generations this thread has built. */
  ready: Set<number>;
  /** Builds under way in this thread. */
  loading: Map<number, Build>;
  pending: Map<number, Waiter<MatchingAnswer>>;
  /** Screenings started in this turn of the event loop, sent together when it ends. */
  outbox: MatchingJob[];
  /** Background jobs (batch rows, rescreens, backtests) and how many of them the thread holds. */
  background: BackgroundGate;
}

/**
 * Background jobs in a thread's message queue at once, each in a message of its own, however many a
 * batch or a validation run has started (a validation run keeps 16 going); two keep the thread from
 * waiting for the next one while the HTTP thread reads an answer. A thread that receives one while an
 * interactive screening is on its way sets it aside (MatchingThreadData.interactive), so the analyst
 * waits for at most the background job the thread is working on.
 */
const BACKGROUND_IN_THREAD = 2;

/**
 * Background jobs for one thread, handed to it one a message while fewer than BACKGROUND_IN_THREAD of
 * them are in its queue, the rest held here: the pool's own jobs, and a lent channel's
 * (channel-screener.ts).
 */
export class BackgroundGate {
  private held: MatchingJob[] = [];
  private inThread = 0;

  constructor(private readonly post: (job: MatchingJob) => void) {}

  add(job: MatchingJob): void {
    this.held.push(job);
    this.admit();
  }

  /** One of the thread's background jobs was answered. */
  answered(): void {
    this.inThread--;
    this.admit();
  }

  /** The thread is gone: nothing is held for it any longer. */
  clear(): void {
    this.held = [];
    this.inThread = 0;
  }

  private admit(): void {
    while (this.inThread < BACKGROUND_IN_THREAD && this.held.length > 0) {
      this.inThread++;
      this.post(this.held.shift()!);
    }
  }
}

interface Generation {
  /** Kept to build the generation again in a thread that replaces one that died. */
  shelves: readonly RecordShelf[];
  inFlight: number;
  retired: boolean;
}

/** A screener bound to one list generation of a pool. */
export interface PooledScreener extends Screener {
  readonly generation: number;
}

/**
 * Matching in worker threads. The HTTP thread parses, authenticates, stores and answers; the
 * matching threads hold the indexes and score. Each list generation (one snapshot of the lists) is
 * built in every thread before the runtime swaps to it, and dropped once it is retired and no
 * screening against it is still running, so a screening always runs against the lists its record
 * names. A thread that dies is replaced and rebuilt; screenings it held fail (and are not stored).
 */
export class MatchingPool {
  private readonly threads: Thread[] = [];
  private readonly generations = new Map<number, Generation>();
  private nextGeneration = 1;
  private nextRequest = 1;
  private closed = false;
  private busyMs = 0;

  constructor(
    size: number,
    private readonly options: {
      retireAfterMs?: number;
      log?: (message: string, detail?: Record<string, unknown>) => void;
    } = {},
  ) {
    if (size < 1) throw new Error('a matching pool needs at least one thread');
    for (let i = 0; i < size; i++) this.threads.push(this.spawn());
  }

  get size(): number {
    return this.threads.length;
  }

  /** Screenings handed to the threads and not answered yet (for /metrics). */
  get queueDepth(): number {
    let depth = 0;
    for (const thread of this.threads) depth += thread.pending.size + thread.outbox.length;
    return depth;
  }

  /**
   * Seconds the threads have spent screening since the pool started (for /metrics): against the
   * time passed, how busy matching keeps them, e.g. whether a batch is held back by the matching
   * thread or by what feeds it.
   */
  get busySeconds(): number {
    return this.busyMs / 1000;
  }

  /** Every thread is running (a thread that died is replaced; readiness waits for it). */
  get healthy(): boolean {
    return !this.closed && this.threads.every((t) => this.generations.size === 0 || t.ready.size > 0);
  }

  /**
   * Builds the records into a new generation in every thread, one thread after another (two builds at
   * once, each with its copy of the records in transit and its build-time structures, took two threads
   * over 1 GiB); resolves when all of them can screen it.
   */
  load(records: readonly ListRecord[]): Promise<PooledScreener> {
    return this.loadShelves([JsonShelf.of(records, (record) => record.id)]);
  }

  /** As `load`, for records on shelves: the threads read their memory, this thread parses none of them. */
  async loadShelves(shelves: readonly RecordShelf[]): Promise<PooledScreener> {
    if (this.closed) throw new Error('the matching pool is closed');
    const generation = this.nextGeneration++;
    this.generations.set(generation, { shelves, inFlight: 0, retired: false });
    try {
      for (const thread of this.threads) await this.loadInto(thread, generation, shelves);
    } catch (error) {
      this.drop(generation);
      throw error;
    }
    const failed = (answer: MatchingAnswer) => new Error(`matching failed: ${answer.error ?? 'no outcome'}`);
    const outcomes = (answer: MatchingAnswer) => {
      if (!answer.outcome) throw failed(answer);
      return [answer.outcome, ...(answer.variants ?? [])];
    };
    return {
      generation,
      screen: (query, options, hints) =>
        this.screen(generation, query, [options ?? {}], hints).then((answer) => outcomes(answer)[0]!),
      screenVariants: (query, variants, hints) => this.screen(generation, query, variants, hints).then(outcomes),
      screenBrief: (query, options, hints) =>
        this.screen(generation, query, [options ?? {}], hints, true).then((answer) => {
          if (!answer.brief) throw failed(answer);
          return answer.brief;
        }),
    };
  }

  /**
   * The generation is no longer current: free it once its screenings are done (after a grace period).
   * Resolves when it is retired (its last screening may still be running then).
   */
  retire(screener: Screener): Promise<void> {
    const generation = (screener as Partial<PooledScreener>).generation;
    if (generation === undefined) return Promise.resolve();
    const entry = this.generations.get(generation);
    if (!entry) return Promise.resolve();
    // Someone may hold the snapshot between taking it and screening (a rescreen pass between batches).
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        entry.retired = true;
        if (entry.inFlight === 0) this.drop(generation);
        resolve();
      }, this.options.retireAfterMs ?? 60_000);
      timer.unref();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.worker.terminate()));
    this.threads.length = 0;
  }

  /**
   * Lends the threads of `screener`'s generation to work on another thread (a validation run:
   * start/validation-thread.ts): a port to each thread that holds the generation, on which that
   * thread is sent screenings and answers them (the same messages as the pool's), so that neither
   * passes through this thread. The generation is kept until `release()`, as for a screening under
   * way. Undefined when the screener is not one of this pool's generations.
   */
  lend(screener: Screener): { generation: number; ports: MessagePort[]; release: () => void } | undefined {
    const generation = (screener as Partial<PooledScreener>).generation;
    const entry = generation === undefined ? undefined : this.generations.get(generation);
    if (generation === undefined || !entry) return undefined;
    const ports: MessagePort[] = [];
    for (const thread of this.threads) {
      if (!thread.ready.has(generation)) continue;
      const { port1, port2 } = new MessageChannel();
      thread.worker.postMessage({ type: 'channel', port: port1 } satisfies WorkerRequest, [port1]);
      ports.push(port2);
    }
    if (ports.length === 0) return undefined;
    return { generation, ports, release: this.hold(generation, entry) };
  }

  private screen(
    generation: number,
    query: MatchQuery,
    variants: readonly MatchOptions[],
    hints: ScreenHints | undefined,
    brief = false,
  ): Promise<MatchingAnswer> {
    const entry = this.generations.get(generation);
    if (!entry) return Promise.reject(new Error(`list generation ${generation} has been retired`));
    // The least busy thread that has the generation; a replacement thread still building it is waited for.
    let thread: Thread | undefined;
    for (const candidateThread of this.threads) {
      if (candidateThread.ready.has(generation) && (!thread || candidateThread.pending.size < thread.pending.size))
        thread = candidateThread;
    }
    const settle = this.hold(generation, entry);
    const run = (t: Thread) =>
      new Promise<MatchingAnswer>((resolve, reject) => {
        const id = this.nextRequest++;
        const background = hints?.background === true;
        t.pending.set(id, { resolve, reject, matched: hints?.matched, indexed: hints?.indexed, background });
        const [options, ...more] = variants;
        const job: MatchingJob = {
          id,
          generation,
          query,
          options: options ?? {},
          ...(more.length > 0 ? { variants: more } : {}),
          ...(brief ? { brief: true as const } : {}),
        };
        if (background) t.background.add(job);
        else if (t.outbox.push(job) === 1) setImmediate(() => this.flush(t));
      });
    let result: Promise<MatchingAnswer>;
    if (thread) {
      result = run(thread);
    } else {
      const building = this.threads.find((t) => t.loading.has(generation));
      result = building
        ? building.loading.get(generation)!.done.then(() => run(building))
        : Promise.reject(new Error('no matching thread is available'));
    }
    return result.finally(settle);
  }

  private flush(thread: Thread): void {
    if (thread.outbox.length === 0) return;
    const jobs = thread.outbox;
    thread.outbox = [];
    Atomics.add(thread.interactive, 0, 1);
    thread.worker.postMessage({ type: 'screen', jobs } satisfies WorkerRequest);
  }

  /**
   * Keeps a generation while a screening (or a lent channel) uses it; the function returned lets it
   * go, once, and drops a retired generation that nothing uses any longer.
   */
  private hold(generation: number, entry: Generation): () => void {
    entry.inFlight++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.inFlight--;
      if (entry.retired && entry.inFlight === 0) this.drop(generation);
    };
  }

  private loadInto(thread: Thread, generation: number, shelves: readonly RecordShelf[]): Promise<void> {
    let settle: Waiter<void> | undefined;
    const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    thread.loading.set(generation, { resolve: settle!.resolve, reject: settle!.reject, done });
    const memory = shelves.map((shelf) => shelf.memory);
    thread.worker.postMessage({ type: 'load', generation, shelves: memory } satisfies WorkerRequest);
    return done;
  }

  private drop(generation: number): void {
    if (!this.generations.delete(generation)) return;
    for (const thread of this.threads) {
      thread.ready.delete(generation);
      thread.worker.postMessage({ type: 'drop', generation } satisfies WorkerRequest);
    }
  }

  private spawn(): Thread {
    // The labels go with the thread, so that it loads the matching engine and not the lists domain.
    const interactive = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const workerData: MatchingThreadData = { sourceLabels: SOURCE_LABELS, interactive };
    const worker = new Worker(new URL('./matching-worker.js', import.meta.url), { workerData });
    // The pool never keeps a process alive on its own; servers are kept alive by their sockets.
    worker.unref();
    const thread: Thread = {
      worker,
      interactive: new Int32Array(interactive),
      ready: new Set(),
      loading: new Map(),
      pending: new Map(),
      outbox: [],
      background: new BackgroundGate((job) =>
        worker.postMessage({ type: 'screen', jobs: [job], background: true } satisfies WorkerRequest),
      ),
    };
    worker.on('message', (message: WorkerReply) => {
      if (message.type === 'screened') {
        this.busyMs += message.busyMs;
        for (const result of message.results) {
          const waiter = thread.pending.get(result.id);
          if (waiter?.background) thread.background.answered();
          thread.pending.delete(result.id);
          if (result.ms !== undefined) waiter?.matched?.(result.ms);
          if (result.index) waiter?.indexed?.(result.index);
          waiter?.resolve(result);
        }
        return;
      }
      const waiter = thread.loading.get(message.generation);
      thread.loading.delete(message.generation);
      if (message.error) {
        waiter?.reject(new Error(`building the matching index failed: ${message.error}`));
      } else if (this.generations.has(message.generation)) {
        thread.ready.add(message.generation);
        waiter?.resolve();
      } else {
        // Dropped while it was being built.
        worker.postMessage({ type: 'drop', generation: message.generation } satisfies WorkerRequest);
        waiter?.resolve();
      }
    });
    worker.on('error', (error) => this.options.log?.('matching thread failed', { err: String(error) }));
    worker.on('exit', (code) => {
      const failure = new Error(`the matching thread stopped (exit code ${code})`);
      for (const waiter of thread.pending.values()) waiter.reject(failure);
      for (const waiter of thread.loading.values()) waiter.reject(failure);
      thread.outbox = [];
      thread.background.clear();
      thread.pending.clear();
      thread.loading.clear();
      const at = this.threads.indexOf(thread);
      if (this.closed || at < 0) return;
      // Replace it and rebuild every live generation in the new thread.
      this.options.log?.('matching thread replaced', { exitCode: code });
      const replacement = this.spawn();
      this.threads[at] = replacement;
      for (const [generation, entry] of this.generations) {
        this.loadInto(replacement, generation, entry.shelves).catch((error: unknown) =>
          this.options.log?.('rebuilding a matching thread failed', { generation, err: String(error) }),
        );
      }
    });
    return thread;
  }
}
