import { createHash, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../infra/clock.js';
import { AppError, type ErrorCode } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import {
  METRICS_CONTENT_TYPE,
  type MetricsSample,
  enableProcessMetrics,
  httpDuration,
  metricsText,
  observeRefusal,
} from '../infra/metrics.js';
import { sendError } from './error-handler.js';
import { ErrorEnvelope } from './schemas.js';

/**
 * What operating the service needs from HTTP (issue 17): /health/live and /health/ready, /metrics on
 * the API port when METRICS_TOKEN is set (start/operations.ts serves it on METRICS_PORT otherwise),
 * the request metrics, API keys' last use, and the envelope for errors Node's parser answers itself.
 */

export interface Readiness {
  database: boolean;
  listsLoaded: boolean;
  matchingThreads: boolean;
  /** SIGTERM received: the node finishes what it has and takes no more. */
  draining: boolean;
}

export interface OperationsDeps {
  readiness: () => Promise<Readiness>;
  /** Levels read when /metrics is scraped. */
  sample: () => Promise<MetricsSample>;
  /** Serve /metrics on the API port behind this bearer token; unset: not on the API port. */
  metricsToken?: string;
  /** Any metrics endpoint is configured: record the request metrics (else their cost is saved). */
  metricsEnabled: boolean;
  /** A request passed the key checks (last_used_at, written at most once a minute per key). */
  keyUsed?: (keyId: string) => void;
}

/** True when `header` is `Bearer <token>`; compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '';
  const givenDigest = createHash('sha256').update(given).digest();
  const tokenDigest = createHash('sha256').update(token).digest();
  return timingSafeEqual(givenDigest, tokenDigest) && given.length > 0;
}

const ReadySchema = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    database: Type.Boolean(),
    listsLoaded: Type.Boolean(),
    matchingThreads: Type.Boolean(),
    draining: Type.Boolean(),
  }),
});

const LiveSchema = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({ status: Type.Literal('live'), uptimeSeconds: Type.Number() }),
});

const rateLimited = {
  ...Type.Ref(ErrorEnvelope),
  description: 'RATE_LIMITED: too many requests from this address to the public routes.',
};

function refusalOf(
  request: FastifyRequest,
  status: number,
  payload: unknown,
): Parameters<typeof observeRefusal>[0] | undefined {
  const text = typeof payload === 'string' ? payload : '';
  if (status === 403 && text.includes('"TIER_LIMIT_EXCEEDED"')) return 'quota';
  if (status !== 429) return undefined;
  if (!request.url.startsWith('/v1')) return 'public_rate_limited';
  return text.includes('failed authentication') ? 'auth_rate_limited' : 'rate_limited';
}

/** The first field (dotted path) holding a NUL character, if any. */
function nulField(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > 8) return undefined;
  for (const [key, entry] of Object.entries(value)) {
    const found = nulField(entry, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function registerOperations(app: FastifyInstance, deps: OperationsDeps): void {
  // PostgreSQL cannot store a NUL character in text (SQLite can): refused alike on both, as a 400
  // naming the field, instead of a database error (found by the fuzzing suite: GET /v1/screenings/%00).
  app.addHook('preValidation', async (request, reply) => {
    const field =
      nulField(request.params, '') ?? nulField(request.query, '') ?? nulField(request.body, '') ?? undefined;
    if (field !== undefined) {
      return sendError(
        reply,
        new AppError('VALIDATION_ERROR', `${field || 'request'} must not contain a NUL character`, {
          field: field || 'request',
        }),
      );
    }
  });
  if (deps.metricsEnabled) {
    enableProcessMetrics();
    app.addHook('onSend', async (request, reply, payload) => {
      const refusal = reply.statusCode >= 403 ? refusalOf(request, reply.statusCode, payload) : undefined;
      if (refusal) observeRefusal(refusal);
      return payload;
    });
  }
  app.addHook('onResponse', async (request, reply) => {
    if (deps.metricsEnabled) {
      httpDuration.observe(
        { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: reply.statusCode },
        reply.elapsedTime / 1000,
      );
    }
    if (request.ctx && deps.keyUsed) deps.keyUsed(request.ctx.caller.keyId);
  });

  app.get(
    '/health/live',
    {
      schema: {
        tags: ['service'],
        operationId: 'getLiveness',
        summary: 'Liveness: the process answers',
        description: 'Needs no API key. 200 whenever the process can answer HTTP; checks nothing else.',
        security: [],
        response: { 200: LiveSchema, 429: rateLimited },
      },
    },
    async () => ({ success: true, data: { status: 'live' as const, uptimeSeconds: Math.round(process.uptime()) } }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['service'],
        operationId: 'getReadiness',
        summary: 'Readiness: database reachable, lists loaded, matching threads up',
        description:
          'Needs no API key. 200 when this node can screen: the database answers, the lists are loaded and every matching thread holds them; 503 otherwise, and from the moment the node starts draining after SIGTERM.',
        security: [],
        response: { 200: ReadySchema, 429: rateLimited, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const readiness = await deps.readiness();
      const ready = readiness.database && readiness.listsLoaded && readiness.matchingThreads && !readiness.draining;
      return reply
        .status(ready ? 200 : 503)
        .send({ success: ready, data: { status: ready ? 'ready' : 'not_ready', ...readiness } });
    },
  );

  const token = deps.metricsToken;
  if (token !== undefined) {
    // Not in the API reference: an operator's endpoint, only present when METRICS_TOKEN is set.
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('WWW-Authenticate', 'Bearer');
        return sendError(
          reply,
          new AppError('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>'),
        );
      }
      return reply.header('content-type', METRICS_CONTENT_TYPE).send(await metricsText(deps.sample));
    });
  }
}

/** What an error Node's HTTP parser raises before Fastify sees the request is answered with. */
function clientErrorOf(code: string | undefined): { status: number; code: ErrorCode; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      code: 'HEADERS_TOO_LARGE',
      message: 'the request line and headers are larger than the server accepts (16 KiB); send long data in a body',
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, code: 'REQUEST_TIMEOUT', message: 'the request was not received in time' };
  return { status: 400, code: 'BAD_REQUEST', message: 'the request could not be parsed as HTTP' };
}

/**
 * Fastify's `clientErrorHandler`: errors of Node's HTTP parser (oversized headers 431, a malformed
 * request line 400, a request timeout 408) answered in the envelope with an X-Request-Id, instead of
 * Node's or Fastify's own bodies. A reset connection gets nothing: there is no one to answer.
 */
export function clientErrorHandler(clock: Clock) {
  return function handle(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const { status, code, message } = clientErrorOf(error.code);
    const requestId = newId('req', clock.now());
    const body = JSON.stringify({ success: false, error: { code, message } });
    this.log.debug({ err: error, requestId }, 'client error answered');
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
