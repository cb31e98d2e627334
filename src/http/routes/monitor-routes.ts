import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CreateMonitorRequest,
  ListMonitorsQuery,
  type ListMonitorsQueryType,
  MonitorCreated,
  MonitorItem,
  MonitorRemoved,
  type MonitorService,
} from '../../monitoring/index.js';
import { IdParams } from '../../screening/index.js';
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

export interface MonitorRouteDeps {
  monitors: MonitorService;
}

export function monitorRoutes(deps: MonitorRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/monitors',
      {
        schema: {
          tags: ['monitoring'],
          operationId: 'createMonitor',
          summary: 'Place a stored screening under continuous monitoring',
          description:
            'The monitored search (name and filters, compared ignoring case and spacing) is rescreened after every list update and at least daily; an alert and an alert.created webhook follow when its risk level changes, the threshold is crossed in either direction, or it appears on a new list.',
          security: [{ apiKey: [] }],
          body: CreateMonitorRequest,
          response: responses(
            { 201: envelope(Type.Ref(MonitorCreated), 'The monitor was created.') },
            {
              ...COMMON_ERRORS,
              ...BODY_ERRORS,
              404: 'NOT_FOUND: no screening with this id in the organization.',
              409: 'CONFLICT: this search is already being monitored.',
            },
          ),
        },
      },
      async (request, reply) => {
        const data = await deps.monitors.createMonitor({ ctx: contextOf(request), input: request.body });
        return reply.status(201).send({ success: true, data });
      },
    );

    app.get(
      '/monitors',
      {
        schema: {
          tags: ['monitoring'],
          operationId: 'listMonitors',
          summary: "List the organization's monitors",
          security: [{ apiKey: [] }],
          querystring: ListMonitorsQuery,
          response: responses(
            { 200: listEnvelope(Type.Ref(MonitorItem), 'One page of monitors, newest first.') },
            COMMON_ERRORS,
          ),
        },
      },
      async (request) => {
        const page = requestedPage(request.query as ListMonitorsQueryType);
        const { items, total } = await deps.monitors.listMonitors({ ctx: contextOf(request), input: page });
        return pageEnvelope(items, total, page);
      },
    );

    app.delete(
      '/monitors/:id',
      {
        schema: {
          tags: ['monitoring'],
          operationId: 'deleteMonitor',
          summary: 'Remove an entity from monitoring',
          security: [{ apiKey: [] }],
          params: IdParams,
          response: responses(
            { 200: envelope(Type.Ref(MonitorRemoved), 'The monitor was removed.') },
            { ...COMMON_ERRORS, 404: 'NOT_FOUND: no monitor with this id in the organization.' },
          ),
        },
      },
      async (request) => ({
        success: true,
        data: await deps.monitors.removeMonitor({ ctx: contextOf(request), input: { id: request.params.id } }),
      }),
    );
  };
}
