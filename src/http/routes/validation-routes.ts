import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams } from '../../screening/index.js';
import {
  CreateValidationRunBody,
  ListValidationRunsQuery,
  ReportParams,
  ValidationRun,
  type ValidationService,
} from '../../validation/index.js';
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
import type { FastifyPluginAsync } from 'fastify';
import type { RouteApp as App } from './route-app.js';

export interface ValidationRouteDeps {
  validation: ValidationService;
}

const NOT_FOUND = {
  404: "NOT_FOUND: no validation run with this id in the organization (another organization's runs are not found either).",
};

/** POST /validation-runs: queue a run (admins only). */
function startRunRoute(app: App, deps: ValidationRouteDeps): void {
  app.post(
    '/validation-runs',
    {
      schema: {
        tags: ['validation'],
        operationId: 'createValidationRun',
        summary: 'Start a validation run: evidence of how well this deployment screens, as a signed report',
        description:
          "Admins only. Queues a run and answers at once (202); it runs in the background on the deployment's lists in force with the engine the API screens with (GET /validation-runs/{id} for its progress). A run self-screens every listed name and alias (quick: a sample), measures recall on perturbed listed names per kind of change (typo, dropped letter, swapped parts, dropped middle part, joined parts, Cyrillic and back, lower case and punctuation, legal-form variant), false alerts on a generated multicultural population per script, identifiers found and not found, and the engine's latency; the report (report.json and report.html) is signed with the deployment's Ed25519 key and judged against the thresholds given here (or their defaults). One unfinished run per organization at a time. Runs cost no screening quota and store no screenings.",
        security: [{ apiKey: [] }],
        body: CreateValidationRunBody,
        response: responses(
          { 202: envelope(Type.Ref(ValidationRun), 'The run is queued.') },
          {
            ...COMMON_ERRORS,
            ...BODY_ERRORS,
            403: "FORBIDDEN: the key's user is not an admin of the organization (or no longer a member); FEATURE_NOT_AVAILABLE: tier below Starter, or the operator has not set VALIDATION_SIGNING_KEY.",
            409: 'CONFLICT: a run of the organization is queued or running.',
          },
        ),
      },
    },
    async (request, reply) => {
      const data = await deps.validation.startRun({ ctx: contextOf(request), input: request.body ?? {} });
      return reply.status(202).send({ success: true, data });
    },
  );
}

/** GET /validation-runs: one page of the organization's runs. */
function listRunsRoute(app: App, deps: ValidationRouteDeps): void {
  app.get(
    '/validation-runs',
    {
      schema: {
        tags: ['validation'],
        operationId: 'listValidationRuns',
        summary: "List the organization's validation runs, newest first",
        security: [{ apiKey: [] }],
        querystring: ListValidationRunsQuery,
        response: responses({ 200: listEnvelope(Type.Ref(ValidationRun), 'One page of runs.') }, COMMON_ERRORS),
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      const page = requestedPage(request.query);
      const { items, total } = await deps.validation.listRuns({ ctx, input: { ...page, orgId: ctx.caller.orgId } });
      return pageEnvelope(items, total, page);
    },
  );
}

/** GET /validation-runs/:id: a run, its progress and summary. */
function getRunRoute(app: App, deps: ValidationRouteDeps): void {
  app.get(
    '/validation-runs/:id',
    {
      schema: {
        tags: ['validation'],
        operationId: 'getValidationRun',
        summary: 'A validation run: status, progress, and once completed the summary against the thresholds',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: responses({ 200: envelope(Type.Ref(ValidationRun), 'The run.') }, { ...COMMON_ERRORS, ...NOT_FOUND }),
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      return {
        success: true,
        data: await deps.validation.getRun({ ctx, input: { id: request.params.id, orgId: ctx.caller.orgId } }),
      };
    },
  );
}

/** GET /validation-runs/:id/:file: the signed report of a completed run. */
function getReportRoute(app: App, deps: ValidationRouteDeps): void {
  app.get(
    '/validation-runs/:id/:file',
    {
      schema: {
        tags: ['validation'],
        operationId: 'getValidationReport',
        summary: 'The signed report of a completed run: report.json (figures and Ed25519 signature) or report.html',
        description:
          'report.json is the report document: every figure, every miss, the context (list versions, engine version, profile, seed, machine, duration), the thresholds and the summary, the SHA-256 of report.html, and the Ed25519 signature over all of it. `sanctions validate verify report.json` checks both files.',
        security: [{ apiKey: [] }],
        params: ReportParams,
        response: responses(
          {
            200: Type.Unknown({
              description: 'application/json (report.json) or text/html (report.html), sent as a download.',
            }),
          },
          { ...COMMON_ERRORS, ...NOT_FOUND, 409: 'CONFLICT: the run has not completed (queued, running or failed).' },
        ),
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const { id, file } = request.params;
      const format = file === 'report.json' ? 'json' : 'html';
      const text = await deps.validation.getReport({ ctx, input: { id, orgId: ctx.caller.orgId, format } });
      reply.header('content-type', format === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${id}-${file}"`);
      return reply.send(text);
    },
  );
}

export function validationRoutes(deps: ValidationRouteDeps): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    for (const route of [startRunRoute, listRunsRoute, getRunRoute, getReportRoute]) route(app, deps);
  };
}
