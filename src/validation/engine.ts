import type { LabelledMatch, MatchOptions, MatchQuery } from '../matching/index.js';
import type { ScreenHints, Screener } from '../screening/index.js';

/** One match as a validation run reads it. */
export interface FoundMatch {
  /** `<source>:<record id>` */
  id: string;
  score: number;
  /** The party: listings of the same party on several lists share it (`<source>:<record id>` of one of them). */
  cluster: string;
  /** The listed name the query matched (the primary name or an alias). */
  matchedName: string;
  /** Found by an identifier of the query. */
  byIdentifier: boolean;
}

export interface EngineAnswer {
  riskScore: number;
  matches: FoundMatch[];
}

/** The engine as a validation run uses it: one query in, its matches out. */
export type ValidationEngine = (query: MatchQuery, options: MatchOptions) => Promise<EngineAnswer>;

/**
 * The engine the service screens with (a matching thread, or this thread), as a validation run uses
 * it: the same index, rules and options as POST /screen. The run's queries are background work: a
 * matching thread may hold their answers back to send them together (screening/screener.ts).
 */
export function screenerEngine(screener: Screener, hints: ScreenHints = { background: true }): ValidationEngine {
  return async (query, options) => {
    const summary = await screener.screen(query, options, hints);
    const matches = (JSON.parse(summary.matchesJson) as LabelledMatch[])
      .filter((m) => !m.suppressed)
      .map((m) => ({
        id: m.entity.id,
        score: m.matchScore,
        cluster: m.clusterId ?? m.entity.id,
        matchedName: m.explanation.matchedName,
        byIdentifier: m.explanation.corroboration.identifier?.outcome === 'match',
      }));
    return { riskScore: summary.riskScore, matches };
  };
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
