import { sql } from 'kysely';
import type { Clock } from './clock.js';
import type { Db } from './database.js';

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time in seconds at which the window resets. */
  resetAt: number;
  /** Seconds until reset, for Retry-After. */
  retryAfter: number;
}

const WINDOW_SECONDS = 60;

/**
 * Fixed one-minute windows counted in the database, so every node of a deployment that shares the
 * database enforces one limit (DECISIONS.md: "enforced across all nodes"). One row per bucket,
 * updated in place with an atomic upsert that both SQLite and PostgreSQL understand.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async hit(bucket: string, limit: number): Promise<RateLimitState> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const window = Math.floor(nowSeconds / WINDOW_SECONDS);
    const result = await sql<{ count: number; window_start: number }>`
      insert into rate_limits (bucket, window_start, count) values (${bucket}, ${window}, 1)
      on conflict (bucket) do update set
        count = case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end,
        window_start = excluded.window_start
      returning count, window_start`.execute(this.db);
    const count = Number(result.rows[0]?.count ?? 1);
    const resetAt = (window + 1) * WINDOW_SECONDS;
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt,
      retryAfter: Math.max(1, resetAt - nowSeconds),
    };
  }

  /** Drops buckets of windows that ended long ago (failed-auth buckets per address accumulate). */
  async prune(): Promise<number> {
    const window = Math.floor(this.clock.now().getTime() / 1000 / WINDOW_SECONDS);
    const result = await this.db.deleteFrom('rate_limits').where('window_start', '<', window - 60).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
