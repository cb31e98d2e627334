import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import {
  Decision,
  DecisionRequest,
  type DecisionsService,
  ListDecisionsQuery,
  type ListDecisionsQueryType,
} from '../../decisions/index.js';
import { IdParams } from '../../screening/index.js';
import { contextOf } from '../pipeline.js';
import type { RouteApp } from './route-app.js';
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  envelope,
  listEnvelope,
  pageEnvelope,
  requestedPage,
  responses,
} from '../schemas.js';

export interface DecisionRouteDeps {
  decisions: DecisionsService;
}

const DECIDE_DESCRIPTION =
  'Records an analyst decision on one match. The decider is the user of the API key. A `false_positive` suppresses that listed entity for the same customer (same `externalId`, or without one the same search) in later screenings and rescreens until the listing changes in a major field, it is delisted and listed again, the customer data change, or the review date passes. With four-eyes on (per organization), a false positive on a match of that level takes effect only once another user approves it.';

const DECIDE_ERRORS = {
  ...COMMON_ERRORS,
  ...BODY_ERRORS,
  400: 'VALIDATION_ERROR naming the field: decision or reason not in its list, reason missing for a false_positive, note missing for reason `other`, note over 2,000 characters, entityId not a match of this screening or alert.',
};

export function decisionRoutes(deps: DecisionRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    decideRoutes(app, deps);
    reviewRoutes(app, deps);
  };
}

/** POST /screenings/{id}/decisions and POST /alerts/{id}/decisions. */
function decideRoutes(app: RouteApp, deps: DecisionRouteDeps): void {
  app.post(
    '/screenings/:id/decisions',
    {
      schema: {
        tags: ['decisions'],
        operationId: 'decideOnScreening',
        summary: 'Decide on a match of a stored screening',
        description: DECIDE_DESCRIPTION,
        security: [{ apiKey: [] }],
        params: IdParams,
        body: DecisionRequest,
        response: responses(
          { 201: envelope(Type.Ref(Decision), 'The decision was recorded.') },
          { ...DECIDE_ERRORS, 404: 'NOT_FOUND: no screening with this id in the organization.' },
        ),
      },
    },
    async (request, reply) => {
      const data = await deps.decisions.decideOnScreening({
        ctx: contextOf(request),
        input: { screeningId: request.params.id, body: request.body },
      });
      return reply.status(201).send({ success: true, data });
    },
  );

  app.post(
    '/alerts/:id/decisions',
    {
      schema: {
        tags: ['decisions'],
        operationId: 'decideOnAlert',
        summary: 'Decide on a match of an alert',
        description: `${DECIDE_DESCRIPTION} The alert's matches are those of the rescreen that raised it; the customer is its monitor's.`,
        security: [{ apiKey: [] }],
        params: IdParams,
        body: DecisionRequest,
        response: responses(
          { 201: envelope(Type.Ref(Decision), 'The decision was recorded.') },
          { ...DECIDE_ERRORS, 404: 'NOT_FOUND: no alert with this id in the organization.' },
        ),
      },
    },
    async (request, reply) => {
      const data = await deps.decisions.decideOnAlert({
        ctx: contextOf(request),
        input: { alertId: request.params.id, body: request.body },
      });
      return reply.status(201).send({ success: true, data });
    },
  );
}

/** GET /decisions and POST /decisions/{id}/approve. */
function reviewRoutes(app: RouteApp, deps: DecisionRouteDeps): void {
  app.get(
    '/decisions',
    {
      schema: {
        tags: ['decisions'],
        operationId: 'listDecisions',
        summary: "List the organization's decisions",
        security: [{ apiKey: [] }],
        querystring: ListDecisionsQuery,
        response: responses(
          { 200: listEnvelope(Type.Ref(Decision), 'One page of decisions, newest first.') },
          COMMON_ERRORS,
        ),
      },
    },
    async (request) => {
      const query = request.query as ListDecisionsQueryType;
      const page = requestedPage(query);
      const { items, total } = await deps.decisions.listDecisions({
        ctx: contextOf(request),
        input: {
          ...page,
          ...(query.screeningId !== undefined ? { screeningId: query.screeningId } : {}),
          ...(query.alertId !== undefined ? { alertId: query.alertId } : {}),
          ...(query.entityId !== undefined ? { entityId: query.entityId } : {}),
          ...(query.externalId !== undefined ? { externalId: query.externalId } : {}),
          ...(query.decision !== undefined ? { decision: query.decision } : {}),
          ...(query.status !== undefined ? { status: query.status } : {}),
          ...(query.dateFrom !== undefined ? { dateFrom: query.dateFrom } : {}),
          ...(query.dateTo !== undefined ? { dateTo: query.dateTo } : {}),
        },
      });
      return pageEnvelope(items, total, page);
    },
  );

  app.post(
    '/decisions/:id/approve',
    {
      schema: {
        tags: ['decisions'],
        operationId: 'approveDecision',
        summary: 'Approve a decision waiting for a second user (four-eyes)',
        description:
          'The approver is the user of the API key and must not be the one who decided. No body is needed (or send `{}` as JSON). The suppression takes effect now; its review date counts from now.',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: responses(
          { 200: envelope(Type.Ref(Decision), 'The decision, now effective.') },
          {
            ...COMMON_ERRORS,
            403: 'FORBIDDEN: the decider cannot approve their own decision (or the common 403s).',
            404: 'NOT_FOUND: no decision with this id in the organization.',
            409: 'CONFLICT: the decision is not waiting for approval.',
          },
        ),
      },
    },
    async (request) => ({
      success: true,
      data: await deps.decisions.approve({ ctx: contextOf(request), input: { id: request.params.id } }),
    }),
  );
}
