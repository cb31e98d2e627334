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

/**
 * Collects what `steps` makes, giving the event loop a turn every `every` steps, so a run on a
 * server's HTTP thread never holds requests for long; a step may make nothing (null).
 */
export async function collectInTurns<T>(steps: Iterable<T | null>, every = 250): Promise<T[]> {
  const out: T[] = [];
  let count = 0;
  for (const made of steps) {
    if (made !== null) out.push(made);
    if (++count % every === 0) await yieldToEventLoop();
  }
  return out;
}
