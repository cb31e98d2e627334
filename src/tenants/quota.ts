import { sql } from 'kysely';
import type { Db } from '../infra/database.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';
import { AppError } from '../infra/errors.js';
import type { Caller } from './caller.js';
import { quotaMonth } from './tiers.js';

/** Monthly screening quotas (DECISIONS.md): one unit per new POST /screen execution, per calendar month in UTC. */

export function quotaExceeded(caller: Caller): AppError {
  return new AppError(
    'TIER_LIMIT_EXCEEDED',
    `the monthly quota of ${caller.quota} screenings for the ${caller.tier} tier is used up; it resets on the first day of next month (UTC)`,
  );
}

// Run on POST /screen: built and compiled once per database.
const queries = preparedFor((db) => ({
  used: prepareQuery(db, (db, p: { orgId: string; month: string }) =>
    db.selectFrom('usage').select('count').where('org_id', '=', p.orgId).where('month', '=', p.month),
  ),
  take: prepareQuery(
    db,
    (
      _db,
      p: { orgId: string; month: string },
    ) => sql`insert into usage (org_id, month, count) values (${p.orgId}, ${p.month}, 1)
      on conflict (org_id, month) do update set count = usage.count + 1`,
  ),
  takeBelow: prepareQuery(
    db,
    (_db, p: { orgId: string; month: string; quota: number }) => sql<{
      count: number;
    }>`insert into usage (org_id, month, count) values (${p.orgId}, ${p.month}, 1)
      on conflict (org_id, month) do update set count = usage.count + 1 where usage.count < ${p.quota}
      returning count`,
  ),
}));

export async function usedThisMonth(db: Db, orgId: string, at: Date): Promise<number> {
  const row = await queries(db).used.first({ orgId, month: quotaMonth(at) });
  return Number(row?.count ?? 0);
}

/** Throws TIER_LIMIT_EXCEEDED when nothing is left; a cheap read before the work is done. */
export async function assertQuotaLeft(db: Db, caller: Caller, at: Date): Promise<void> {
  if (caller.quota === null) return;
  if ((await usedThisMonth(db, caller.orgId, at)) >= caller.quota) throw quotaExceeded(caller);
}

/**
 * Takes one unit, atomically: the conditional upsert only increments below the quota, so concurrent
 * requests on several nodes cannot overspend. Run it inside the transaction that stores the
 * screening: `trx` is that transaction, `db` its database.
 */
export async function consumeQuota(db: Db, trx: Db, caller: Caller, at: Date): Promise<void> {
  const month = quotaMonth(at);
  if (caller.quota === null) {
    await queries(db).take.execute({ orgId: caller.orgId, month }, trx);
    return;
  }
  if (caller.quota <= 0) throw quotaExceeded(caller);
  const taken = await queries(db).takeBelow.first({ orgId: caller.orgId, month, quota: caller.quota }, trx);
  if (taken === undefined) throw quotaExceeded(caller);
}
