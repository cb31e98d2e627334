export {
  MatchingIndex,
  riskLevelFor,
  HIGH_BOUNDARY,
  MEDIUM_BOUNDARY,
  DEFAULT_FLOOR,
  DEFAULT_MAX_MATCHES,
} from './matching-index.js';
export { jaro, jaroWinkler, levenshtein, phoneticKey } from './similarity.js';
export { normalizeName, foldText, type NamePart, type PartKind } from './normalize.js';
export { transliterate } from './transliterate.js';
export type * from './types.js';
export { summarizeOutcome, type ScreenSummary } from './outcome.js';
