/**
 * A matching thread: holds the matching indexes of the list generations the main thread has loaded
 * and answers screenings against them, so that the HTTP thread never spends its time on matching.
 * Messages are answered in the order they arrive; a build yields between steps, so the generation in
 * service keeps answering while the next one is built.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type ShelfMemory, shelfItems } from '../infra/json-shelf.js';
import type { ListRecord } from '../lists/index.js';
import { briefOutcome, MatchingIndex, summarizeOutcome, type SourceLabel } from '../matching/index.js';
import type { MatchingAnswer, MatchingJob, MatchingThreadData, WorkerReply, WorkerRequest } from './matching-pool.js';
import { indexMatches } from './match-index.js';

const port = parentPort;
if (!port) throw new Error('matching-worker must run as a worker thread');

const { sourceLabels, interactive: interactiveBuffer } = workerData as MatchingThreadData;
const interactive = new Int32Array(interactiveBuffer);
const sourceLabel: SourceLabel = (source) => sourceLabels[source];

const indexes = new Map<number, MatchingIndex>();
const reply = (message: WorkerReply) => port.postMessage(message);

/**
 * Answers go out once this much time has gone into a batch, so that the first ones do not wait for
 * the whole batch. (Background jobs come one a message: matching-pool.ts.)
 */
const REPLY_EVERY_MS = 1;

/**
 * The records on shelves the HTTP thread filled, without the publisher's remarks (free text that no
 * matching rule reads; the lists took 87 MiB of a thread's heap with them, 75 MiB without) and source
 * address.
 */
function shelvedRecords(shelves: readonly ShelfMemory[]): ListRecord[] {
  const records: ListRecord[] = [];
  for (const memory of shelves) {
    for (const { remarks: _remarks, sourceUrl: _sourceUrl, ...record } of shelfItems<ListRecord>(memory))
      records.push(record);
  }
  return records;
}

function screenOne(job: MatchingJob): MatchingAnswer {
  const index = indexes.get(job.generation);
  if (!index) return { id: job.id, error: `list generation ${job.generation} is not loaded in this thread` };
  try {
    const started = performance.now();
    if (job.brief)
      return { id: job.id, brief: briefOutcome(index.screen(job.query, job.options)), ms: performance.now() - started };
    if (job.variants) {
      const [outcome, ...variants] = index
        .screenVariants(job.query, [job.options, ...job.variants])
        .map((o) => summarizeOutcome(o, sourceLabel));
      return { id: job.id, outcome: outcome!, variants, ms: performance.now() - started };
    }
    const screened = index.screen(job.query, job.options);
    const outcome = summarizeOutcome(screened, sourceLabel);
    return { id: job.id, outcome, index: indexMatches(screened), ms: performance.now() - started };
  } catch (error) {
    return { id: job.id, error: error instanceof Error ? error.message : String(error) };
  }
}

type Reply = (message: WorkerReply) => void;

/**
 * Background jobs set aside while an interactive screening was on its way, answered in the order they
 * came once none is. The pool counts an interactive message just before it posts it, so a count
 * above zero means the message is in this thread's queue (or about to be): the port delivers its
 * queued messages before the next check phase runs these.
 */
const setAside: { jobs: MatchingJob[]; to: Reply }[] = [];

function answerSetAside(): void {
  if (Atomics.load(interactive, 0) > 0) {
    setImmediate(answerSetAside);
    return;
  }
  const held = setAside.shift();
  if (held) answer(held.jobs, held.to);
  if (setAside.length > 0) setImmediate(answerSetAside);
}

function answer(jobs: MatchingJob[], to: Reply): void {
  let results: MatchingAnswer[] = [];
  let since = performance.now();
  // Each answer says how long the thread worked on it, replying included (the pool's busy time).
  const send = () => {
    const sent = performance.now();
    to({ type: 'screened', results, busyMs: sent - since });
    since = sent;
  };
  for (const job of jobs) {
    results.push(screenOne(job));
    if (performance.now() - since >= REPLY_EVERY_MS) {
      send();
      results = [];
    }
  }
  if (results.length > 0) send();
}

/**
 * Screenings from the pool, or from a channel of their own (`to` its port). Only the pool's
 * interactive messages are counted (MatchingThreadData.interactive); a channel's are never set aside.
 */
function screenRequest(message: Extract<WorkerRequest, { type: 'screen' }>, to: Reply, counted: boolean): void {
  if (!message.background) {
    if (counted) Atomics.sub(interactive, 0, 1);
    answer(message.jobs, to);
  } else if (setAside.length > 0 || Atomics.load(interactive, 0) > 0) {
    if (setAside.push({ jobs: message.jobs, to }) === 1) setImmediate(answerSetAside);
  } else {
    answer(message.jobs, to);
  }
}

port.on('message', (message: WorkerRequest) => {
  switch (message.type) {
    case 'screen':
      screenRequest(message, reply, true);
      return;
    case 'channel': {
      // Another thread's work (a validation run: start/validation-thread.ts), sent and answered on a
      // port of its own, so it never passes through the HTTP thread.
      const channel = message.port;
      const to: Reply = (answerMessage) => channel.postMessage(answerMessage);
      channel.on('message', (request: WorkerRequest) => {
        if (request.type === 'screen') screenRequest(request, to, false);
      });
      channel.on('close', () => channel.removeAllListeners());
      return;
    }
    case 'load':
      MatchingIndex.buildAsync(shelvedRecords(message.shelves)).then(
        (index) => {
          indexes.set(message.generation, index);
          reply({ type: 'loaded', generation: message.generation });
        },
        (error: unknown) =>
          reply({
            type: 'loaded',
            generation: message.generation,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
      return;
    case 'drop':
      indexes.delete(message.generation);
      return;
  }
});
