/**
 * The audit log: hash-chained entries appended by every domain, verified, exported and pruned.
 * This face is how other domains and the layers above import audit/ (eslint.config.js, docs/architecture.md).
 */
export { auditService } from './audit-service.js';
export type { AuditService } from './audit-service.js';
export { SYSTEM_CHAIN, appendAudit, appendAuditNow, sha256Hex } from './audit-store.js';
export type { AuditEvent } from './audit-store.js';
export { appendAuditPending, auditPendingInsert } from './audit-store.js';
export { AuditSealer } from './audit-seal.js';
