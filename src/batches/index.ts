/**
 * Batch screening: the file readers, the batch store, service and background runner.
 * This face is how other domains and the layers above import batches/ (eslint.config.js, docs/architecture.md).
 */
export { MAX_FILE_BYTES, XLSX_TYPE, fileKindOf } from './batch-readers.js';
export { BatchRunner } from './batch-runner.js';
export {
  BATCH_SCHEMAS,
  BatchAccepted,
  BatchResultRow,
  BatchStatus,
  CreateBatchBody,
  CreateBatchQuery,
  ListBatchesQuery,
  MAX_ITEMS,
  ResultsQuery,
} from './batch-schemas.js';
export type { CreateBatchBodyType } from './batch-schemas.js';
export { batchService } from './batch-service.js';
export type { BatchOptions, BatchService, CreateBatchInput } from './batch-service.js';
