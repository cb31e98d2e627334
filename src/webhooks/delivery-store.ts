import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database, WebhookDeliveriesTable } from '../infra/db-schema.js';
import type { DatabaseHandle } from '../infra/database.js';
import { newId } from '../infra/ids.js';
import type { WebhookEvent } from './payload.js';

/**
 * The outbox of webhook deliveries. A delivery row is written in the transaction that creates its
 * event, so an event is never lost; a worker on any node claims due rows with a lease
 * (claimed_until), so a node that dies mid-delivery only delays it until the lease runs out.
 *
 * States: pending (due at next_attempt_at; held while the organization's webhook is paused),
 * delivered, failed (retries exhausted, or no webhook URL any more).
 *
 * This module owns the webhook_deliveries and webhook_attempts tables. The claim statement reads the
 * organization's pause state in the same statement, so that a paused webhook's rows are never claimed.
 */

export type DeliveryRow = WebhookDeliveriesTable;
export type DeliveryState = 'pending' | 'delivered' | 'failed';
type Executor = Kysely<Database> | Transaction<Database>;

export async function enqueueDelivery(
  db: Executor,
  input: { orgId: string; alertId: string | null; event: WebhookEvent; payload: string; isTest: boolean; now: Date },
): Promise<string> {
  const id = newId('whd', input.now);
  await db
    .insertInto('webhook_deliveries')
    .values({
      id,
      org_id: input.orgId,
      alert_id: input.alertId,
      event: input.event,
      payload: input.payload,
      is_test: input.isTest ? 1 : 0,
      state: 'pending',
      attempts: 0,
      next_attempt_at: input.now.toISOString(),
      claimed_until: null,
      claimed_by: null,
      last_status: null,
      last_error: null,
      created_at: input.now.toISOString(),
      delivered_at: null,
    })
    .execute();
  return id;
}

/**
 * Claims up to `limit` due deliveries of organizations whose webhook is not paused, in one statement.
 * On PostgreSQL the candidate rows are locked with FOR UPDATE SKIP LOCKED, so two nodes claiming at
 * the same moment take different rows; on SQLite the single statement is atomic on its own.
 */
export async function claimDueDeliveries(
  database: DatabaseHandle,
  input: { now: Date; nodeId: string; leaseMs: number; limit: number; testsOnly?: boolean },
): Promise<DeliveryRow[]> {
  const now = input.now.toISOString();
  const until = new Date(input.now.getTime() + input.leaseMs).toISOString();
  const candidates = sql`
      select d.id from webhook_deliveries d join organizations o on o.id = d.org_id
      where d.state = 'pending' and d.is_test = 0 and d.next_attempt_at <= ${now}
        and (d.claimed_until is null or d.claimed_until < ${now})
        and o.webhook_paused_at is null
      order by d.next_attempt_at, d.id
      limit ${input.limit}`;
  const claim = sql`update webhook_deliveries set claimed_until = ${until}, claimed_by = ${input.nodeId}`;
  // On PostgreSQL the candidates are locked in a materialized CTE: as a subquery of the UPDATE the
  // planner may run them again for each row it updates, each run skipping the rows this statement
  // has just locked and taking the next, so that one claim took every due delivery (see
  // BatchStore.claim). On SQLite one statement is atomic and its subquery runs once.
  const result = await (
    database.engine === 'postgres'
      ? sql<DeliveryRow>`
    with picked as materialized (${candidates} for update of d skip locked)
    ${claim} where id in (select id from picked)
    returning *`
      : sql<DeliveryRow>`${claim} where id in (${candidates}) returning *`
  ).execute(database.db);
  return result.rows;
}

/** Claims one delivery by id (test sends, which go out at once whatever the pause state). */
export async function claimDelivery(
  db: Executor,
  input: { id: string; now: Date; nodeId: string; leaseMs: number },
): Promise<DeliveryRow | undefined> {
  const now = input.now.toISOString();
  return db
    .updateTable('webhook_deliveries')
    .set({ claimed_until: new Date(input.now.getTime() + input.leaseMs).toISOString(), claimed_by: input.nodeId })
    .where('id', '=', input.id)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returningAll()
    .executeTakeFirst();
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  startedAt: Date;
  durationMs: number;
}

/**
 * Records one attempt, in the caller's transaction: the attempt row and the delivery's next state
 * (delivered, retry at the next step of the schedule, or failed when the schedule is used up). Test
 * sends are never retried. Returns the new state.
 */
export async function recordAttempt(
  trx: Executor,
  delivery: DeliveryRow,
  outcome: AttemptOutcome,
  retryDelaysMs: readonly number[],
  nodeId: string,
  now: Date,
): Promise<DeliveryState> {
  const attempt = delivery.attempts + 1;
  let state: DeliveryState;
  let nextAttemptAt = delivery.next_attempt_at;
  if (outcome.ok) state = 'delivered';
  else if (delivery.is_test !== 1 && attempt <= retryDelaysMs.length) {
    state = 'pending';
    nextAttemptAt = new Date(now.getTime() + (retryDelaysMs[attempt - 1] as number)).toISOString();
  } else state = 'failed';

  await trx
    .insertInto('webhook_attempts')
    .values({
      id: newId('wha', outcome.startedAt),
      delivery_id: delivery.id,
      attempt,
      started_at: outcome.startedAt.toISOString(),
      duration_ms: outcome.durationMs,
      status: outcome.status,
      error: outcome.error,
    })
    .execute();
  await trx
    .updateTable('webhook_deliveries')
    .set({
      state,
      attempts: attempt,
      next_attempt_at: nextAttemptAt,
      claimed_until: null,
      claimed_by: null,
      last_status: outcome.status,
      last_error: outcome.error,
      delivered_at: outcome.ok ? now.toISOString() : null,
    })
    .where('id', '=', delivery.id)
    .where('claimed_by', '=', nodeId)
    .execute();
  return state;
}

/** Makes every held delivery of an organization due now (its webhook was resumed); returns how many. */
export async function releaseHeldDeliveries(trx: Executor, orgId: string, now: Date): Promise<number> {
  const result = await trx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now.toISOString() })
    .where('org_id', '=', orgId)
    .where('state', '=', 'pending')
    .where('is_test', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** An organization's deliveries (test sends aside) by state. */
export async function deliveryCounts(db: Executor, orgId: string): Promise<Record<DeliveryState, number>> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['state', (eb) => eb.fn.countAll().as('n')])
    .where('org_id', '=', orgId)
    .where('is_test', '=', 0)
    .groupBy('state')
    .execute();
  const count = (state: DeliveryState) => Number(rows.find((r) => r.state === state)?.n ?? 0);
  return { pending: count('pending'), delivered: count('delivered'), failed: count('failed') };
}

/** Marks a delivery failed without an attempt (the organization no longer has a webhook URL). */
export async function abandonDelivery(
  db: Executor,
  delivery: DeliveryRow,
  nodeId: string,
  reason: string,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ state: 'failed', claimed_until: null, claimed_by: null, last_error: reason })
    .where('id', '=', delivery.id)
    .where('claimed_by', '=', nodeId)
    .execute();
}

/** An organization's latest deliveries, test sends included, newest first, each with its attempts in order. */
export async function recentDeliveries(db: Executor, orgId: string, limit: number) {
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'event',
      'is_test',
      'state',
      'attempts',
      'next_attempt_at',
      'last_status',
      'last_error',
      'created_at',
      'delivered_at',
    ])
    .where('org_id', '=', orgId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const ids = deliveries.map((d) => d.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .select(['delivery_id', 'attempt', 'started_at', 'duration_ms', 'status', 'error'])
          .where('delivery_id', 'in', ids)
          .orderBy('delivery_id')
          .orderBy('attempt')
          .execute();
  return deliveries.map((d) => ({ ...d, attemptLog: attempts.filter((a) => a.delivery_id === d.id) }));
}

/**
 * The outbox's backlog for /metrics: deliveries due now and not sent (paused webhooks hold theirs on
 * purpose and are left out), and how long the oldest of them has existed, in seconds.
 */
export async function outboxBacklog(db: Executor, now: Date): Promise<{ due: number; oldestAgeSeconds: number }> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('organizations as o', 'o.id', 'd.org_id')
    .select((eb) => [eb.fn.countAll<number>().as('due'), eb.fn.min('d.created_at').as('oldest')])
    .where('d.state', '=', 'pending')
    .where('d.is_test', '=', 0)
    .where('d.next_attempt_at', '<=', now.toISOString())
    .where('o.webhook_paused_at', 'is', null)
    .executeTakeFirst();
  const oldest = row?.oldest ? new Date(String(row.oldest)).getTime() : undefined;
  return {
    due: Number(row?.due ?? 0),
    oldestAgeSeconds: oldest === undefined ? 0 : Math.max(0, Math.round((now.getTime() - oldest) / 1000)),
  };
}

/** Gives up the claims of a node that stops (none of its attempts runs any more): other nodes may send them at once. */
export async function releaseClaims(db: Executor, nodeId: string): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ claimed_until: null, claimed_by: null })
    .where('claimed_by', '=', nodeId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
