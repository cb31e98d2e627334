export { MatchingIndex } from './matching-index.js';
export { riskLevelFor, HIGH_BOUNDARY, MEDIUM_BOUNDARY, DEFAULT_FLOOR, DEFAULT_MAX_MATCHES } from './levels.js';
export { jaro, jaroWinkler, levenshtein, phoneticKey } from './similarity.js';
export { normalizeName, foldText, type NamePart, type PartKind } from './normalize.js';
export { transliterate } from './transliterate.js';
export type * from './types.js';
export {
  summarizeOutcome,
  briefOutcome,
  labelMatch,
  type MatchBrief,
  type ScreenBrief,
  type ScreenSummary,
  type SourceLabel,
  type LabelledMatch,
  type LabelledListing,
} from './outcome.js';
export type { EngineKnobs } from './engine-knobs.js';
export { scoringDigest } from './scoring-doc.js';
export { identifierKey, listedForm, readIdentifiers } from './identifier-index.js';
export { spellingFold } from './similarity.js';
export { KNOBS } from './engine-knobs.js';
