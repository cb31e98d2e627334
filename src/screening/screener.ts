import type { MatchOptions, MatchQuery, ScreenBrief, ScreenSummary } from '../matching/index.js';

/** What screening needs from the matching engine: in a matching thread (start/matching-pool.ts) or on this one. */
export interface Screener {
  screen(query: MatchQuery, options?: MatchOptions, hints?: ScreenHints): Promise<ScreenSummary>;
  /**
   * One query under several option sets, the name comparisons made once for all of them (a
   * profile backtest's two sides): the outcomes screen() would give for each, in order.
   */
  screenVariants(query: MatchQuery, variants: readonly MatchOptions[], hints?: ScreenHints): Promise<ScreenSummary[]>;
  /** The risk score and the counted matches in brief, what a validation run folds (briefOutcome). */
  screenBrief(query: MatchQuery, options?: MatchOptions, hints?: ScreenHints): Promise<ScreenBrief>;
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
  /** Told the index of the answer's matches, made where the matching ran (the screening pipeline reads it). */
  indexed?: (index: MatchIndex) => void;
}

/**
 * A small index of an answer's matches JSON, made where the matching ran, so that nothing parses the
 * JSON again to find a field.
 */
export interface MatchIndex {
  /** The top match's entity type (a profile's level may depend on it); null when no match counts. */
  entityType: string | null;
  /** How many matches count (are not suppressed). */
  countedMatchCount: number;
  /** The entity ids of the matches that count, their listings' too (suppression lapses are checked against them). */
  countedEntityIds: string[];
}
