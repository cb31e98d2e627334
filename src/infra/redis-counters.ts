import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { RedisConfig } from './config.js';
import { AppError } from './errors.js';

/**
 * Counters shared by every node of a deployment, in Redis (REDIS_URL): the per-key limit of 60
 * requests a minute and the monthly quota (docs/multi-node.md). Each operation is one Lua script, so
 * a read and its increment are one atomic step on the Redis server: two nodes can never both take the
 * last unit.
 *
 * A Redis restart (or a failover to a replica that had not seen the latest writes) loses the counts.
 * Every script therefore also keeps an epoch: a random id set when the first script runs against an
 * empty Redis. A node remembers the epoch it last saw; a script run by a node that knew another epoch
 * records, once, the time at which the counts were found lost (`reset-at`). What the nodes do with it
 * (refuse for the rest of that minute; rebuild a quota from the database after a settling time) is in
 * rate-limiter.ts and tenants/quota.ts.
 */

/** Refused when Redis cannot answer: never admitted past a limit nobody could check. */
export function countersUnavailable(detail: string): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `the shared request counters (Redis) are not available (${detail}); retry shortly`,
    { headers: { 'Retry-After': '1' } },
  );
}

// KEYS[1] epoch, KEYS[2] reset-at; ARGV[1] the epoch this node knew ('' for none), ARGV[2] an epoch
// to set when there is none, ARGV[3] this node's time (ms). Returns the epoch and reset-at ('' for none).
const EPOCH = `
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  epoch = ARGV[2]
  redis.call('SET', KEYS[1], epoch)
end
if ARGV[1] ~= '' and ARGV[1] ~= epoch then
  redis.call('SET', KEYS[2], ARGV[3], 'NX')
end
local resetAt = redis.call('GET', KEYS[2]) or ''
`;

/** KEYS[3] the window's counter; ARGV[4] its time to live (ms). Returns {count, epoch, resetAt}. */
const HIT = `${EPOCH}
local count = redis.call('INCR', KEYS[3])
if count == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[4]) end
return {count, epoch, resetAt}`;

/**
 * KEYS[3] the month's counter; ARGV[4] the quota. Takes one unit below the quota. Returns
 * {count after, epoch, resetAt}; count -1 when the quota is used up, -2 when the counter is missing
 * (to be seeded from the database first).
 */
const TAKE = `${EPOCH}
local used = redis.call('GET', KEYS[3])
if not used then return {-2, epoch, resetAt} end
if tonumber(used) >= tonumber(ARGV[4]) then return {-1, epoch, resetAt} end
return {redis.call('INCR', KEYS[3]), epoch, resetAt}`;

/** KEYS[1] epoch, KEYS[2] the counter; ARGV[1] the epoch the unit was taken in. Gives it back there only. */
const GIVE_BACK = `
if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('EXISTS', KEYS[2]) == 1 then
  return redis.call('DECR', KEYS[2])
end
return -1`;

export interface CounterReading {
  count: number;
  /** The epoch the count was taken in. */
  epoch: string;
  /** When (node time, ms) a node found the counts lost; undefined when they never were in this epoch. */
  resetAt: number | undefined;
}

type ScriptReply = [number, string, string];

interface CounterCommands {
  counterHit(
    e: string,
    r: string,
    c: string,
    known: string,
    fresh: string,
    now: number,
    ttl: number,
  ): Promise<ScriptReply>;
  counterTake(
    e: string,
    r: string,
    c: string,
    known: string,
    fresh: string,
    now: number,
    q: number,
  ): Promise<ScriptReply>;
  counterGiveBack(e: string, c: string, epoch: string): Promise<number>;
}

export class RedisCounters {
  private readonly client: Redis & CounterCommands;
  private knownEpoch = '';

  constructor(private readonly config: RedisConfig) {
    const client = new Redis(config.url, {
      // A request waits at most about a second for Redis, then is refused with 503.
      connectTimeout: 1000,
      commandTimeout: 1000,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      lazyConnect: true,
    });
    client.defineCommand('counterHit', { numberOfKeys: 3, lua: HIT });
    client.defineCommand('counterTake', { numberOfKeys: 3, lua: TAKE });
    client.defineCommand('counterGiveBack', { numberOfKeys: 2, lua: GIVE_BACK });
    // Errors reach the callers of each command; the client's own event would otherwise be unhandled.
    client.on('error', () => undefined);
    this.client = client as Redis & CounterCommands;
  }

  private key(name: string): string {
    return this.config.keyPrefix + name;
  }

  private reading(reply: ScriptReply): CounterReading {
    const [count, epoch, resetAt] = reply;
    this.knownEpoch = epoch;
    return { count: Number(count), epoch, resetAt: resetAt === '' ? undefined : Number(resetAt) };
  }

  private async run<T>(command: () => Promise<T>): Promise<T> {
    try {
      if (this.client.status === 'wait') await this.client.connect().catch(() => undefined);
      return await command();
    } catch (error) {
      // The client's own words name its options; the caller is told what happened, in ours.
      const message = error instanceof Error ? error.message : String(error);
      throw countersUnavailable(/timed? ?out/i.test(message) ? 'no answer within a second' : 'unreachable');
    }
  }

  /** One more in the counter `name` (made with a time to live of `ttlMs`); the count after it. */
  hit(name: string, nowMs: number, ttlMs: number): Promise<CounterReading> {
    return this.run(async () =>
      this.reading(
        await this.client.counterHit(
          this.key('epoch'),
          this.key('reset-at'),
          this.key(name),
          this.knownEpoch,
          randomBytes(8).toString('hex'),
          nowMs,
          ttlMs,
        ),
      ),
    );
  }

  /** Takes one unit of `name` below `limit`: count -1 when none is left, -2 when the counter must be seeded. */
  take(name: string, nowMs: number, limit: number): Promise<CounterReading> {
    return this.run(async () =>
      this.reading(
        await this.client.counterTake(
          this.key('epoch'),
          this.key('reset-at'),
          this.key(name),
          this.knownEpoch,
          randomBytes(8).toString('hex'),
          nowMs,
          limit,
        ),
      ),
    );
  }

  /** Sets a missing counter to `value` (another node may have set it first: then it is left alone). */
  seed(name: string, value: number, ttlMs: number): Promise<void> {
    return this.run(async () => {
      await this.client.set(this.key(name), value, 'PX', ttlMs, 'NX');
    });
  }

  /** Gives a unit back, only in the epoch it was taken in (after a restart it was never counted). */
  async giveBack(name: string, epoch: string): Promise<void> {
    await this.run(() => this.client.counterGiveBack(this.key('epoch'), this.key(name), epoch));
  }

  async close(): Promise<void> {
    if (this.client.status === 'wait' || this.client.status === 'end') return;
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
