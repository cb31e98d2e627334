import type { Clock } from './clock.js';
import type { Db } from './database.js';
import type { StageTimings } from './stage-timings.js';

/**
 * What every domain service call carries besides its input: the database to work in (or the
 * transaction the caller already holds: a Kysely transaction is a Db), the clock, and the id of the
 * request that made the call, for logs. Domains that act for an API caller extend it
 * (tenants/caller.ts: CallerContext).
 */
export interface Context {
  db: Db;
  clock: Clock;
  requestId?: string;
  /** Present when the request's stages are reported (SERVER_TIMING): services mark what they spend. */
  timings?: StageTimings;
}

/**
 * The one argument shape of every domain service operation: `service.op({ ctx, input })`, `input`
 * being the request as the route or the command line validated it. Operations without input take
 * `{ ctx }`.
 */
export type Call<I = void, C extends Context = Context> = { ctx: C } & ([I] extends [void]
  ? { input?: undefined }
  : { input: I });

/** Where background work and services report what happened, without depending on a logger library. */
export type Log = (level: 'info' | 'warn' | 'error', message: string, detail?: Record<string, unknown>) => void;
