import type { Match, ScreenOutcome } from '../matching/index.js';
import type { MatchIndex } from '../screening/index.js';

/** The index of an outcome's matches that travels with its JSON (screening/screener.ts `MatchIndex`). */
export function indexMatches(outcome: ScreenOutcome): MatchIndex {
  // Suppressed matches come last and count for nothing (as in summarizeOutcome).
  const counted = outcome.matches.filter((match) => !match.suppressed);
  return {
    entityType: counted[0]?.entity.entityType ?? null,
    countedMatchCount: counted.length,
    countedEntityIds: [...new Set(counted.flatMap(matchEntityIds))],
  };
}

/** A match's entity id and its listings' (grouped by cluster, one match stands for several). */
function matchEntityIds(match: Match): string[] {
  return match.listings ? [match.entity.id, ...match.listings.map((listing) => listing.entityId)] : [match.entity.id];
}
