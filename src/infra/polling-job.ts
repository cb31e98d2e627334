import type { Log } from './context.js';

/** What one round of a polling job tells the loop. */
export interface Round<R> {
  /** More work is waiting: run another round at once instead of waiting for the next poll. */
  more: boolean;
  /** What the round did, returned by runUntilIdle. */
  report?: R;
}

export interface PollingJobOptions<R> {
  /** Names the job in logs. */
  name: string;
  /** How often to look for work when nothing kicks the job; real time, not the injected clock. */
  intervalMs: number;
  /** One round of work. It may throw: the loop logs it and polls again on the next tick. */
  round: () => Promise<Round<R>>;
  /** Combines the reports of the rounds of one runUntilIdle (default: the last one). */
  combine?: (previous: R | undefined, next: R | undefined) => R | undefined;
  log?: Log;
}

/**
 * The one shape of background work (rescreening, webhook deliveries, list jobs): rounds run on a
 * timer and when kicked, never two at once. A kick during a round runs one more round after it, so
 * work written while a round was under way is never left waiting for the next tick. Tests drive a
 * job with runUntilIdle() (and a moved clock) instead of waiting for its timer.
 */
export class PollingJob<R = void> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<R | undefined> | undefined;
  private again = false;
  /** Set by stop(): no round starts after it (a round under way finishes). */
  private stopped = false;

  constructor(private readonly options: PollingJobOptions<R>) {}

  /** stop() was called: a long round checks it between steps and ends early. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Polls every intervalMs and runs a first round at once. The timer never keeps the process alive. */
  start(): void {
    if (this.timer) return;
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.options.intervalMs);
    this.timer.unref();
    this.kick();
  }

  /** No new rounds; resolves when the round under way, if any, has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /**
   * Runs rounds soon, in the background; while one runs, one more follows it. Only a started job
   * answers kicks: before start() (a command line, a test driving the job itself) and after stop()
   * they are ignored.
   */
  kick(): void {
    if (!this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.runUntilIdle().catch((error: unknown) =>
      this.options.log?.('error', `${this.options.name} failed`, { err: String(error) }),
    );
  }

  /**
   * Runs rounds until one says there is no more work and no kick came during it; resolves with the
   * combined reports. Called while rounds run, it waits for them and then runs its own.
   */
  async runUntilIdle(): Promise<R | undefined> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.loop();
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  private async loop(): Promise<R | undefined> {
    const combine = this.options.combine ?? ((_previous, next) => next);
    let report: R | undefined;
    for (;;) {
      this.again = false;
      const round = await this.options.round();
      report = combine(report, round.report);
      if (!(round.more || this.again) || this.stopped) return report;
    }
  }
}
