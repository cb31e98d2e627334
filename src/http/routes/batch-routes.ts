import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import {
  BatchAccepted,
  type BatchOptions,
  BatchResultRow,
  type BatchService,
  BatchStatus,
  CreateBatchBody,
  type CreateBatchBodyType,
  type CreateBatchInput,
  CreateBatchQuery,
  fileKindOf,
  ListBatchesQuery,
  MAX_FILE_BYTES,
  MAX_ITEMS,
  ResultsQuery,
  XLSX_TYPE,
} from '../../batches/index.js';
import { AppError, validationError } from '../../infra/errors.js';
import { IdParams } from '../../screening/index.js';
import { sendError, toAppError } from '../error-handler.js';
import { contextOf } from '../pipeline.js';
import type { RouteApp } from './route-app.js';
import { COMMON_ERRORS, envelope, listEnvelope, pageEnvelope, requestedPage, responses } from '../schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes files as well as JSON: the JSON-only check of POST bodies leaves it alone. */
    acceptsFiles?: boolean;
  }
}

export interface BatchRouteDeps {
  batches: BatchService;
}

/** A JSON batch of 10,000 items of the largest POST /screen body fits; files stream up to 50 MB. */
const JSON_BODY_LIMIT = 16 * 1024 * 1024;

const FILE_TYPES = ['text/csv', 'application/csv', 'application/x-ndjson', 'application/ndjson', XLSX_TYPE];

function tooLarge(): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `the batch is too large: a file is at most ${MAX_FILE_BYTES / 1024 / 1024} MB, a JSON body at most ${JSON_BODY_LIMIT / 1024 / 1024} MiB`,
  );
}

function options(query: { monitor?: boolean; groupByCluster?: boolean }, body?: Partial<BatchOptions>): BatchOptions {
  return {
    monitor: body?.monitor ?? query.monitor ?? false,
    groupByCluster: body?.groupByCluster ?? query.groupByCluster ?? false,
  };
}

/**
 * The batch in the request: JSON items, the body as a file, or the `file` field of a multipart form
 * (whose `monitor` and `groupByCluster` fields, sent before the file, are options too).
 */
async function batchSource(
  request: FastifyRequest,
  fields: Partial<BatchOptions>,
): Promise<CreateBatchInput['source']> {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  if (/^application\/json\b/.test(type)) return { items: (request.body as CreateBatchBodyType).items };
  if (request.isMultipart()) {
    if (Number(request.headers['content-length'] ?? 0) > MAX_FILE_BYTES + 64 * 1024) throw tooLarge();
    for await (const part of request.parts()) {
      if (part.type === 'file' && part.fieldname === 'file') {
        return { file: part.file, kind: fileKindOf(part.mimetype, part.filename), fileName: part.filename || null };
      }
      if (part.type === 'file') part.file.resume();
      else if (part.fieldname === 'monitor' || part.fieldname === 'groupByCluster') {
        fields[part.fieldname] = String(part.value).toLowerCase() === 'true';
      }
    }
    throw validationError('file', 'the multipart form has no field "file"');
  }
  // A declared length over the limit is refused before a byte is read (past it, the stream is cut).
  if (Number(request.headers['content-length'] ?? 0) > MAX_FILE_BYTES) throw tooLarge();
  const kind = fileKindOf(type);
  const name = request.headers['x-file-name'];
  return { file: request.body as Readable, kind, fileName: typeof name === 'string' ? name : null };
}

function routeErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.statusCode === 413 || error.code === 'FST_REQ_FILE_TOO_LARGE') return sendError(reply, tooLarge());
  return sendError(reply, toAppError(error));
}

export function batchRoutes(deps: BatchRouteDeps): FastifyPluginAsync {
  return async (base) => {
    // Only in this plugin: files as the body (passed on as a stream) and multipart forms.
    await base.register(multipart, {
      limits: { fileSize: MAX_FILE_BYTES, files: 1, fields: 10, parts: 20 },
      throwFileSizeLimit: true,
    });
    base.addContentTypeParser(FILE_TYPES, (_request, payload, done) => done(null, payload));
    // Any other type reaches the handler, which names it in a 400 (a file that is not a batch file).
    base.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    createBatchRoute(app, deps);
    readBatchRoutes(app, deps);
    cancelBatchRoute(app, deps);
  };
}

/** POST /batches: JSON items, or a file as the body or in a multipart form. */
function createBatchRoute(app: RouteApp, deps: BatchRouteDeps): void {
  app.post(
    '/batches',
    {
      bodyLimit: JSON_BODY_LIMIT,
      config: { acceptsFiles: true },
      errorHandler: routeErrors,
      schema: {
        tags: ['batches'],
        operationId: 'createBatch',
        summary: 'Screen a batch of names (JSON items or a CSV, NDJSON or XLSX file)',
        description: `Queues a batch and answers at once (202); its rows run in the background (GET /batches/{id}). The body is JSON \`{items}\` (1 to ${MAX_ITEMS.toLocaleString('en')} POST /screen bodies, each with an optional \`externalId\`), or a file of at most 50 MB: \`text/csv\`, \`application/x-ndjson\` (one POST /screen body per line) or an XLSX workbook (\`${XLSX_TYPE}\`, first sheet), sent as the body with its content type or as the field \`file\` of \`multipart/form-data\`. CSV and XLSX have a header row naming the columns, in any letter case: name (required), entityType, country, birthDate, externalId. Each row is checked and screened exactly as POST /screen (one quota unit per screened row); a bad row is that row's error, never the batch's. A batch with more screenable rows than the monthly quota left is refused whole (403 TIER_LIMIT_EXCEEDED, saying how many fit). Options go in the JSON body or the query string.`,
        security: [{ apiKey: [] }],
        querystring: CreateBatchQuery,
        body: {
          content: {
            'application/json': { schema: CreateBatchBody },
            'text/csv': { schema: { description: 'CSV with a header row.' } },
            'application/x-ndjson': { schema: { description: 'One JSON object (a POST /screen body) per line.' } },
            [XLSX_TYPE]: { schema: { description: 'XLSX workbook; the first sheet is read.' } },
            'multipart/form-data': { schema: { description: 'The file in the field `file`.' } },
          },
        },
        response: responses(
          { 202: envelope(Type.Ref(BatchAccepted), 'The batch is stored and queued.') },
          {
            ...COMMON_ERRORS,
            400: 'VALIDATION_ERROR: `items` malformed, or the file is not CSV/NDJSON/XLSX, has no rows or no name column (`error.field` is `file`).',
            403: 'TIER_LIMIT_EXCEEDED: more screenable rows than the quota left this month (the message says how many fit); FORBIDDEN, FEATURE_NOT_AVAILABLE as everywhere.',
            413: 'PAYLOAD_TOO_LARGE: a file over 50 MB or a JSON body over 16 MiB.',
          },
        ),
      },
    },
    async (request, reply) => {
      const body = /^application\/json\b/i.test(request.headers['content-type'] ?? '')
        ? (request.body as CreateBatchBodyType)
        : undefined;
      const fields: Partial<BatchOptions> = {};
      const source = await batchSource(request, fields);
      const input: CreateBatchInput = { options: options(request.query, { ...fields, ...body }), source };
      const data = await deps.batches.createBatch({ ctx: contextOf(request), input });
      return reply.status(202).send({ success: true, data });
    },
  );
}

/** GET /batches, GET /batches/{id} and its results (a page, or every row as CSV or NDJSON). */
function readBatchRoutes(app: RouteApp, deps: BatchRouteDeps): void {
  app.get(
    '/batches',
    {
      schema: {
        tags: ['batches'],
        operationId: 'listBatches',
        summary: "List the organization's batches, newest first",
        security: [{ apiKey: [] }],
        querystring: ListBatchesQuery,
        response: responses({ 200: listEnvelope(Type.Ref(BatchStatus), 'One page of batches.') }, COMMON_ERRORS),
      },
    },
    async (request) => {
      const page = requestedPage(request.query);
      const { items, total } = await deps.batches.listBatches({ ctx: contextOf(request), input: page });
      return pageEnvelope(items, total, page);
    },
  );

  app.get(
    '/batches/:id',
    {
      schema: {
        tags: ['batches'],
        operationId: 'getBatch',
        summary: 'Progress of a batch: status, rows done, counts per risk level, row errors',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: responses(
          { 200: envelope(Type.Ref(BatchStatus), 'The batch.') },
          { ...COMMON_ERRORS, 404: 'NOT_FOUND: no batch with this id in the organization.' },
        ),
      },
    },
    async (request) => ({
      success: true,
      data: await deps.batches.getBatch({ ctx: contextOf(request), input: { id: request.params.id } }),
    }),
  );

  app.get(
    '/batches/:id/results',
    {
      schema: {
        tags: ['batches'],
        operationId: 'getBatchResults',
        summary: 'The rows of a batch with their screening or their error',
        description:
          'One line per row: its line number, externalId, screeningId, riskLevel, riskScore, entityId, entityName and matchedSources, or the error naming its line and field. `format=json` gives a page in the envelope; `format=csv` and `format=ndjson` stream every row (CSV columns: line, externalId, name, state, screeningId, riskLevel, riskScore, entityId, entityName, matchedSources (space-separated), errorCode, errorField, errorMessage, warnings (each `field code`, space-separated)).',
        security: [{ apiKey: [] }],
        params: IdParams,
        querystring: ResultsQuery,
        response: responses(
          {
            200: {
              ...listEnvelope(
                Type.Ref(BatchResultRow),
                'One page of rows (format=json); text/csv or application/x-ndjson otherwise.',
              ),
            },
          },
          { ...COMMON_ERRORS, 404: 'NOT_FOUND: no batch with this id in the organization.' },
        ),
      },
    },
    async (request, reply) => {
      const query = request.query;
      const ctx = contextOf(request);
      const sort = query.sort ?? 'line';
      if (query.format === 'csv' || query.format === 'ndjson') {
        const lines = await deps.batches.resultsStream({
          ctx,
          input: { id: request.params.id, format: query.format, sort },
        });
        const type = query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8';
        reply.header('content-type', type);
        if (query.format === 'csv')
          reply.header('content-disposition', `attachment; filename="${request.params.id}-results.csv"`);
        return reply.send(Readable.from(lines));
      }
      const page = { page: query.page ?? 1, pageSize: query.pageSize ?? 100 };
      const { items, total } = await deps.batches.resultsPage({
        ctx,
        input: { id: request.params.id, ...page, sort },
      });
      return pageEnvelope(items, total, page);
    },
  );
}

/** DELETE /batches/{id}. */
function cancelBatchRoute(app: RouteApp, deps: BatchRouteDeps): void {
  app.delete(
    '/batches/:id',
    {
      schema: {
        tags: ['batches'],
        operationId: 'cancelBatch',
        summary: 'Cancel what has not run of a batch',
        description:
          'Rows not yet run are cancelled; rows already screened stay (they are stored screenings), rows being screened at that moment finish.',
        security: [{ apiKey: [] }],
        params: IdParams,
        response: responses(
          { 200: envelope(Type.Ref(BatchStatus), 'The batch, cancelled.') },
          {
            ...COMMON_ERRORS,
            404: 'NOT_FOUND: no batch with this id in the organization.',
            409: 'CONFLICT: the batch is already completed, failed or cancelled.',
          },
        ),
      },
    },
    async (request) => ({
      success: true,
      data: await deps.batches.cancelBatch({ ctx: contextOf(request), input: { id: request.params.id } }),
    }),
  );
}
