import type { Clock } from '../infra/clock.js';
import type { WebhookConfig } from '../infra/config.js';
import type { Log } from '../infra/context.js';
import type { DatabaseHandle } from '../infra/database.js';
import { observeDelivery } from '../infra/metrics.js';
import { PollingJob } from '../infra/polling-job.js';
import type { SecretBox } from '../infra/secrets.js';
import { TenantsStore } from '../tenants/index.js';
import { abandonDelivery, claimDueDeliveries, type DeliveryRow, recordAttempt } from './delivery-store.js';
import { sendWebhook } from './sender.js';
import { signPayload } from './signature.js';

export interface DeliveryWorkerDeps {
  database: DatabaseHandle;
  clock: Clock;
  config: WebhookConfig;
  nodeId: string;
  log?: Log;
  /** Opens webhook secrets sealed at rest (SECRET_KEY); clear-text secrets need none. */
  secrets?: SecretBox;
}

/** The organization's webhook secret in clear, or why it cannot be had. */
function openSecret(deps: DeliveryWorkerDeps, stored: string | null): { secret?: string; error?: string } {
  if (stored === null) return { error: 'the organization has no webhook secret' };
  try {
    return { secret: deps.secrets ? deps.secrets.open(stored) : stored };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Deliveries sent at once by one node. */
const CONCURRENCY = 10;

/**
 * How long a claim lasts: longer than one attempt can take, so a live node never loses its claim
 * mid-send, short enough that a dead node's claim soon passes to another node.
 */
export function claimLeaseMs(config: WebhookConfig): number {
  return config.timeoutMs * 2 + 1_000;
}

export interface AttemptResult {
  state: string;
  paused: boolean;
  status: number | null;
  error: string | null;
}

/**
 * Sends one claimed delivery and records the outcome: the attempt and the delivery's next state, and
 * the organization's run of consecutive failures, which pauses its webhook when it reaches the limit
 * (api-v1.md 6.4), in one transaction. Test sends touch neither retries nor the run.
 */
export async function attemptDelivery(deps: DeliveryWorkerDeps, delivery: DeliveryRow): Promise<AttemptResult> {
  const db = deps.database.db;
  const target = await new TenantsStore(db).webhookTarget(delivery.org_id);
  if (!target?.webhook_url) {
    await abandonDelivery(db, delivery, deps.nodeId, 'the organization has no webhook URL');
    return { state: 'failed', paused: false, status: null, error: 'no webhook URL' };
  }
  const startedAt = deps.clock.now();
  const headers: Record<string, string> = {
    'X-Service-Event': delivery.event,
    'X-Service-Delivery': delivery.id,
  };
  if (delivery.is_test === 1) headers['X-Service-Test'] = 'true';
  // Never send an unsigned event: a receiver could not tell it from a forgery.
  const { secret, error: secretError } = openSecret(deps, target.webhook_secret);
  const result =
    secret !== undefined
      ? await sendWebhook({
          url: target.webhook_url,
          body: delivery.payload,
          headers: { ...headers, 'X-Service-Signature': signPayload(secret, delivery.payload) },
          timeoutMs: deps.config.timeoutMs,
          allowPrivateAddresses: deps.config.allowPrivateAddresses,
        })
      : { ok: false, status: null, error: secretError ?? 'no webhook secret', durationMs: 0 };
  const now = deps.clock.now();
  const outcome = {
    ok: result.ok,
    status: result.status,
    error: result.error,
    startedAt,
    durationMs: result.durationMs,
  };
  const recorded = await db.transaction().execute(async (trx) => {
    const state = await recordAttempt(trx, delivery, outcome, deps.config.retryDelaysMs, deps.nodeId, now);
    if (delivery.is_test === 1) return { state, paused: false };
    const tenants = new TenantsStore(trx);
    if (result.ok) {
      await tenants.clearWebhookFailures(delivery.org_id);
      return { state, paused: false };
    }
    const paused = await tenants.countWebhookFailure(
      delivery.org_id,
      deps.config.pauseAfterFailures,
      now.toISOString(),
    );
    return { state, paused };
  });
  deps.log?.(result.ok ? 'info' : 'warn', 'webhook attempt', {
    delivery: delivery.id,
    org: delivery.org_id,
    event: delivery.event,
    attempt: delivery.attempts + 1,
    status: result.status,
    error: result.error,
    state: recorded.state,
  });
  observeDelivery(result.ok ? 'delivered' : recorded.state === 'failed' ? 'failed' : 'retry', result.durationMs);
  if (recorded.paused) deps.log?.('warn', 'webhook paused after consecutive failures', { org: delivery.org_id });
  return { ...recorded, status: result.status, error: result.error };
}

/**
 * Sends due deliveries from the outbox. Every node runs one; claims keep two nodes from sending one
 * delivery at once. `job` polls every WEBHOOK_POLL_INTERVAL and is kicked when this node writes an
 * event; a round claims up to CONCURRENCY deliveries and another follows at once while rounds come
 * back full. `runUntilIdle` on the job resolves with the number of attempts made.
 */
export class DeliveryWorker {
  readonly job: PollingJob<number>;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.job = new PollingJob<number>({
      name: 'webhook deliveries',
      intervalMs: deps.config.pollIntervalMs,
      round: async () => {
        const attempts = await this.runOnce();
        return { more: attempts >= CONCURRENCY, report: attempts };
      },
      combine: (total, attempts) => (total ?? 0) + (attempts ?? 0),
      ...(deps.log ? { log: deps.log } : {}),
    });
  }

  /** One round: claim up to CONCURRENCY due deliveries and attempt them all; returns how many. */
  async runOnce(): Promise<number> {
    const claimed = await claimDueDeliveries(this.deps.database, {
      now: this.deps.clock.now(),
      nodeId: this.deps.nodeId,
      leaseMs: claimLeaseMs(this.deps.config),
      limit: CONCURRENCY,
    });
    await Promise.all(
      claimed.map((d) =>
        attemptDelivery(this.deps, d).catch((error: unknown) =>
          this.deps.log?.('error', 'webhook attempt could not be recorded', { delivery: d.id, err: String(error) }),
        ),
      ),
    );
    return claimed.length;
  }
}
