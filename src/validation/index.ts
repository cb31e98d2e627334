/**
 * Validation: seeded test runs of the matching engine, their reports, signing and thresholds.
 * This face is how other domains and the layers above import validation/ (eslint.config.js, docs/architecture.md).
 */
export { screenerEngine } from './engine.js';
export { verifyReport } from './report.js';
export { generateSigningKey, parseSigningKey, publicKeyOf } from './signing.js';
export { thresholdsWith } from './thresholds.js';
export { paceWhile, produceReport, produceRun, runOptions } from './validation-job.js';
export type { RunRequest, RunResult } from './validation-job.js';
export { ValidationRunner } from './validation-runner.js';
export type { RunElsewhere } from './validation-runner.js';
export {
  CreateValidationRunBody,
  ListValidationRunsQuery,
  ReportParams,
  VALIDATION_SCHEMAS,
  ValidationRun,
} from './validation-schemas.js';
export { validationService } from './validation-service.js';
export type { ValidationRunView, ValidationService } from './validation-service.js';
export { spreadEngine } from './engine.js';
export type { ValidationEngine } from './engine.js';
export type { Progress } from './figures.js';
export type { SignedFiles } from './report.js';
export { resolveRunProfile } from './run-profile.js';
