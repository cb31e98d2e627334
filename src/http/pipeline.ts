import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpConfig } from '../infra/config.js';
import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import { AppError } from '../infra/errors.js';
import type { RateLimitState, RateLimiter } from '../infra/rate-limiter.js';
import { StageTimings } from '../infra/stage-timings.js';
import type { TableWatch } from '../infra/table-watch.js';
import { ApiKeyChecker, assertAccess, type CallerContext } from '../tenants/index.js';
import { sendError } from './error-handler.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the key is checked: what the route hands its service as `ctx`. */
    ctx?: CallerContext;
    rateLimit?: RateLimitState;
  }
  interface FastifyInstance {
    /** API key checks that read the database so far (the others were answered from this node's cache). */
    apiKeyReads(): number;
  }
}

export interface PipelineDeps {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  /** Per client address (public routes, failed authentication); defaults to `limiter`. */
  addressLimiter?: RateLimiter;
  http: HttpConfig;
  /** Tells the key cache when the key tables changed on PostgreSQL (LISTEN/NOTIFY); SQLite watches its own. */
  keyWatch?: TableWatch;
}

/**
 * The request pipeline of every v1 route (api-v1.md sections 5 and 8), run before the body is read so
 * that an unauthenticated caller learns nothing about validation:
 *   1. x-api-key present, known, not revoked, not expired (401s); failures are counted per client
 *      address, and an address over its limit gets 429 for every failed attempt until the window ends;
 *   2. 60 requests per minute per key, shared through the database by every node (429);
 *   3. the key's owner still a member (403 FORBIDDEN), tier Starter or above (403 FEATURE_NOT_AVAILABLE).
 * Public routes (/health, /openapi.json, /docs) are limited per client address.
 * X-Request-Id and X-RateLimit-* go on every response, errors included.
 */
export function registerPipeline(app: FastifyInstance, deps: PipelineDeps): void {
  const keys = new ApiKeyChecker(deps.db, deps.clock, deps.keyWatch);
  const addressLimiter = deps.addressLimiter ?? deps.limiter;
  app.decorate('apiKeyReads', () => keys.reads);
  // Addresses known to be over their failed-auth limit, until the window resets: saves a round trip.
  const blockedAddresses = new Map<string, number>();

  const tooMany = (state: RateLimitState, message: string) =>
    new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': String(state.retryAfter) } });

  async function authFailure(request: FastifyRequest, error: AppError): Promise<AppError> {
    const state = await addressLimiter.hit(`authfail:${request.ip}`, deps.http.authFailureLimitPerMinute);
    request.rateLimit = state;
    if (!state.allowed) {
      blockedAddresses.set(request.ip, state.resetAt);
      return tooMany(state, 'too many failed authentication attempts from this address; retry later');
    }
    return error;
  }

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const started = deps.http.serverTiming ? performance.now() : 0;
    const path = request.url.split('?', 1)[0] ?? '';
    if (!(path === '/v1' || path.startsWith('/v1/'))) {
      const state = await addressLimiter.hit(`ip:${request.ip}`, deps.http.publicRateLimitPerMinute);
      request.rateLimit = state;
      if (!state.allowed) return sendError(reply, tooMany(state, 'rate limit exceeded; retry later'));
      return;
    }

    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    const check = await keys.check(key);
    if (!check.ok) {
      // An address already over its failed-auth limit is answered 429 until its window ends.
      const blockedUntil = blockedAddresses.get(request.ip);
      const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
      if (blockedUntil !== undefined && blockedUntil > nowSeconds) {
        const state: RateLimitState = {
          allowed: false,
          limit: deps.http.authFailureLimitPerMinute,
          remaining: 0,
          resetAt: blockedUntil,
          retryAfter: Math.max(1, blockedUntil - nowSeconds),
        };
        request.rateLimit = state;
        return sendError(
          reply,
          tooMany(state, 'too many failed authentication attempts from this address; retry later'),
        );
      }
      if (blockedUntil !== undefined) blockedAddresses.delete(request.ip);
      return sendError(reply, await authFailure(request, check.error));
    }

    let state: RateLimitState;
    try {
      state = await deps.limiter.hit(`key:${check.caller.keyId}`, deps.http.rateLimitPerMinute);
    } catch (error) {
      // The shared counters cannot say (Redis unreachable or reset): refused, with the window's headers.
      if (!(error instanceof AppError)) throw error;
      request.rateLimit = unknownState(deps.clock, deps.http.rateLimitPerMinute);
      return sendError(reply, error);
    }
    request.rateLimit = state;
    if (!state.allowed)
      return sendError(reply, tooMany(state, `rate limit of ${state.limit} requests per minute exceeded`));

    try {
      assertAccess(check.caller, check.isMember);
    } catch (error) {
      return sendError(reply, error as AppError);
    }
    request.ctx = { db: deps.db, clock: deps.clock, caller: check.caller, requestId: request.id };
    if (deps.http.serverTiming) {
      // The key check, the limit and the access checks: the stage before the body is read.
      const timings = new StageTimings(started);
      timings.mark('auth');
      request.ctx.timings = timings;
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id);
    const state = request.rateLimit;
    if (state) {
      reply.header('X-RateLimit-Limit', state.limit);
      reply.header('X-RateLimit-Remaining', state.remaining);
      reply.header('X-RateLimit-Reset', state.resetAt);
    }
    return payload;
  });
}

/** The headers' state of a window whose count is unknown: nothing remaining until it ends. */
function unknownState(clock: Clock, limit: number): RateLimitState {
  const nowSeconds = Math.floor(clock.now().getTime() / 1000);
  const resetAt = (Math.floor(nowSeconds / 60) + 1) * 60;
  return { allowed: false, limit, remaining: 0, resetAt, retryAfter: Math.max(1, resetAt - nowSeconds) };
}

/** The caller context set by the pipeline; routes under /v1 always have one. */
export function contextOf(request: FastifyRequest): CallerContext {
  if (!request.ctx) throw new AppError('UNAUTHORIZED', 'the x-api-key header is required');
  return request.ctx;
}
