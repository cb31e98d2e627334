import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import { AppError } from '../infra/errors.js';
import { type TableWatch, watchTables } from '../infra/table-watch.js';
import { hashApiKey } from './api-keys.js';
import { KEY_AUTH_TABLES, TenantsStore } from './tenants-store.js';
import type { Caller } from './caller.js';
import { type Tier, effectiveQuota, hasApiAccess } from './tiers.js';

/** The key checks of api-v1.md section 5, in the order they can be told apart. */
export type KeyCheck = { ok: true; caller: Caller; isMember: boolean } | { ok: false; error: AppError; keyId?: string };

/** A known key as stored: what every request with it is checked against. */
interface KnownKey {
  caller: Caller;
  isMember: boolean;
  revokedAt: string | null;
  expiresAt: string | null;
}

/** Keys kept at most by the cache; beyond that the oldest entries make room. */
const MAX_CACHED_KEYS = 10_000;

/**
 * Checks API keys (api-v1.md section 5). On SQLite the stored keys are kept in memory between
 * requests, which saves the keyed join on every request: the cache is dropped as a whole whenever
 * the tables it copies may have changed (table-watch.ts), by this process or by another one such as
 * the admin command line, so a revoked key, a changed tier or a removed member takes effect on the
 * next request exactly as without the cache. Expiry is judged on every request against the clock.
 * On PostgreSQL the same cache is kept on the notifications the tables' triggers send to every node
 * (infra/pg-notify-watch.ts, given as `watch`); without a listening connection every check reads the
 * database.
 */
export class ApiKeyChecker {
  private readonly store: TenantsStore;
  private readonly watch: TableWatch | undefined;
  private readonly known = new Map<string, KnownKey>();
  /** The tables' version the cached keys were read at. */
  private knownAt: number | undefined;
  private readCount = 0;

  constructor(
    db: Db,
    private readonly clock: Clock,
    watch?: TableWatch,
  ) {
    this.store = new TenantsStore(db);
    this.watch = watch ?? watchTables(db, KEY_AUTH_TABLES);
  }

  /** Keys looked up in the database so far; the other checks were answered from memory. */
  get reads(): number {
    return this.readCount;
  }

  async check(key: string | undefined): Promise<KeyCheck> {
    if (key === undefined || key === '') {
      return { ok: false, error: new AppError('UNAUTHORIZED', 'the x-api-key header is required') };
    }
    const hash = hashApiKey(key);
    // The version is taken before any read: a change after it shows as a newer version next time.
    // A reading of its own, not one shared with other caches: a key revoked a moment ago is refused.
    const version = this.watch?.version({ fresh: true });
    if (version === undefined || version !== this.knownAt) {
      this.known.clear();
      this.knownAt = version;
    }
    const known = (version !== undefined ? this.known.get(hash) : undefined) ?? (await this.read(hash, version));
    if (!known) return { ok: false, error: new AppError('INVALID_API_KEY', 'the API key is not valid') };
    if (known.revokedAt) return { ok: false, error: new AppError('INVALID_API_KEY', 'the API key has been revoked') };
    if (known.expiresAt && known.expiresAt <= this.clock.now().toISOString()) {
      return { ok: false, error: new AppError('INVALID_API_KEY', 'the API key has expired') };
    }
    return { ok: true, caller: known.caller, isMember: known.isMember };
  }

  private async read(hash: string, version: number | undefined): Promise<KnownKey | undefined> {
    this.readCount++;
    const row = await this.store.authByHash(hash);
    if (!row) return undefined;
    const tier = row.tier as Tier;
    const known: KnownKey = {
      caller: Object.freeze({
        orgId: row.org_id,
        orgSlug: row.org_slug,
        orgName: row.org_name,
        tier,
        quota: effectiveQuota(tier, row.monthly_quota),
        keyId: row.key_id,
        userId: row.key_user_id,
      }),
      isMember: Number(row.is_member) === 1,
      revokedAt: row.revoked_at,
      expiresAt: row.expires_at,
    };
    // Kept only while no newer version has been seen: one seen during the read may postdate it.
    if (version !== undefined && version === this.knownAt) {
      if (this.known.size >= MAX_CACHED_KEYS) this.known.delete(this.known.keys().next().value as string);
      this.known.set(hash, known);
    }
    return known;
  }
}

/** Checks that need a known key: membership and tier. Thrown as 403s. */
export function assertAccess(caller: Caller, isMember: boolean): void {
  if (!isMember) throw new AppError('FORBIDDEN', "the key's owner is no longer a member of the organization");
  if (!hasApiAccess(caller.tier)) {
    throw new AppError('FEATURE_NOT_AVAILABLE', 'API access requires the Starter tier or above');
  }
}
