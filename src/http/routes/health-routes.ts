import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { type Db, ping } from '../../infra/database.js';
import { ErrorEnvelope } from '../schemas.js';

export interface SourceHealth {
  source: string;
  version: string | null;
  records: number;
  publishedAt: string | null;
  fetchedAt: string | null;
  ageSeconds: number | null;
  stale: boolean;
  loaded: boolean;
  syncing: boolean;
  lastError: string | null;
  lastCheckAt: string | null;
  lastCheckStatus: string | null;
  lastChangeAt: string | null;
  nextCheckAt: string | null;
  checkFailures: number;
}

export interface HealthDeps {
  db: Db;
  /** Freshness of every source; empty until the lists work is wired. */
  lists: () => Promise<{ ready: boolean; sources: SourceHealth[] }>;
}

const SourceHealthSchema = Type.Object({
  source: Type.String(),
  version: Type.Union([Type.String(), Type.Null()]),
  records: Type.Integer(),
  publishedAt: Type.Union([Type.String(), Type.Null()]),
  fetchedAt: Type.Union([Type.String(), Type.Null()]),
  ageSeconds: Type.Union([Type.Number(), Type.Null()]),
  stale: Type.Boolean({ description: 'No good sync for 48 hours, or the last sync was rejected.' }),
  loaded: Type.Boolean({ description: 'This node screens against the version.' }),
  syncing: Type.Boolean(),
  lastError: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the last check or sync failed; null after a good one.',
  }),
  lastCheckAt: Type.Union([Type.String(), Type.Null()], {
    description: 'When the publisher (or the list directory) was last checked for a new version.',
  }),
  lastCheckStatus: Type.Union([Type.String(), Type.Null()], {
    description: 'What the last check found: not_modified, unchanged, updated, rejected or skipped.',
  }),
  lastChangeAt: Type.Union([Type.String(), Type.Null()], {
    description: 'When a new version of the source was last put in force.',
  }),
  nextCheckAt: Type.Union([Type.String(), Type.Null()], {
    description:
      'When the source is checked next: LIST_POLL_INTERVAL after a good check, sooner with backoff after a failed one; null when it is not polled.',
  }),
  checkFailures: Type.Integer({ minimum: 0, description: 'Failed checks in a row (0 after a good one).' }),
});

const HealthSchema = Type.Object({
  success: Type.Boolean(),
  data: Type.Object({
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')], {
      description: 'down: the database is unreachable; degraded: lists not ready or a source is stale.',
    }),
    database: Type.Boolean(),
    listsReady: Type.Boolean(),
    uptimeSeconds: Type.Number(),
    sources: Type.Array(SourceHealthSchema),
  }),
});

/** GET /health: liveness, database reachability and list freshness. No key needed. */
export function healthRoutes(deps: HealthDeps): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['service'],
          summary: 'Liveness, database reachability and list freshness',
          description: 'Needs no API key. Answers 503 when the database is unreachable.',
          operationId: 'getHealth',
          // Public: no API key.
          security: [],
          response: {
            200: HealthSchema,
            429: {
              ...Type.Ref(ErrorEnvelope),
              description: 'RATE_LIMITED: too many requests from this address to the public routes.',
            },
            503: HealthSchema,
          },
        },
      },
      async (_request, reply) => {
        const database = await ping(deps.db);
        const lists = database ? await deps.lists() : { ready: false, sources: [] };
        const status = !database ? 'down' : !lists.ready || lists.sources.some((s) => s.stale) ? 'degraded' : 'ok';
        return reply.status(database ? 200 : 503).send({
          success: database,
          data: {
            status,
            database,
            listsReady: lists.ready,
            uptimeSeconds: Math.round(process.uptime()),
            sources: lists.sources,
          },
        });
      },
    );
  };
}
