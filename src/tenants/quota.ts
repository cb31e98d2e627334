import { sql } from 'kysely';
import { type Db, type InsertPart, isPostgres } from '../infra/database.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';
import { AppError } from '../infra/errors.js';
import { type RedisCounters, countersUnavailable } from '../infra/redis-counters.js';
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
  used: prepareQuery(
    db,
    (_db, p: { orgId: string; month: string }) => sql<{ count: number | string | null }>`select
      coalesce((select count from usage where org_id = ${p.orgId} and month = ${p.month}), 0)
      + coalesce((select sum(count) from usage_added where org_id = ${p.orgId} and month = ${p.month}), 0) as count`,
  ),
  take: prepareQuery(
    db,
    (
      _db,
      p: { orgId: string; month: string },
    ) => sql`insert into usage (org_id, month, count) values (${p.orgId}, ${p.month}, 1)
      on conflict (org_id, month) do update set count = usage.count + 1`,
  ),
  add: prepareQuery(
    db,
    (
      _db,
      p: { orgId: string; month: string; count: number },
    ) => sql`insert into usage (org_id, month, count) values (${p.orgId}, ${p.month}, ${p.count})
      on conflict (org_id, month) do update set count = usage.count + excluded.count`,
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

/** Screenings counted against the organization's quota this month: the usage row and what awaits folding into it. */
export async function usedThisMonth(db: Db, orgId: string, at: Date): Promise<number> {
  const row = await queries(db).used.first({ orgId, month: quotaMonth(at) });
  return Number(row?.count ?? 0);
}

/**
 * Per database, per organization and month: a count the usage row is known to have reached, learnt
 * from a committed refusal. The usage of a month only grows, so the count stays a lower bound.
 */
const knownUsed = new WeakMap<Db, Map<string, number>>();

/**
 * Throws TIER_LIMIT_EXCEEDED when this node has seen the month's quota used up, without a read: the
 * check that counts is the conditional take in the screening's transaction (`consumeQuota`), and this
 * one only saves the matching of a request that would be refused there. A node that has not yet seen
 * a refusal this month matches once more and is refused at the take; a raised quota (the caller comes
 * from the key cache, which sees the organization change) is compared afresh.
 */
export function assertQuotaLeft(db: Db, caller: Caller, at: Date): void {
  if (caller.quota === null) return;
  if (caller.quota <= 0) throw quotaExceeded(caller);
  const used = knownUsed.get(db)?.get(`${caller.orgId} ${quotaMonth(at)}`);
  if (used !== undefined && used >= caller.quota) throw quotaExceeded(caller);
}

/**
 * Remembers that the take of `caller`'s quota was refused in a transaction that committed (the group
 * commit settles a job with its own error only then): the month's usage reached `caller.quota`.
 */
export function noteQuotaUsedUp(db: Db, caller: Caller, at: Date): void {
  if (caller.quota === null) return;
  const month = quotaMonth(at);
  let seen = knownUsed.get(db);
  if (!seen) knownUsed.set(db, (seen = new Map()));
  // Other months' counts are of no more use.
  for (const key of seen.keys()) if (!key.endsWith(` ${month}`)) seen.delete(key);
  const key = `${caller.orgId} ${month}`;
  seen.set(key, Math.max(seen.get(key) ?? 0, caller.quota));
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

/** A unit of the monthly quota taken in Redis for one screening, not yet committed with it. */
export interface QuotaTicket {
  month: string;
  /** performance.now() when it was taken: the screening must commit within `commitWithinMs` of it. */
  takenAt: number;
  commitWithinMs: number;
  /** Gives the unit back (the screening failed and stored nothing). */
  release(): Promise<void>;
}

/** The screenings an organization has stored in a calendar month (UTC): the durable count of its used quota. */
async function storedThisMonth(db: Db, orgId: string, month: string): Promise<number> {
  const from = new Date(`${month}-01T00:00:00.000Z`);
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  const row = await db
    .selectFrom('screenings')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', orgId)
    .where('created_at', '>=', from.toISOString())
    .where('created_at', '<', to.toISOString())
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A quota counter in Redis lives a little longer than its month. */
const QUOTA_TTL_MS = 40 * 24 * 3_600_000;

/**
 * The monthly quota counted in Redis (REDIS_URL), shared by every node: one atomic take per screening
 * instead of an update of the organization's usage row in every screening's transaction. The
 * database keeps the durable record: each stored screening, and the usage table, added to once per
 * group commit (screening-service.ts).
 *
 * Never past the quota, also when Redis loses its counts (a restart): the counter of a month is
 * rebuilt from the screenings stored in the database, which are every screening ever acknowledged.
 * What it cannot see are screenings whose unit was taken before the loss and that are still on their
 * way to their commit; so a screening that has not committed within half the settling time of its take
 * fails instead (503, nothing stored), and a counter lost in a restart is rebuilt only once the
 * settling time has passed since the loss was found (until then: 503). A node that crashed after
 * taking a unit leaves it counted: the error is on the safe side.
 */
export class RedisQuota {
  constructor(
    private readonly counters: RedisCounters,
    private readonly settleMs: number,
  ) {}

  /** Takes one unit, or throws TIER_LIMIT_EXCEEDED; undefined for an unlimited quota (nothing to count). */
  async take(db: Db, caller: Caller, at: Date): Promise<QuotaTicket | undefined> {
    if (caller.quota === null) return undefined;
    if (caller.quota <= 0) throw quotaExceeded(caller);
    const month = quotaMonth(at);
    const name = `quota:${caller.orgId}:${month}`;
    let reading = await this.counters.take(name, at.getTime(), caller.quota);
    if (reading.count === -2) {
      if (reading.resetAt !== undefined && at.getTime() - reading.resetAt < this.settleMs) {
        const wait = Math.ceil((this.settleMs - (at.getTime() - reading.resetAt)) / 1000);
        throw new AppError(
          'SERVICE_UNAVAILABLE',
          'the monthly quota is being rebuilt after the shared counters (Redis) were reset; retry shortly',
          { headers: { 'Retry-After': String(Math.max(1, wait)) } },
        );
      }
      await this.counters.seed(name, await storedThisMonth(db, caller.orgId, month), QUOTA_TTL_MS);
      reading = await this.counters.take(name, at.getTime(), caller.quota);
    }
    if (reading.count === -1) throw quotaExceeded(caller);
    if (reading.count < 0) throw countersUnavailable('the quota counter could not be rebuilt');
    const epoch = reading.epoch;
    return {
      month,
      takenAt: performance.now(),
      commitWithinMs: this.settleMs / 2,
      release: () => this.counters.giveBack(name, epoch),
    };
  }
}

/**
 * Additions to the usage of organizations (organization, month, count) as one insert of a statement
 * made of several (infra/database.ts `InsertPart`): appended to usage_added, where no other
 * screening waits for them, and folded into `usage` by `foldUsage`.
 */
export function usageInsert(db: Db, rows: UsageAddition[]): InsertPart<'usage_added'> {
  return db.insertInto('usage_added').values(rows.map((r) => ({ org_id: r.orgId, month: r.month, count: r.count })));
}

/**
 * Moves the appended usage into the usage rows, in one statement: each appended row is deleted
 * and counted once, also when several nodes fold at the same time (a row another one deleted first
 * is skipped). PostgreSQL only: SQLite adds to the usage row itself (`addUsage`).
 */
export async function foldUsage(db: Db): Promise<number> {
  if (!isPostgres(db)) return 0;
  const result = await sql`with moved as (delete from usage_added returning org_id, month, count)
    insert into usage (org_id, month, count)
      select org_id, month, sum(count) from moved group by org_id, month
    on conflict (org_id, month) do update set count = usage.count + excluded.count`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** What a group commit adds to an organization's usage of a month. */
export interface UsageAddition {
  orgId: string;
  month: string;
  count: number;
}

/**
 * Adds committed screenings to the organization's usage: once per organization and group commit,
 * not per screening. On PostgreSQL appended to usage_added (`usageInsert`): several nodes' group
 * commits never wait for one another's usage row.
 */
export async function addUsage(db: Db, trx: Db, addition: UsageAddition): Promise<void> {
  if (isPostgres(db)) await usageInsert(trx, [addition]).execute();
  else await queries(db).add.execute(addition, trx);
}

/** Throws when a screening's unit was taken too long ago to be sure Redis still counts it (see RedisQuota). */
export function assertTicketFresh(ticket: QuotaTicket): void {
  if (performance.now() - ticket.takenAt > ticket.commitWithinMs) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'the screening could not be stored in time to be counted against the monthly quota; nothing was stored, retry',
      { headers: { 'Retry-After': '1' } },
    );
  }
}
