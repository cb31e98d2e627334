import type { Clock } from '../infra/clock.js';
import type { Log } from '../infra/context.js';
import type { Db } from '../infra/database.js';
import { TenantsStore } from './tenants-store.js';

/** A key's last use is written at most this often. */
export const KEY_USAGE_INTERVAL_MS = 60_000;

/**
 * Records when each API key was last used, at most once a minute per key: a map lookup on every
 * request, and one upsert per key and minute, gathered per turn of the event loop and never awaited
 * by the request. A write that fails is logged and tried again on the key's next use.
 */
export class KeyUsageRecorder {
  private readonly written = new Map<string, number>();
  private pending = new Map<string, string>();
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log?: Log,
  ) {}

  used(keyId: string): void {
    const now = this.clock.now();
    const last = this.written.get(keyId);
    if (last !== undefined && now.getTime() - last < KEY_USAGE_INTERVAL_MS) return;
    this.written.set(keyId, now.getTime());
    this.pending.set(keyId, now.toISOString());
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  /** Writes what is pending now (tests and shutdown call it to have it written before they go on). */
  async flush(): Promise<void> {
    this.scheduled = false;
    const uses = [...this.pending].map(([keyId, at]) => ({ keyId, at }));
    this.pending = new Map();
    if (uses.length === 0) return;
    try {
      await new TenantsStore(this.db).touchKeys(uses);
    } catch (error) {
      for (const use of uses) this.written.delete(use.keyId);
      this.log?.('warn', 'recording API key use failed', { err: String(error) });
    }
  }
}
