import type { MatchOptions, MatchQuery, ScreenSummary } from '../matching/index.js';

/** What screening needs from the matching engine: in a matching thread (start/matching-pool.ts) or on this one. */
export interface Screener {
  screen(query: MatchQuery, options?: MatchOptions, hints?: ScreenHints): Promise<ScreenSummary>;
  /**
   * One query under several option sets, the name comparisons made once for all of them (a
   * profile backtest's two sides): the outcomes screen() would give for each, in order.
   */
  screenVariants(query: MatchQuery, variants: readonly MatchOptions[], hints?: ScreenHints): Promise<ScreenSummary[]>;
}

/** How a screening is run, never what it finds. */
export interface ScreenHints {
  /**
   * No one waits on this one answer (a batch row): a matching thread may hold it back to send it
   * with others in fewer messages.
   */
  background?: boolean;
  /** Told how long the matching itself took, in ms, apart from the wait for a thread (Server-Timing). */
  matched?: (ms: number) => void;
}
