/**
 * A matching thread: holds the matching indexes of the list generations the main thread has loaded
 * and answers screenings against them, so that the HTTP thread never spends its time on matching.
 * Messages are answered in the order they arrive; a build yields between steps, so the generation in
 * service keeps answering while the next one is built.
 */
import { parentPort } from 'node:worker_threads';
import { MatchingIndex, summarizeOutcome } from '../matching/index.js';
import type { WorkerReply, WorkerRequest } from './matching-pool.js';

const port = parentPort;
if (!port) throw new Error('matching-worker must run as a worker thread');

const indexes = new Map<number, MatchingIndex>();
const reply = (message: WorkerReply) => port.postMessage(message);

port.on('message', (message: WorkerRequest) => {
  switch (message.type) {
    case 'screen': {
      const index = indexes.get(message.generation);
      if (!index) {
        reply({ type: 'screened', id: message.id, error: `list generation ${message.generation} is not loaded in this thread` });
        return;
      }
      try {
        reply({ type: 'screened', id: message.id, outcome: summarizeOutcome(index.screen(message.query, message.options)) });
      } catch (error) {
        reply({ type: 'screened', id: message.id, error: error instanceof Error ? error.message : String(error) });
      }
      return;
    }
    case 'load':
      MatchingIndex.buildAsync(message.records).then(
        (index) => {
          indexes.set(message.generation, index);
          reply({ type: 'loaded', generation: message.generation });
        },
        (error: unknown) => reply({ type: 'loaded', generation: message.generation, error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    case 'drop':
      indexes.delete(message.generation);
      return;
  }
});
