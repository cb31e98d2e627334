import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PollingJob, type Round } from '../../src/infra/polling-job.js';

/** A promise with its resolve, to hold a round open until the test lets it finish. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

/** Rounds that each wait for their own gate, and tell when they start. */
function heldRounds(count: number) {
  const gates = Array.from({ length: count }, () => gate());
  const started = Array.from({ length: count }, () => gate());
  let n = 0;
  const round = async (): Promise<Round<number>> => {
    const i = n++;
    started[i]?.open();
    await gates[i]?.promise;
    return { more: false, report: i };
  };
  return { gates, started, round, count: () => n };
}

// The timer never fires within a test: every round here is started by start(), kick() or runUntilIdle().
const HOUR = 60 * 60 * 1000;

describe('polling job', () => {
  it('runs rounds until one says there is no more work, and combines their reports', async () => {
    let left = 3;
    const job = new PollingJob<number>({
      name: 'test',
      intervalMs: HOUR,
      round: async () => ({ more: --left > 0, report: 1 }),
      combine: (total, n) => (total ?? 0) + (n ?? 0),
    });
    assert.equal(await job.runUntilIdle(), 3);
    assert.equal(left, 0);
  });

  it('a kick during a round runs one more round after it; several kicks run one', async () => {
    const rounds = heldRounds(3);
    const job = new PollingJob<number>({ name: 'test', intervalMs: HOUR, round: rounds.round });
    job.start();
    await rounds.started[0]!.promise;
    job.kick();
    job.kick();
    rounds.gates[0]!.open();
    await rounds.started[1]!.promise;
    rounds.gates[1]!.open();
    await job.stop();
    assert.equal(rounds.count(), 2);
  });

  it('stop() waits for the round under way; no round starts after it, kicks are ignored', async () => {
    const rounds = heldRounds(2);
    const job = new PollingJob<number>({ name: 'test', intervalMs: HOUR, round: rounds.round });
    job.start();
    await rounds.started[0]!.promise;
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    assert.equal(job.stopping, true);
    job.kick();
    await Promise.resolve();
    assert.equal(stopped, false, 'the round under way is still running');
    rounds.gates[0]!.open();
    await stopping;
    job.kick();
    assert.equal(rounds.count(), 1);
  });

  it('ignores kicks until started (a command line or a test drives the job itself)', async () => {
    const rounds = heldRounds(1);
    rounds.gates[0]!.open();
    const job = new PollingJob<number>({ name: 'test', intervalMs: HOUR, round: rounds.round });
    job.kick();
    assert.equal(rounds.count(), 0);
    assert.equal(await job.runUntilIdle(), 0);
    assert.equal(rounds.count(), 1);
  });

  it('runUntilIdle called during a round waits for it, then runs its own', async () => {
    const rounds = heldRounds(2);
    const job = new PollingJob<number>({ name: 'test', intervalMs: HOUR, round: rounds.round });
    const first = job.runUntilIdle();
    await rounds.started[0]!.promise;
    const second = job.runUntilIdle();
    rounds.gates[0]!.open();
    rounds.gates[1]!.open();
    assert.deepEqual(await Promise.all([first, second]), [0, 1]);
  });

  it('logs a failed round and answers the next kick', async () => {
    const logged: string[] = [];
    let fail = true;
    const done = gate();
    const job = new PollingJob({
      name: 'flaky',
      intervalMs: HOUR,
      round: async () => {
        if (fail) {
          fail = false;
          throw new Error('database unreachable');
        }
        done.open();
        return { more: false };
      },
      log: (level, message, detail) => {
        logged.push(`${level} ${message} ${String(detail?.err)}`);
        job.kick();
      },
    });
    job.start();
    await done.promise;
    await job.stop();
    assert.deepEqual(logged, ['error flaky failed Error: database unreachable']);
  });
});
