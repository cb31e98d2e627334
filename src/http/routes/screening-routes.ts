import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import {
  IdParams,
  ScreenRequest,
  ListScreeningsQuery,
  type ListScreeningsQueryType,
  ScreeningRecord,
  ScreeningResult,
  screeningResultJson,
  type ScreeningService,
  ScreeningSummary,
} from '../../screening/index.js';
import { contextOf } from '../pipeline.js';
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  envelope,
  listEnvelope,
  pageEnvelope,
  requestedPage,
  responses,
} from '../schemas.js';

export interface ScreeningRouteDeps {
  screening: ScreeningService;
}

export function screeningRoutes(deps: ScreeningRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/screen',
      {
        schema: {
          tags: ['screening'],
          operationId: 'screen',
          summary: 'Screen an entity against all sanctions lists',
          description:
            'Screens a name (with optional entity type, country and birth date) against every loaded list and stores the screening. One unit of the monthly quota per new execution; a replay with the same Idempotency-Key within 24 hours returns the stored response with `Idempotency-Replayed: true` and costs nothing. Screen full names: a name that matches only one part of a listed person\u2019s name of two or more (a given name or a surname alone) scores below the medium boundary and is not reported, after OFAC\u2019s false-hit guidance, unless a role title precedes it ("President Putin") or an agreeing birth date brings it back. The same holds when the other parts only resemble listed ones as another name would (Harry Page / Larry PAGE), when the list gives only initials that the query does not all bear, and for a Chinese, Japanese or Korean name written in its characters whose family name is not the listed one. A single word that only resembles a listed single name (Zahir / Zakir) is not reported either.',
          security: [{ apiKey: [] }],
          headers: Type.Object({
            'idempotency-key': Type.Optional(
              Type.String({
                description: 'At most 255 characters; scoped to the organization; replay window 24 hours.',
              }),
            ),
          }),
          body: ScreenRequest,
          response: responses(
            { 200: envelope(Type.Ref(ScreeningResult), 'The screening result; it is stored.') },
            {
              ...COMMON_ERRORS,
              ...BODY_ERRORS,
              409: 'CONFLICT: a request with the same Idempotency-Key is still being processed.',
              422: 'IDEMPOTENCY_KEY_MISMATCH: the Idempotency-Key was used with a different body.',
              503: 'LISTS_NOT_READY: the sanctions lists are not loaded yet; screening against no data would be a silent false negative. SERVICE_UNAVAILABLE: a deployment with REDIS_URL cannot reach its shared counters (Redis) or is rebuilding a quota after Redis lost it; nothing was stored or counted. Both carry Retry-After.',
            },
          ),
        },
      },
      async (request, reply) => {
        const header = request.headers['idempotency-key'];
        const key = Array.isArray(header) ? header[0] : header;
        const ctx = contextOf(request);
        // The body read and validated since the pipeline's checks.
        ctx.timings?.mark('parse');
        const outcome = await deps.screening.screen({ ctx, input: { body: request.body, idempotencyKey: key } });
        if (outcome.replayed) reply.header('Idempotency-Replayed', 'true');
        if (ctx.timings) reply.header('Server-Timing', ctx.timings.header());
        // Written as text around the matches' JSON (screening-response.ts says why); a replay sends the stored body.
        return reply
          .status(outcome.replayed ? outcome.status : 200)
          .header('content-type', 'application/json; charset=utf-8')
          .send(outcome.replayed ? outcome.json : screeningResultJson(outcome));
      },
    );

    app.get(
      '/screenings',
      {
        schema: {
          tags: ['screening'],
          operationId: 'listScreenings',
          summary: "List the organization's screenings",
          security: [{ apiKey: [] }],
          querystring: ListScreeningsQuery,
          response: responses(
            { 200: listEnvelope(Type.Ref(ScreeningSummary), 'One page of screenings, newest first.') },
            COMMON_ERRORS,
          ),
        },
      },
      async (request) => {
        const query = request.query as ListScreeningsQueryType;
        const page = requestedPage(query);
        const { items, total } = await deps.screening.listScreenings({
          ctx: contextOf(request),
          input: {
            ...page,
            ...(query.riskLevel ? { riskLevel: query.riskLevel } : {}),
            ...(query.dateFrom !== undefined ? { dateFrom: query.dateFrom } : {}),
            ...(query.dateTo !== undefined ? { dateTo: query.dateTo } : {}),
            ...(query.search !== undefined ? { search: query.search } : {}),
            ...(query.externalId !== undefined ? { externalId: query.externalId } : {}),
          },
        });
        return pageEnvelope(items, total, page);
      },
    );

    app.get(
      '/screenings/:id',
      {
        schema: {
          tags: ['screening'],
          operationId: 'getScreening',
          summary: 'Fetch a stored screening',
          description:
            'The full record: match explanations, derived-match provenance, the sources and list versions it ran against.',
          security: [{ apiKey: [] }],
          params: IdParams,
          response: responses(
            { 200: envelope(Type.Ref(ScreeningRecord), 'The stored screening.') },
            { ...COMMON_ERRORS, 404: 'NOT_FOUND: no screening with this id in the organization.' },
          ),
        },
      },
      async (request) => ({
        success: true,
        data: await deps.screening.getScreening({ ctx: contextOf(request), input: { id: request.params.id } }),
      }),
    );
  };
}
