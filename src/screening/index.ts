/**
 * Screening: POST /screen and the stored screenings, identifiers in requests, idempotency, and (until
 * they move to decisions/) the analysts' decisions and the suppression they bring.
 * This face is how other domains and the layers above import screening/ (eslint.config.js, docs/architecture.md).
 */
export { BUILT_IN_PROFILE, profileLevel } from './applied-profile.js';
export type { AppliedProfile, ProfileResolver } from './applied-profile.js';
export {
  DECISIONS,
  DECISION_SCHEMAS,
  Decision,
  DecisionRequest,
  ListDecisionsQuery,
  REASONS,
} from './decisions-schemas.js';
export type { DecisionRequestBody, ListDecisionsQueryType } from './decisions-schemas.js';
export { decisionViews, decisionsService } from './decisions-service.js';
export type { DecisionTarget, DecisionView, DecisionsService } from './decisions-service.js';
export { DecisionsStore } from './decisions-store.js';
export { engineVersion } from './engine-version.js';
export {
  matchIdentifiers,
  mergeIdentifiers,
  parseStoredIdentifiers,
  storedIdentifiers,
  validateIdentifiers,
} from './identifiers-input.js';
export type { IdentifierRequest, IdentifierWarning } from './identifiers-input.js';
export { validateExternalId, validateScreenInput } from './screen-input.js';
export type { ScreenHints, Screener } from './screener.js';
export { decisionHashes, screeningHashes } from './screening-audit.js';
export {
  ExternalIdField,
  IdParams,
  IdentifierInput,
  ListScreeningsQuery,
  PageQuery,
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
export {
  annotateMatches,
  customerGroupKey,
  customerKeyOf,
  decisionsByCustomer,
  ensureReviewed,
  entityIdsOf,
  evaluateSuppressions,
  recordLapses,
} from './suppression.js';
export type { Lapse } from './suppression.js';
