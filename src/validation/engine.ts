import type { MatchBrief, MatchOptions, MatchQuery, ScreenBrief } from '../matching/index.js';
import type { ScreenHints, Screener } from '../screening/index.js';

/** One match as a validation run reads it. */
export type FoundMatch = MatchBrief;

export type EngineAnswer = ScreenBrief;

/** The engine as a validation run uses it: one query in, its matches out. */
export type ValidationEngine = (query: MatchQuery, options: MatchOptions) => Promise<EngineAnswer>;

/**
 * The engine the service screens with (a matching thread, or this thread), as a validation run uses
 * it: the same index, rules and options as POST /screen. The run's queries are background work: a
 * matching thread may hold their answers back to send them together (screening/screener.ts).
 */
export function screenerEngine(screener: Screener, hints: ScreenHints = { background: true }): ValidationEngine {
  return (query, options) => screener.screenBrief(query, options, hints);
}

/**
 * Two engines as one, for a run that has the machine to itself (the command line): up to `depth`
 * queries go to `pooled` (matching threads), the others are screened by `inline` on this thread,
 * each after the event loop has had its turn, so the threads' answers keep arriving. Both hold an
 * index of the same records, built at the same time; which one answered a query changes nothing
 * (the run folds the answers in the order of its queries).
 */
export function spreadEngine(pooled: ValidationEngine, inline: ValidationEngine, depth: number): ValidationEngine {
  let inPool = 0;
  return async (query, options) => {
    if (inPool < depth) {
      inPool++;
      try {
        return await pooled(query, options);
      } finally {
        inPool--;
      }
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    return inline(query, options);
  };
}
