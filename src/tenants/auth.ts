import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import { AppError } from '../infra/errors.js';
import { hashApiKey } from './api-keys.js';
import { TenantsStore } from './tenants-store.js';
import { type Tier, effectiveQuota, hasApiAccess } from './tiers.js';

/** Who is calling: the organization that owns the data, the key and its user. */
export interface Caller {
  orgId: string;
  orgSlug: string;
  orgName: string;
  tier: Tier;
  /** Screenings a month; null is unlimited. */
  quota: number | null;
  keyId: string;
  userId: string;
}

/** The key checks of api-v1.md section 5, in the order they can be told apart. */
export type KeyCheck =
  | { ok: true; caller: Caller; isMember: boolean }
  | { ok: false; error: AppError; keyId?: string };

export async function checkApiKey(db: Db, clock: Clock, key: string | undefined): Promise<KeyCheck> {
  if (key === undefined || key === '') {
    return { ok: false, error: new AppError('UNAUTHORIZED', 'the x-api-key header is required') };
  }
  const row = await new TenantsStore(db).authByHash(hashApiKey(key));
  if (!row) return { ok: false, error: new AppError('INVALID_API_KEY', 'the API key is not valid') };
  if (row.revoked_at) return { ok: false, error: new AppError('INVALID_API_KEY', 'the API key has been revoked') };
  if (row.expires_at && row.expires_at <= clock.now().toISOString()) {
    return { ok: false, error: new AppError('INVALID_API_KEY', 'the API key has expired') };
  }
  const tier = row.tier as Tier;
  const caller: Caller = {
    orgId: row.org_id,
    orgSlug: row.org_slug,
    orgName: row.org_name,
    tier,
    quota: effectiveQuota(tier, row.monthly_quota),
    keyId: row.key_id,
    userId: row.key_user_id,
  };
  return { ok: true, caller, isMember: Number(row.is_member) === 1 };
}

/** Checks that need a known key: membership and tier. Thrown as 403s. */
export function assertAccess(caller: Caller, isMember: boolean): void {
  if (!isMember) throw new AppError('FORBIDDEN', "the key's owner is no longer a member of the organization");
  if (!hasApiAccess(caller.tier)) {
    throw new AppError('FEATURE_NOT_AVAILABLE', 'API access requires the Starter tier or above');
  }
}
