import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
/**
 * A small seeded generator (mulberry32): the same seed draws the same numbers on every machine and
 * Node version, so a validation run and the benchmarks can be reproduced from their seed alone.
 */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** The longest the HTTP thread is held between two turns of its event loop by a run's own work, ms. */
const TURN_MS = 2;

/**
 * Collects what `steps` makes, giving the event loop a turn whenever TURN_MS have passed since the
 * last one, so a run on a server's HTTP thread holds requests for a few milliseconds at most however
 * costly its steps are; a step may make nothing (null). Counting steps instead left a turn 15 to 45
 * ms apart where steps were dear (transliterations, identifier checks). `pace` is awaited after each
 * turn (a server holds the run there while interactive requests are under way).
 */
export async function collectInTurns<T>(steps: Iterable<T | null>, pace?: () => Promise<void>): Promise<T[]> {
  const out: T[] = [];
  let turnAt = performance.now();
  for (const made of steps) {
    if (made !== null) out.push(made);
    if (performance.now() - turnAt >= TURN_MS) {
      await yieldToEventLoop();
      if (pace) await pace();
      turnAt = performance.now();
    }
  }
  return out;
}
