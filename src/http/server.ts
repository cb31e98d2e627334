import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Ajv from 'ajv';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { type ConsoleDeps, consoleRoutes } from '../console/console-routes.js';
import type { Clock } from '../infra/clock.js';
import type { Config } from '../infra/config.js';
import type { Db } from '../infra/database.js';
import { AppError } from '../infra/errors.js';
import type { InFlight } from '../infra/in-flight.js';
import { newId } from '../infra/ids.js';
import {
  FallbackRateLimiter,
  MemoryRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
  SharedRateLimiter,
} from '../infra/rate-limiter.js';
import type { RedisCounters } from '../infra/redis-counters.js';
import type { TableWatch } from '../infra/table-watch.js';
import { SCREENING_SCHEMAS } from '../screening/index.js';
import { MONITOR_SCHEMAS } from '../monitoring/index.js';
import { DECISION_SCHEMAS } from '../decisions/index.js';
import { BATCH_SCHEMAS } from '../batches/index.js';
import { MAX_PARAM_LENGTH, frameworkErrorHandler, registerErrorHandler, sendError } from './error-handler.js';
import { VALIDATION_SCHEMAS } from '../validation/index.js';
import { LIST_SCHEMAS } from '../lists/index.js';
import { buildOpenApiOptions, finishOpenApiDocument } from './openapi.js';
import { registerPipeline } from './pipeline.js';
import { clientErrorHandler, type OperationsDeps, registerOperations } from './operations.js';
import { ErrorEnvelope, Pagination } from './schemas.js';
import { healthRoutes, type HealthDeps } from './routes/health-routes.js';
import { screeningRoutes, type ScreeningRouteDeps } from './routes/screening-routes.js';
import { monitorRoutes, type MonitorRouteDeps } from './routes/monitor-routes.js';
import { decisionRoutes, type DecisionRouteDeps } from './routes/decision-routes.js';
import { batchRoutes, type BatchRouteDeps } from './routes/batch-routes.js';
import { listRoutes, type ListRouteDeps } from './routes/list-routes.js';
import { validationRoutes, type ValidationRouteDeps } from './routes/validation-routes.js';
import { profileRoutes, type ProfileRouteDeps } from './routes/profile-routes.js';
import { PROFILE_SCHEMAS } from '../profiles/index.js';

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  health: HealthDeps;
  screening: ScreeningRouteDeps;
  monitors: MonitorRouteDeps;
  decisions: DecisionRouteDeps;
  batches: BatchRouteDeps;
  lists: ListRouteDeps;
  validation: ValidationRouteDeps;
  profiles: ProfileRouteDeps;
  /** Counts the requests under way, for background work that yields to them (batch rows). */
  interactive?: InFlight;
  /** The web console under /console; left out, the server has none. */
  console?: ConsoleDeps;
  logger?: FastifyServerOptions['logger'];
  /** Defaults to Redis with REDIS_URL, else in-memory counters on SQLite and database-backed ones on PostgreSQL. */
  limiter?: RateLimiter;
  /** The deployment's shared counters (REDIS_URL). */
  counters?: RedisCounters;
  /** PostgreSQL: notifications of changes to the key tables, for the key cache. */
  keyWatch?: TableWatch;
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  /** /health/live, /health/ready, /metrics and the request metrics (issue 17). */
  operations?: OperationsDeps;
}

/** The 64 KiB body limit of DECISIONS.md ("Status codes"). */
export const BODY_LIMIT = 64 * 1024;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : { logger: deps.logger ?? { level: deps.config.logLevel } }),
    genReqId: () => newId('req', deps.clock.now()),
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.config.http.trustProxy,
    // While draining after SIGTERM, requests on open connections are served (with Connection: close),
    // not answered with Fastify's own 503 body outside the envelope.
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(deps.clock),
    frameworkErrors: frameworkErrorHandler,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A log controller replaces the deprecated top-level disableRequestLogging (FSTDEP023).
    logController: new LogController({
      disableRequestLogging: deps.config.logLevel !== 'debug' && deps.config.logLevel !== 'trace',
    }),
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerValidators(app);

  // Only JSON bodies: text/plain would otherwise be accepted as a string.
  app.removeContentTypeParser('text/plain');

  registerErrorHandler(app);
  registerPipeline(app, {
    db: deps.db,
    clock: deps.clock,
    ...rateLimiters(deps),
    http: deps.config.http,
    ...(deps.keyWatch ? { keyWatch: deps.keyWatch } : {}),
  });

  if (deps.interactive) countInteractive(app, deps.interactive);

  requireJsonBodies(app);

  await app.register(fastifySwagger, buildOpenApiOptions(deps.config.http.publicUrl));
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: false,
  });

  const knownRoutes = trackRoutes(app);

  if (deps.operations) registerOperations(app, deps.operations);
  await app.register(healthRoutes(deps.health));
  await app.register(screeningRoutes(deps.screening), { prefix: '/v1' });
  await app.register(monitorRoutes(deps.monitors), { prefix: '/v1' });
  await app.register(decisionRoutes(deps.decisions), { prefix: '/v1' });
  await app.register(batchRoutes(deps.batches), { prefix: '/v1' });
  await app.register(listRoutes(deps.lists), { prefix: '/v1' });
  await app.register(validationRoutes(deps.validation), { prefix: '/v1' });
  await app.register(profileRoutes(deps.profiles), { prefix: '/v1' });
  if (deps.console) await app.register(consoleRoutes(deps.console), { prefix: '/console' });

  app.get('/openapi.json', { schema: { hide: true } }, async () =>
    finishOpenApiDocument(app.swagger() as Record<string, unknown>),
  );

  answerUnknownRoutes(app, knownRoutes);
  return app;
}

/** Whether a request announces a body: a non-zero Content-Length, or chunked Transfer-Encoding. */
function hasBody(headers: { 'content-length'?: string; 'transfer-encoding'?: string }): boolean {
  return (
    (headers['content-length'] !== undefined && headers['content-length'] !== '0') || !!headers['transfer-encoding']
  );
}

/**
 * Every request but the health check is counted from its arrival until its answer is sent or its
 * connection closes, so that batch rows back off while one is waiting. The count ends on the
 * response's 'close' event, which Node emits once for every response, sent or not: Fastify's
 * onResponse and onRequestAbort hooks both miss a request whose client closes the connection while
 * it is being handled (a load generator stopping), and a count left above zero would hold every batch
 * at BATCH_BUSY_CONCURRENCY for good.
 */
function countInteractive(app: FastifyInstance, interactive: InFlight): void {
  app.addHook('onRequest', async (request, reply) => {
    // Health checks and probes (/health, /health/live, /health/ready) are not someone waiting.
    if (request.url === '/health' || request.url.startsWith('/health?') || request.url.startsWith('/health/')) return;
    interactive.enter();
    reply.raw.once('close', () => interactive.leave());
  });
}

type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * Bodies are validated without type coercion (a number is not a name); query strings and path
 * parameters arrive as text and are coerced. Unknown body fields are removed, never stored.
 */
function registerValidators(app: App): void {
  const bodyAjv = new Ajv.default({
    coerceTypes: false,
    removeAdditional: true,
    useDefaults: true,
    allErrors: false,
    strict: false,
    verbose: true,
  });
  const queryAjv = new Ajv.default({
    coerceTypes: true,
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    strict: false,
    verbose: true,
  });
  for (const schema of [
    ErrorEnvelope,
    Pagination,
    ...SCREENING_SCHEMAS,
    ...MONITOR_SCHEMAS,
    ...DECISION_SCHEMAS,
    ...BATCH_SCHEMAS,
    ...LIST_SCHEMAS,
    ...VALIDATION_SCHEMAS,
    ...PROFILE_SCHEMAS,
  ]) {
    bodyAjv.addSchema(schema);
    queryAjv.addSchema(schema);
    app.addSchema(schema);
  }
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema as object),
  );
}

/**
 * With REDIS_URL every node counts in Redis. Otherwise SQLite, the one-process deployment, keeps
 * its counters in memory, and PostgreSQL deployments share theirs through the database.
 */
function rateLimiters(deps: AppDeps): { limiter: RateLimiter; addressLimiter?: RateLimiter } {
  const counters = deps.counters;
  const limiter =
    deps.limiter ??
    (counters
      ? new RedisRateLimiter(counters, deps.clock)
      : deps.config.database.engine === 'sqlite'
        ? new MemoryRateLimiter(deps.clock)
        : new SharedRateLimiter(deps.db, deps.clock));
  if (!counters || deps.limiter) return { limiter };
  // Per-address limits fall back to this node's own count while Redis is unreachable.
  return {
    limiter,
    addressLimiter: new FallbackRateLimiter(
      new RedisRateLimiter(counters, deps.clock),
      new MemoryRateLimiter(deps.clock),
    ),
  };
}

/** A POST without a JSON content type is a 415 even when it has no body. */
function requireJsonBodies(app: App): void {
  app.addHook('preValidation', async (request) => {
    // The console's pages post forms (parsed in its own plugin); batch uploads take files.
    if (
      request.method === 'POST' &&
      !request.routeOptions.config.acceptsFiles &&
      !request.url.startsWith('/console/')
    ) {
      const type = request.headers['content-type'] ?? '';
      // A route that takes no body (POST /decisions/{id}/approve) may be posted without one.
      const bodyless = !request.routeOptions.schema?.body && !type && !hasBody(request.headers);
      if (!bodyless && !/^application\/json\b/i.test(type)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be sent as application/json');
      }
    }
  });
}

interface KnownRoute {
  method: string;
  pattern: RegExp;
}

/** The routes as they are registered, to tell an unknown path (404) from a wrong method (405). */
function trackRoutes(app: App): KnownRoute[] {
  const knownRoutes: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = new RegExp(`^${route.url.replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}/?$`);
    for (const method of methods) knownRoutes.push({ method: method.toUpperCase(), pattern });
  });
  return knownRoutes;
}

function answerUnknownRoutes(app: App, knownRoutes: KnownRoute[]): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = [...new Set(knownRoutes.filter((r) => r.pattern.test(path)).map((r) => r.method))].filter(
      (m) => m !== 'HEAD' && m !== request.method,
    );
    if (allowed.length > 0) {
      reply.header('Allow', allowed.join(', '));
      return sendError(
        reply,
        new AppError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`),
      );
    }
    return sendError(reply, new AppError('NOT_FOUND', `no route ${request.method} ${path}`));
  });
}
