import type { ScreenSummary } from '../matching/outcome.js';
import type { MatchOptions, MatchQuery } from '../matching/types.js';

/** What screening needs from the matching engine: in a matching thread (start/matching-pool.ts) or on this one. */
export interface Screener {
  screen(query: MatchQuery, options?: MatchOptions): Promise<ScreenSummary>;
}
