/**
 * Tenants: organizations, users and their roles, API keys, tiers and quotas; the caller of a request.
 * This face is how other domains and the layers above import tenants/ (eslint.config.js, docs/architecture.md).
 */
export { ApiKeyChecker, assertAccess } from './auth.js';
export type { Caller, CallerContext } from './caller.js';
export { KeyUsageRecorder } from './key-usage.js';
export {
  RedisQuota,
  addUsage,
  usageInsert,
  foldUsage,
  type UsageAddition,
  assertQuotaLeft,
  assertTicketFresh,
  consumeQuota,
  noteQuotaUsedUp,
  usedThisMonth,
} from './quota.js';
export type { QuotaTicket } from './quota.js';
export { ROLES, can } from './roles.js';
export type { Permission, Role } from './roles.js';
export { rotateWebhookSecrets } from './secret-rotation.js';
export type { RotationReport } from './secret-rotation.js';
export { normalizeEmail, requireOrg, tenantsService } from './tenants-service.js';
export type { TenantsService } from './tenants-service.js';
export { KEY_AUTH_TABLES, TenantsStore, newOrganizationRow } from './tenants-store.js';
export { TIERS, effectiveQuota, hasApiAccess, quotaMonth } from './tiers.js';
export type { Tier } from './tiers.js';
export { UsageFolder } from './usage-folder.js';
