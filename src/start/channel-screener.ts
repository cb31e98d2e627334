import type { MessagePort } from 'node:worker_threads';
import type { MatchOptions, MatchQuery, ScreenBrief } from '../matching/index.js';
import { BackgroundGate, type MatchingJob, type WorkerReply, type WorkerRequest } from './matching-pool.js';

interface Channel {
  port: MessagePort;
  /** Background jobs for this port's thread, under the pool's own rule (BackgroundGate). */
  background: BackgroundGate;
  pending: Map<number, { resolve: (brief: ScreenBrief) => void; reject: (error: Error) => void; background: boolean }>;
}

/** Brief screenings on the channels a pool lent (MatchingPool.lend), from whichever thread holds them. */
export interface ChannelScreener {
  /**
   * One query in brief. Background: held here while BACKGROUND_IN_THREAD of them are in a thread (the
   * pool's own rule, so an analyst's screening waits behind at most one); otherwise sent at once and
   * answered in its turn (a run's latency samples).
   */
  screenBrief(query: MatchQuery, options: MatchOptions, background: boolean): Promise<ScreenBrief>;
  /** Closes the ports; screenings still waiting fail. */
  close(): void;
}

const post = (port: MessagePort, job: MatchingJob, background: boolean) =>
  port.postMessage({
    type: 'screen',
    jobs: [job],
    ...(background ? { background: true as const } : {}),
  } satisfies WorkerRequest);

/**
 * Sends screenings of `generation` to the matching threads on the lent ports, each to the channel
 * with the fewest unanswered, and resolves them from the threads' answers. A thread that stops
 * closes its port: what it held fails, and the other channels go on.
 */
export function channelScreener(ports: readonly MessagePort[], generation: number): ChannelScreener {
  let nextId = 1;
  const channels: Channel[] = ports.map((port) => ({
    port,
    background: new BackgroundGate((job) => post(port, job, true)),
    pending: new Map(),
  }));
  for (const channel of channels) {
    channel.port.on('message', (message: WorkerReply) => {
      if (message.type !== 'screened') return;
      for (const result of message.results) {
        const waiter = channel.pending.get(result.id);
        if (!waiter) continue;
        channel.pending.delete(result.id);
        if (waiter.background) channel.background.answered();
        if (result.brief) waiter.resolve(result.brief);
        else waiter.reject(new Error(`matching failed: ${result.error ?? 'no outcome'}`));
      }
    });
    channel.port.on('close', () => {
      const gone = channels.indexOf(channel);
      if (gone >= 0) channels.splice(gone, 1);
      const failure = new Error('the matching thread stopped');
      for (const waiter of channel.pending.values()) waiter.reject(failure);
      channel.pending.clear();
      channel.background.clear();
    });
  }
  return {
    screenBrief(query, options, background) {
      return new Promise<ScreenBrief>((resolve, reject) => {
        let channel: Channel | undefined;
        for (const candidate of channels)
          if (!channel || candidate.pending.size < channel.pending.size) channel = candidate;
        if (!channel) {
          reject(new Error('no matching thread is available'));
          return;
        }
        const job: MatchingJob = { id: nextId++, generation, query, options, brief: true };
        channel.pending.set(job.id, { resolve, reject, background });
        if (background) channel.background.add(job);
        else post(channel.port, job, false);
      });
    },
    close() {
      for (const channel of [...channels]) channel.port.close();
    },
  };
}
