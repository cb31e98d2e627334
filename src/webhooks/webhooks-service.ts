import type { Call } from '../infra/context.js';
import { AppError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { listLabels } from '../lists/index.js';
import { requireOrg, TenantsStore } from '../tenants/index.js';
import { attemptDelivery, claimLeaseMs, type DeliveryWorkerDeps } from './delivery-worker.js';
import {
  claimDelivery,
  deliveryCounts,
  enqueueDelivery,
  recentDeliveries,
  releaseHeldDeliveries,
} from './delivery-store.js';
import { serializeEvent } from './payload.js';

/** Administration of an organization's webhook: test sends, resuming after a pause, status. */

export interface TestSendResult {
  org: string;
  deliveryId: string;
  url: string;
  delivered: boolean;
  status: number | null;
  error: string | null;
}

export interface ResumeResult {
  org: string;
  wasPaused: boolean;
  /** Deliveries held during the pause, now due at once. */
  released: number;
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

export type WebhooksService = ReturnType<typeof webhooksService>;

/** `deps` are the delivery worker's: a test send goes out through the same path as real events. */
export function webhooksService(deps: DeliveryWorkerDeps) {
  return {
    /**
     * `sanctions webhooks test`: sends a sample alert.created at once, marked `X-Service-Test: true`,
     * signed like a real event. It is recorded as a delivery but never retried and never counts
     * toward pausing, so it can check a receiver before a paused webhook is resumed.
     */
    async sendTest({ ctx, input }: Call<{ org: string }>): Promise<TestSendResult> {
      const org = await requireOrg(new TenantsStore(ctx.db), input.org);
      if (!org.webhook_url)
        throw new AppError(
          'VALIDATION_ERROR',
          `organization "${input.org}" has no webhook URL (orgs update --webhook-url)`,
          { field: 'webhook-url' },
        );
      if (!org.webhook_secret)
        throw new AppError(
          'VALIDATION_ERROR',
          `organization "${input.org}" has no webhook secret (orgs update --webhook-secret)`,
          { field: 'webhook-secret' },
        );
      const now = ctx.clock.now();
      const timestamp = now.toISOString();
      const payload = serializeEvent('alert.created', timestamp, org, {
        id: newId('alt', now),
        monitorId: newId('mon', now),
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
      const id = await enqueueDelivery(ctx.db, {
        orgId: org.id,
        alertId: null,
        event: 'alert.created',
        payload,
        isTest: true,
        now,
      });
      const claimed = await claimDelivery(ctx.db, {
        id,
        now,
        nodeId: deps.nodeId,
        leaseMs: claimLeaseMs(deps.config),
      });
      if (!claimed) throw new AppError('INTERNAL_ERROR', 'the test delivery could not be claimed');
      const outcome = await attemptDelivery({ ...deps, clock: ctx.clock }, claimed);
      return {
        org: org.slug,
        deliveryId: id,
        url: org.webhook_url,
        delivered: outcome.state === 'delivered',
        status: outcome.status,
        error: outcome.error,
      };
    },

    /**
     * `sanctions webhooks resume`: clears the pause and the failure run, and makes every held delivery
     * due now; the delivery job sends them on its next round.
     */
    async resume({ ctx, input }: Call<{ org: string }>): Promise<ResumeResult> {
      const org = await requireOrg(new TenantsStore(ctx.db), input.org);
      const now = ctx.clock.now();
      const released = await ctx.db.transaction().execute(async (trx) => {
        await new TenantsStore(trx).resumeWebhook(org.id, now.toISOString());
        return releaseHeldDeliveries(trx, org.id, now);
      });
      return { org: org.slug, wasPaused: org.webhook_paused_at !== null, released };
    },

    /** The delivery log of the console: the latest deliveries with every attempt's time, status and error. */
    async deliveries({ ctx, input }: Call<{ org: string; limit?: number }>) {
      const org = await requireOrg(new TenantsStore(ctx.db), input.org);
      const rows = await recentDeliveries(ctx.db, org.id, Math.min(Math.max(input.limit ?? 50, 1), 500));
      return rows.map((d) => ({
        id: d.id,
        event: d.event,
        test: d.is_test === 1,
        state: d.state,
        attempts: d.attempts,
        nextAttemptAt: d.state === 'pending' ? d.next_attempt_at : null,
        lastStatus: d.last_status,
        lastError: d.last_error,
        createdAt: d.created_at,
        deliveredAt: d.delivered_at,
        attemptLog: d.attemptLog.map((a) => ({
          attempt: a.attempt,
          startedAt: a.started_at,
          durationMs: a.duration_ms,
          status: a.status,
          error: a.error,
        })),
      }));
    },

    async status({ ctx, input }: Call<{ org: string }>): Promise<WebhookStatus> {
      const org = await requireOrg(new TenantsStore(ctx.db), input.org);
      const counts = await deliveryCounts(ctx.db, org.id);
      return {
        org: org.slug,
        url: org.webhook_url,
        secretSet: org.webhook_secret !== null,
        paused: org.webhook_paused_at !== null,
        pausedAt: org.webhook_paused_at,
        consecutiveFailures: org.webhook_failures,
        ...counts,
      };
    },
  };
}
