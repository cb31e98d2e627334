/**
 * Screening: POST /screen and the stored screenings, identifiers in requests, idempotency.
 * This face is how other domains and the layers above import screening/ (eslint.config.js, docs/architecture.md).
 */
export { BUILT_IN_PROFILE, profileLevel } from './applied-profile.js';
export type { AppliedProfile, ProfileResolver } from './applied-profile.js';
export { engineVersion } from './engine-version.js';
export {
  matchIdentifiers,
  mergeIdentifiers,
  parseStoredIdentifiers,
  storedIdentifiers,
  validateIdentifiers,
} from './identifiers-input.js';
export type { IdentifierRequest, IdentifierWarning } from './identifiers-input.js';
export { validateExternalId } from './screen-input.js';
export type { ScreenHints, Screener } from './screener.js';
export { screeningHashes } from './screening-audit.js';
export {
  ExternalIdField,
  IdParams,
  IdentifierInput,
  ListScreeningsQuery,
  RiskLevelSchema,
  SCREENING_SCHEMAS,
  ScreenRequest,
  ScreeningRecord,
  ScreeningResult,
  ScreeningSummary,
  ScreeningWarning,
  StoredIdentifier,
  identifiersField,
} from './screening-schemas.js';
export type { ListScreeningsQueryType, ScreenRequestBody } from './screening-schemas.js';
export { screeningService } from './screening-service.js';
export type { ScreeningService } from './screening-service.js';
export { ScreeningStore } from './screening-store.js';
export { searchKey } from './search-key.js';
export { screeningDecisionTarget } from './decision-target.js';
export { validateScreeningRequest } from './screen-input.js';
export { screeningResultJson } from './screening-response.js';
export { matchSubject } from './screening-pipeline.js';
export type { ScreeningSubject } from './screening-pipeline.js';
export type { MatchIndex } from './screener.js';
