/**
 * Decisions: analysts' decisions on matches, the suppression they bring (OFAC false-hit guidance), four-eyes.
 * This face is how other domains and the layers above import decisions/ (eslint.config.js, docs/architecture.md).
 */
export { decisionViews, decisionsService, latestDecisions } from './decisions-service.js';
export type { DecisionTarget, DecisionView, DecisionsService } from './decisions-service.js';
export {
  DECISIONS,
  DECISION_SCHEMAS,
  Decision,
  DecisionRequest,
  ListDecisionsQuery,
  REASONS,
} from './decisions-schemas.js';
export type { DecisionRequestBody, ListDecisionsQueryType } from './decisions-schemas.js';
export { DecisionsStore } from './decisions-store.js';
export {
  annotateMatches,
  customerGroupKey,
  customerKeyOf,
  decisionsByCustomer,
  ensureReviewed,
  entityIdsOf,
  evaluateSuppressions,
  newLapses,
  recordLapses,
  suppressionsFor,
} from './suppression.js';
export type { Lapse, Suppressions } from './suppression.js';
export { decisionHashes } from './decisions-audit.js';
export type { DecisionRow } from './decisions-store.js';
export { NO_SUPPRESSIONS } from './suppression.js';
