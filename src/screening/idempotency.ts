import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import type { IdempotencyKeysTable } from '../infra/db-schema.js';
import { AppError, validationError } from '../infra/errors.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';

/**
 * Idempotency-Key of POST /screen (DECISIONS.md "Idempotency"): keys are scoped per organization; a
 * replay within 24 hours returns the stored response; the same key with another body is 422; a key
 * whose request is still running is 409. This module owns the idempotency_keys table.
 */

/** DECISIONS.md: replays within 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A request still marked running after this long died with its process; its key may be used again. */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;
/** api-v1.md section 8 and DECISIONS.md: at most 255 characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export type IdempotencyClaim =
  { kind: 'claimed' } | { kind: 'replay'; status: number; json: string; screeningId: string | null };

// On the POST /screen path: built and compiled once per database.
const queries = preparedFor((db) => ({
  claim: prepareQuery(db, (db, p: IdempotencyKeysTable) =>
    db
      .insertInto('idempotency_keys')
      .values({
        org_id: p.org_id,
        key: p.key,
        request_hash: p.request_hash,
        state: p.state,
        response_status: p.response_status,
        response_body: p.response_body,
        screening_id: p.screening_id,
        created_at: p.created_at,
      })
      .onConflict((oc) => oc.columns(['org_id', 'key']).doNothing()),
  ),
  claimed: prepareQuery(db, (db, p: { orgId: string; key: string }) =>
    db.selectFrom('idempotency_keys').selectAll().where('org_id', '=', p.orgId).where('key', '=', p.key),
  ),
  takeOver: prepareQuery(
    db,
    (db, p: { orgId: string; key: string; hash: string; createdAt: string; previousCreatedAt: string }) =>
      db
        .updateTable('idempotency_keys')
        .set({
          request_hash: p.hash,
          state: 'running',
          response_status: null,
          response_body: null,
          screening_id: null,
          created_at: p.createdAt,
        })
        .where('org_id', '=', p.orgId)
        .where('key', '=', p.key)
        .where('created_at', '=', p.previousCreatedAt),
  ),
  release: prepareQuery(db, (db, p: { orgId: string; key: string }) =>
    db
      .deleteFrom('idempotency_keys')
      .where('org_id', '=', p.orgId)
      .where('key', '=', p.key)
      .where('state', '=', 'running'),
  ),
  complete: prepareQuery(db, (db, p: { orgId: string; key: string; body: string; screeningId: string }) =>
    db
      .updateTable('idempotency_keys')
      .set({ state: 'done', response_status: 200, response_body: p.body, screening_id: p.screeningId })
      .where('org_id', '=', p.orgId)
      .where('key', '=', p.key),
  ),
}));

/** The header's value, checked: undefined when the request has none. */
export function checkIdempotencyKey(key: string | undefined): string | undefined {
  if (key !== undefined && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    throw validationError('Idempotency-Key', `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  return key;
}

/**
 * Claims `key` for a request whose body hashes to `hash`, or says how to answer a repeat of it.
 * `db` is the database itself (not a transaction): the claim must be visible to other requests at once.
 */
export async function claimIdempotencyKey(
  db: Db,
  clock: Clock,
  claim: { orgId: string; key: string; hash: string },
): Promise<IdempotencyClaim> {
  const now = clock.now();
  const prepared = queries(db);
  const inserted = await prepared.claim.affectedRows({
    org_id: claim.orgId,
    key: claim.key,
    request_hash: claim.hash,
    state: 'running',
    response_status: null,
    response_body: null,
    screening_id: null,
    created_at: now.toISOString(),
  });
  if (inserted > 0) return { kind: 'claimed' };

  const existing = await prepared.claimed.first({ orgId: claim.orgId, key: claim.key });
  if (!existing) return claimIdempotencyKey(db, clock, claim);
  const age = now.getTime() - new Date(existing.created_at).getTime();
  const expired = age >= IDEMPOTENCY_WINDOW_MS;
  const abandoned = existing.state === 'running' && age >= ABANDONED_AFTER_MS;
  if (expired || abandoned) {
    // Take the key over, but only if nobody else did in the meantime (compare-and-set on created_at).
    const taken = await prepared.takeOver.affectedRows({
      orgId: claim.orgId,
      key: claim.key,
      hash: claim.hash,
      createdAt: now.toISOString(),
      previousCreatedAt: existing.created_at,
    });
    if (taken > 0) return { kind: 'claimed' };
    return claimIdempotencyKey(db, clock, claim);
  }
  if (existing.request_hash !== claim.hash) {
    throw new AppError('IDEMPOTENCY_KEY_MISMATCH', 'this Idempotency-Key was used with a different request body');
  }
  if (existing.state === 'running') {
    throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still being processed');
  }
  return {
    kind: 'replay',
    status: existing.response_status ?? 200,
    json: existing.response_body ?? 'null',
    screeningId: existing.screening_id,
  };
}

/** Frees a claimed key whose request failed, so that it can be retried at once. */
export async function releaseIdempotencyKey(db: Db, orgId: string, key: string): Promise<void> {
  await queries(db).release.execute({ orgId, key });
}

/** Stores the response with its key, inside the transaction `trx` of database `db` that stores the screening. */
export async function completeIdempotencyKey(
  db: Db,
  trx: Db,
  done: { orgId: string; key: string; body: string; screeningId: string },
): Promise<void> {
  await queries(db).complete.execute(done, trx);
}
