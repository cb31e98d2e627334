import { availableParallelism, cpus, hostname, platform, release, totalmem } from 'node:os';
import type { EngineAnswer } from './engine.js';
import type { Machine, Phase, ValidationDeps } from './figures.js';

/** Queries in flight at once unless the caller says otherwise: enough to keep every matching thread fed. */
const DEFAULT_CONCURRENCY = 16;
/** Progress is told at most every this many answers (and at the end). */
const PROGRESS_EVERY = 256;

/**
 * Runs `fn` over `items` with at most `concurrency` calls in flight and returns their results in the
 * order of the items, whatever order the answers came back in (matching threads answer out of order):
 * the figures folded from them are the same for the same seed however the run was spread.
 */
export async function screenEach<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  deps: ValidationDeps,
  phase: Phase,
): Promise<R[]> {
  const limit = Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY);
  const total = items.length;
  const results = new Array<R>(total);
  let next = 0;
  let done = 0;
  let lastReport = 0;
  deps.onProgress?.({ phase, done: 0, total });
  const worker = async () => {
    while (next < total) {
      const at = next++;
      if (deps.pace) await deps.pace();
      results[at] = await fn(items[at]!);
      done++;
      if (done - lastReport >= PROGRESS_EVERY || done === total) {
        lastReport = done;
        deps.onProgress?.({ phase, done, total });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, Math.max(1, total)) }, worker));
  return results;
}

/** `count` of `xs` drawn without replacement in a seeded order (all of them, in their order, when count >= length). */
export function sample<T>(xs: readonly T[], count: number, rand: () => number): T[] {
  return samplePositions(xs.length, count, rand).map((at) => xs[at]!);
}

/**
 * `count` positions below `length` drawn without replacement in a seeded order: the first `count`
 * steps of a Fisher-Yates shuffle, with only the positions it moved written down, so that drawing
 * 2,000 of 128,000 listed names copies none of them (the copy held the HTTP thread for 30 ms).
 * All of them, in their order, when count >= length.
 */
export function samplePositions(length: number, count: number, rand: () => number): number[] {
  if (count >= length) return Array.from({ length }, (_, at) => at);
  const moved = new Map<number, number>();
  const drawn: number[] = [];
  for (let at = 0; at < count; at++) {
    const other = at + Math.floor(rand() * (length - at));
    drawn.push(moved.get(other) ?? other);
    moved.set(other, moved.get(at) ?? at);
  }
  return drawn;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at]!;
}

export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

export function machine(): Machine {
  return {
    hostname: hostname(),
    platform: `${platform()} ${release()}`,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
  };
}

export function ownMatch(answer: EngineAnswer, entityId: string) {
  return answer.matches.find((m) => m.id === entityId);
}

export function topScore(answer: EngineAnswer): number | null {
  return answer.matches.reduce<number | null>((best, m) => (best === null || m.score > best ? m.score : best), null);
}
