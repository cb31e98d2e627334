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
 */

export type DeliveryRow = WebhookDeliveriesTable;
type Executor = Kysely<Database> | Transaction<Database>;

export async function enqueueDelivery(
  db: Executor,
  input: { orgId: string; alertId: string | null; event: WebhookEvent; payload: string; isTest: boolean; now: Date },
): Promise<string> {
  const id = newId('whd', input.now.getTime());
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
  const lock = database.engine === 'postgres' ? sql.raw('for update of d skip locked') : sql.raw('');
  const result = await sql<DeliveryRow>`
    update webhook_deliveries set claimed_until = ${until}, claimed_by = ${input.nodeId}
    where id in (
      select d.id from webhook_deliveries d join organizations o on o.id = d.org_id
      where d.state = 'pending' and d.is_test = 0 and d.next_attempt_at <= ${now}
        and (d.claimed_until is null or d.claimed_until < ${now})
        and o.webhook_paused_at is null
      order by d.next_attempt_at, d.id
      limit ${input.limit}
      ${lock}
    )
    returning *`.execute(database.db);
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

export interface AttemptRules {
  retryDelaysMs: readonly number[];
  pauseAfterFailures: number;
}

/**
 * Records one attempt: the attempt row, the delivery's next state (delivered, retry at the next step of
 * the schedule, or failed), and the organization's run of consecutive failures, which pauses its
 * webhook when it reaches the limit (api-v1.md 6.4). Test sends touch neither retries nor the run.
 */
export async function recordAttempt(
  db: Kysely<Database>,
  delivery: DeliveryRow,
  outcome: AttemptOutcome,
  rules: AttemptRules,
  nodeId: string,
  now: Date,
): Promise<{ state: string; paused: boolean }> {
  const attempt = delivery.attempts + 1;
  const isTest = delivery.is_test === 1;
  let state: string;
  let nextAttemptAt = delivery.next_attempt_at;
  if (outcome.ok) state = 'delivered';
  else if (!isTest && attempt <= rules.retryDelaysMs.length) {
    state = 'pending';
    nextAttemptAt = new Date(now.getTime() + (rules.retryDelaysMs[attempt - 1] as number)).toISOString();
  } else state = 'failed';

  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        id: newId('wha', outcome.startedAt.getTime()),
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
    if (isTest) return { state, paused: false };
    if (outcome.ok) {
      await trx.updateTable('organizations').set({ webhook_failures: 0 }).where('id', '=', delivery.org_id).execute();
      return { state, paused: false };
    }
    const org = await trx
      .updateTable('organizations')
      .set((eb) => ({ webhook_failures: eb('webhook_failures', '+', 1) }))
      .where('id', '=', delivery.org_id)
      .returning(['webhook_failures', 'webhook_paused_at'])
      .executeTakeFirst();
    if (org && org.webhook_paused_at === null && org.webhook_failures >= rules.pauseAfterFailures) {
      await trx
        .updateTable('organizations')
        .set({ webhook_paused_at: now.toISOString() })
        .where('id', '=', delivery.org_id)
        .where('webhook_paused_at', 'is', null)
        .execute();
      return { state, paused: true };
    }
    return { state, paused: false };
  });
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
