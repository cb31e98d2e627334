import type { Clock } from '../infra/clock.js';
import type { WebhookConfig } from '../infra/config.js';
import type { DatabaseHandle } from '../infra/database.js';
import { abandonDelivery, claimDueDeliveries, type DeliveryRow, recordAttempt } from './delivery-store.js';
import { sendWebhook } from './sender.js';
import { signPayload } from './signature.js';

export interface DeliveryWorkerDeps {
  database: DatabaseHandle;
  clock: Clock;
  config: WebhookConfig;
  nodeId: string;
  log?: (level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) => void;
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

/** Sends one claimed delivery and records the outcome. */
export async function attemptDelivery(
  deps: DeliveryWorkerDeps,
  delivery: DeliveryRow,
): Promise<{ state: string; paused: boolean; status: number | null; error: string | null }> {
  const db = deps.database.db;
  const org = await db
    .selectFrom('organizations')
    .select(['webhook_url', 'webhook_secret'])
    .where('id', '=', delivery.org_id)
    .executeTakeFirst();
  if (!org?.webhook_url) {
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
  const result = org.webhook_secret
    ? await sendWebhook({
        url: org.webhook_url,
        body: delivery.payload,
        headers: { ...headers, 'X-Service-Signature': signPayload(org.webhook_secret, delivery.payload) },
        timeoutMs: deps.config.timeoutMs,
        allowPrivateAddresses: deps.config.allowPrivateAddresses,
      })
    : { ok: false, status: null, error: 'the organization has no webhook secret', durationMs: 0 };
  const recorded = await recordAttempt(
    db,
    delivery,
    { ok: result.ok, status: result.status, error: result.error, startedAt, durationMs: result.durationMs },
    { retryDelaysMs: deps.config.retryDelaysMs, pauseAfterFailures: deps.config.pauseAfterFailures },
    deps.nodeId,
    deps.clock.now(),
  );
  const level = result.ok ? 'info' : 'warn';
  deps.log?.(level, 'webhook attempt', {
    delivery: delivery.id,
    org: delivery.org_id,
    event: delivery.event,
    attempt: delivery.attempts + 1,
    status: result.status,
    error: result.error,
    state: recorded.state,
  });
  if (recorded.paused) deps.log?.('warn', 'webhook paused after consecutive failures', { org: delivery.org_id });
  return { ...recorded, status: result.status, error: result.error };
}

/**
 * Polls the outbox and sends due deliveries. Every node runs one; claims keep them from sending one
 * delivery twice at once. `kick()` runs a round soon (after an event was written by this node).
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private again = false;
  private stopped = false;

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.deps.config.pollIntervalMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.runUntilIdle().catch((error) =>
      this.deps.log?.('error', 'webhook worker failed', { err: String(error) }),
    );
  }

  /** Runs rounds until nothing is due; resolves with the number of attempts made. */
  runUntilIdle(): Promise<number> {
    if (this.running) return this.running.then(() => this.runUntilIdle());
    this.running = (async () => {
      let total = 0;
      try {
        for (;;) {
          this.again = false;
          const n = await this.runOnce();
          total += n;
          if ((n < CONCURRENCY && !this.again) || this.stopped) break;
        }
      } finally {
        this.running = undefined;
      }
      return total;
    })();
    return this.running;
  }

  /** One round: claim up to CONCURRENCY due deliveries and attempt them all. */
  async runOnce(): Promise<number> {
    const claimed = await claimDueDeliveries(this.deps.database, {
      now: this.deps.clock.now(),
      nodeId: this.deps.nodeId,
      leaseMs: claimLeaseMs(this.deps.config),
      limit: CONCURRENCY,
    });
    await Promise.all(
      claimed.map((d) =>
        attemptDelivery(this.deps, d).catch((error) =>
          this.deps.log?.('error', 'webhook attempt could not be recorded', { delivery: d.id, err: String(error) }),
        ),
      ),
    );
    return claimed.length;
  }
}
