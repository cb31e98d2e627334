import { AppError, notFound } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { listLabels } from '../monitoring/alert-rules.js';
import { attemptDelivery, claimLeaseMs, type DeliveryWorkerDeps } from './delivery-worker.js';
import { claimDelivery, enqueueDelivery } from './delivery-store.js';
import { serializeEvent } from './payload.js';

/** Administration of an organization's webhook: test sends and resuming after a pause. */

async function requireOrg(deps: DeliveryWorkerDeps, slug: string) {
  const org = await deps.database.db
    .selectFrom('organizations')
    .selectAll()
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!org) throw notFound(`organization "${slug}"`);
  return org;
}

export interface TestSendResult {
  org: string;
  deliveryId: string;
  url: string;
  delivered: boolean;
  status: number | null;
  error: string | null;
}

/**
 * `sanctions webhooks test`: sends a sample alert.created at once, marked `X-Service-Test: true`, signed
 * like a real event. It is recorded as a delivery but never retried and never counts toward pausing,
 * so it can check a receiver before a paused webhook is resumed.
 */
export async function sendTestWebhook(deps: DeliveryWorkerDeps, slug: string): Promise<TestSendResult> {
  const org = await requireOrg(deps, slug);
  if (!org.webhook_url)
    throw new AppError('VALIDATION_ERROR', `organization "${slug}" has no webhook URL (orgs update --webhook-url)`, {
      field: 'webhook-url',
    });
  if (!org.webhook_secret)
    throw new AppError(
      'VALIDATION_ERROR',
      `organization "${slug}" has no webhook secret (orgs update --webhook-secret)`,
      { field: 'webhook-secret' },
    );
  const now = deps.clock.now();
  const timestamp = now.toISOString();
  const payload = serializeEvent('alert.created', timestamp, org, {
    id: newId('alt', now.getTime()),
    monitorId: newId('mon', now.getTime()),
    entityId: 'un_csl:TEST-0001',
    entityName: 'Test Entity (webhook test send)',
    oldRiskScore: 0,
    newRiskScore: 92,
    oldRiskLevel: 'low',
    newRiskLevel: 'high',
    oldSources: [],
    newSources: ['un_csl'],
    oldLists: [],
    newLists: listLabels(['un_csl']),
    reasons: ['risk_level_changed', 'threshold_crossed', 'source_added'],
    timestamp,
    resolvedAt: null,
  });
  const db = deps.database.db;
  const id = await enqueueDelivery(db, {
    orgId: org.id,
    alertId: null,
    event: 'alert.created',
    payload,
    isTest: true,
    now,
  });
  const claimed = await claimDelivery(db, { id, now, nodeId: deps.nodeId, leaseMs: claimLeaseMs(deps.config) });
  if (!claimed) throw new AppError('INTERNAL_ERROR', 'the test delivery could not be claimed');
  const outcome = await attemptDelivery(deps, claimed);
  return {
    org: org.slug,
    deliveryId: id,
    url: org.webhook_url,
    delivered: outcome.state === 'delivered',
    status: outcome.status,
    error: outcome.error,
  };
}

export interface ResumeResult {
  org: string;
  wasPaused: boolean;
  /** Deliveries held during the pause, now due at once. */
  released: number;
}

/**
 * `sanctions webhooks resume`: clears the pause and the failure run, and makes every held delivery due
 * now; the delivery workers send them on their next round.
 */
export async function resumeWebhook(
  deps: Pick<DeliveryWorkerDeps, 'database' | 'clock'>,
  slug: string,
): Promise<ResumeResult> {
  const db = deps.database.db;
  const org = await db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (!org) throw notFound(`organization "${slug}"`);
  const now = deps.clock.now().toISOString();
  const released = await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('organizations')
      .set({ webhook_paused_at: null, webhook_failures: 0, updated_at: now })
      .where('id', '=', org.id)
      .execute();
    const result = await trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now })
      .where('org_id', '=', org.id)
      .where('state', '=', 'pending')
      .where('is_test', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
  return { org: org.slug, wasPaused: org.webhook_paused_at !== null, released };
}

export interface WebhookStatus {
  org: string;
  url: string | null;
  secretSet: boolean;
  paused: boolean;
  pausedAt: string | null;
  consecutiveFailures: number;
  pending: number;
  delivered: number;
  failed: number;
}

export async function webhookStatus(deps: Pick<DeliveryWorkerDeps, 'database'>, slug: string): Promise<WebhookStatus> {
  const db = deps.database.db;
  const org = await db.selectFrom('organizations').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (!org) throw notFound(`organization "${slug}"`);
  const counts = await db
    .selectFrom('webhook_deliveries')
    .select(['state', (eb) => eb.fn.countAll().as('n')])
    .where('org_id', '=', org.id)
    .where('is_test', '=', 0)
    .groupBy('state')
    .execute();
  const count = (state: string) => Number(counts.find((c) => c.state === state)?.n ?? 0);
  return {
    org: org.slug,
    url: org.webhook_url,
    secretSet: org.webhook_secret !== null,
    paused: org.webhook_paused_at !== null,
    pausedAt: org.webhook_paused_at,
    consecutiveFailures: org.webhook_failures,
    pending: count('pending'),
    delivered: count('delivered'),
    failed: count('failed'),
  };
}
