import { sql } from 'kysely';
import type { Clock } from './clock.js';
import type { Db } from './database.js';
import { AppError } from './errors.js';
import { prepareQuery, preparedFor } from './prepared-query.js';
import type { RedisCounters } from './redis-counters.js';

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

export interface RateLimiter {
  hit(bucket: string, limit: number): Promise<RateLimitState>;
}

function state(count: number, limit: number, window: number, nowSeconds: number): RateLimitState {
  const resetAt = (window + 1) * WINDOW_SECONDS;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfter: Math.max(1, resetAt - nowSeconds),
  };
}

/**
 * Counters in process memory, for the embedded SQLite deployment, which is one process by design:
 * there is no other node to share them with, and a database write per request would cost a disk
 * sync. The windows are the same fixed minutes as the shared limiter's.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { window: number; count: number }>();
  private lastPrune = 0;

  constructor(private readonly clock: Clock) {}

  async hit(bucket: string, limit: number): Promise<RateLimitState> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const window = Math.floor(nowSeconds / WINDOW_SECONDS);
    if (window !== this.lastPrune) {
      for (const [key, value] of this.buckets) if (value.window < window) this.buckets.delete(key);
      this.lastPrune = window;
    }
    const entry = this.buckets.get(bucket);
    const count = entry && entry.window === window ? entry.count + 1 : 1;
    this.buckets.set(bucket, { window, count });
    return state(count, limit, window, nowSeconds);
  }
}

// Run on every request on PostgreSQL: built and compiled once per database.
const queries = preparedFor((db) => ({
  hit: prepareQuery(
    db,
    (_db, p: { bucket: string; window: number }) => sql<{ count: number; window_start: number }>`
      insert into rate_limits (bucket, window_start, count) values (${p.bucket}, ${p.window}, 1)
      on conflict (bucket) do update set
        count = case when rate_limits.window_start = excluded.window_start then rate_limits.count + 1 else 1 end,
        window_start = excluded.window_start
      returning count, window_start`,
  ),
}));

/**
 * Fixed one-minute windows counted in the database, so every node of a deployment that shares the
 * database enforces one limit (DECISIONS.md: "enforced across all nodes"). One row per bucket,
 * updated in place with an atomic upsert that both SQLite and PostgreSQL understand.
 */
export class SharedRateLimiter implements RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async hit(bucket: string, limit: number): Promise<RateLimitState> {
    const nowSeconds = Math.floor(this.clock.now().getTime() / 1000);
    const window = Math.floor(nowSeconds / WINDOW_SECONDS);
    const row = await queries(this.db).hit.first({ bucket, window });
    return state(Number(row?.count ?? 1), limit, window, nowSeconds);
  }

  /** Drops buckets of windows that ended long ago (failed-auth buckets per address accumulate). */
  async prune(): Promise<number> {
    const window = Math.floor(this.clock.now().getTime() / 1000 / WINDOW_SECONDS);
    const result = await this.db
      .deleteFrom('rate_limits')
      .where('window_start', '<', window - 60)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * Fixed one-minute windows counted in Redis (REDIS_URL): one atomic increment per request, shared by
 * every node, and no row in the database that every request of a key must update in turn.
 * Redis lost its counts during the current minute (a restart): what was admitted earlier in the
 * minute is unknown, so requests are refused with 503 until the next minute begins; never admitted
 * past the limit.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly counters: RedisCounters,
    private readonly clock: Clock,
  ) {}

  async hit(bucket: string, limit: number): Promise<RateLimitState> {
    const nowMs = this.clock.now().getTime();
    const nowSeconds = Math.floor(nowMs / 1000);
    const window = Math.floor(nowSeconds / WINDOW_SECONDS);
    // Kept two windows: a node whose clock is a little behind still counts into the same key.
    const reading = await this.counters.hit(`rl:${bucket}:${window}`, nowMs, 2 * WINDOW_SECONDS * 1000);
    const current = state(reading.count, limit, window, nowSeconds);
    if (reading.resetAt !== undefined && Math.floor(reading.resetAt / 1000 / WINDOW_SECONDS) === window) {
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'the shared request counters (Redis) were reset during this minute; requests are accepted again from the next minute',
        { headers: { 'Retry-After': String(current.retryAfter) } },
      );
    }
    return current;
  }
}

/**
 * Per-address limits (public routes, failed authentication) when Redis cannot answer: counted on this
 * node alone rather than refused, so health checks and error answers keep working through an outage.
 */
export class FallbackRateLimiter implements RateLimiter {
  constructor(
    private readonly primary: RateLimiter,
    private readonly fallback: RateLimiter,
  ) {}

  async hit(bucket: string, limit: number): Promise<RateLimitState> {
    try {
      return await this.primary.hit(bucket, limit);
    } catch (error) {
      if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') return this.fallback.hit(bucket, limit);
      throw error;
    }
  }
}
