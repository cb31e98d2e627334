/**
 * A validation run's thread: it draws the run's queries, sends them to the matching threads on ports
 * they lent it (never through the HTTP thread), folds the answers and signs the report. Its
 * allocations (a quick run's perturbations, answers and report) and their collections stay here,
 * so they never hold an analyst's request. It parses the records of the lists in force from the
 * node's shelves (shared memory, no database read) and keeps them for the next run on the same
 * versions.
 */
import { constants } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { type DatabaseHandle, openDatabase } from '../infra/database.js';
import { lowerThreadPriority } from '../infra/thread-priority.js';
import { shelfItems } from '../infra/json-shelf.js';
import type { ListRecord } from '../lists/index.js';
import { paceWhile, produceRun } from '../validation/index.js';
import { channelScreener } from './channel-screener.js';
import type {
  ValidationThreadData,
  ValidationThreadReply,
  ValidationThreadRequest,
} from './validation-thread-client.js';

const port = parentPort;
if (!port) throw new Error('validation-thread must run as a worker thread');
const { database: databaseConfig } = workerData as ValidationThreadData;

// The lowest CPU priority: on a machine whose cores the HTTP and matching threads keep busy, the
// scheduler gives them the core first, and the run takes what is left. (Not Linux: the run keeps
// the process's priority and still paces itself.)
lowerThreadPriority(constants.priority.PRIORITY_LOW);

let database: DatabaseHandle | undefined;
let kept: { fingerprint: string; records: ListRecord[] } | undefined;
const reply = (message: ValidationThreadReply) => port.postMessage(message);

/** The records of the versions, in their order (as ListSnapshot.records() has them). */
function recordsOf(message: ValidationThreadRequest): ListRecord[] {
  if (kept?.fingerprint === message.request.fingerprint) return kept.records;
  kept = undefined;
  const records = message.shelves.flatMap((memory) => shelfItems<ListRecord>(memory));
  kept = { fingerprint: message.request.fingerprint, records };
  return records;
}

async function run(message: ValidationThreadRequest): Promise<void> {
  const screener = channelScreener(message.ports, message.generation);
  const interactive = new Int32Array(message.interactive);
  try {
    database ??= openDatabase(databaseConfig);
    const result = await produceRun(message.request, {
      db: database.db,
      records: recordsOf(message),
      engine: (query, options) => screener.screenBrief(query, options, true),
      latencyEngine: (query, options) => screener.screenBrief(query, options, false),
      // While interactive requests are under way (the HTTP thread's count) the run waits for them.
      pace: paceWhile(() => Atomics.load(interactive, 0) > 0),
      onProgress: (progress) => reply({ type: 'progress', progress }),
    });
    reply({ type: 'done', result });
  } catch (error) {
    reply({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
  } finally {
    screener.close();
  }
}

port.on('message', (message: ValidationThreadRequest) => void run(message));
