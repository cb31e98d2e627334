import { Type, type Static } from '@sinclair/typebox';
import { PageQuery } from '../infra/page-query.js';
import { ExternalIdField, RiskLevelSchema, ScreeningWarning } from '../screening/index.js';

/** Request and response shapes of /v1/batches (issue 14): validation, handler types and the OpenAPI document. */

export const MAX_ITEMS = 10_000;

export const BATCH_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export const BatchStatusSchema = Type.Union(
  BATCH_STATUSES.map((s) => Type.Literal(s)),
  {
    description:
      'queued (no row run yet), running, completed (every row screened or in error), failed (the batch could not run), cancelled (DELETE; rows already screened stay).',
  },
);

const OptionFields = {
  monitor: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'Put every screened row under monitoring (as POST /monitors with its screening); a search already monitored is left as it is.',
    }),
  ),
  groupByCluster: Type.Optional(
    Type.Boolean({ default: false, description: 'The default `groupByCluster` of rows that do not set it.' }),
  ),
};

export const BatchItem = Type.Object(
  {
    name: Type.Optional(
      Type.Unknown({ description: "As POST /screen `name` (required: a row without one is that row's error)." }),
    ),
    entityType: Type.Optional(Type.Unknown({ description: 'As POST /screen.' })),
    country: Type.Optional(Type.Unknown({ description: 'As POST /screen.' })),
    birthDate: Type.Optional(Type.Unknown({ description: 'As POST /screen.' })),
    groupByCluster: Type.Optional(Type.Unknown({ description: 'As POST /screen.' })),
    externalId: Type.Optional(Type.Unknown({ description: ExternalIdField.description })),
  },
  {
    $id: 'BatchItem',
    title: 'BatchItem',
    description:
      "One row: a POST /screen body. It is checked row by row with the very validation of POST /screen: a bad row is that row's error (see the results), never the batch's.",
  },
);

export const CreateBatchBody = Type.Object(
  {
    items: Type.Array(Type.Ref(BatchItem), {
      minItems: 1,
      maxItems: MAX_ITEMS,
      description: `1 to ${MAX_ITEMS.toLocaleString('en')} rows, each a BatchItem (a POST /screen body).`,
    }),
    ...OptionFields,
  },
  { $id: 'CreateBatchRequest', title: 'CreateBatchRequest' },
);
export type CreateBatchBodyType = Static<typeof CreateBatchBody>;

export const CreateBatchQuery = Type.Object({
  monitor: Type.Optional(Type.Boolean({ description: 'As the JSON field `monitor` (for file uploads).' })),
  groupByCluster: Type.Optional(
    Type.Boolean({ description: 'As the JSON field `groupByCluster` (for file uploads).' }),
  ),
});

export const BatchAccepted = Type.Object(
  {
    batchId: Type.String({ pattern: '^bat_' }),
    status: BatchStatusSchema,
    total: Type.Integer({ description: 'Rows in the batch, bad ones included.' }),
  },
  { $id: 'BatchAccepted', title: 'BatchAccepted' },
);

export const RowError = Type.Object(
  {
    line: Type.Integer({ description: 'Line of the file (header = line 1), or position of the JSON item from 1.' }),
    code: Type.String({ description: 'VALIDATION_ERROR, or TIER_LIMIT_EXCEEDED when the quota ran out mid-batch.' }),
    field: Type.Union([Type.String(), Type.Null()], { description: 'The field at fault.' }),
    message: Type.String(),
  },
  { $id: 'BatchRowError', title: 'BatchRowError' },
);

export const BatchStatus = Type.Object(
  {
    batchId: Type.String({ pattern: '^bat_' }),
    status: BatchStatusSchema,
    source: Type.Union(['json', 'csv', 'ndjson', 'xlsx'].map((s) => Type.Literal(s))),
    fileName: Type.Union([Type.String(), Type.Null()]),
    total: Type.Integer(),
    done: Type.Integer({ description: 'Rows finished: screened or in error.' }),
    screened: Type.Integer(),
    errors: Type.Integer({ description: 'Rows in error.' }),
    queued: Type.Integer({ description: 'Rows not run yet.' }),
    cancelled: Type.Integer({ description: 'Rows that will not run (the batch was cancelled).' }),
    counts: Type.Object(
      { low: Type.Integer(), medium: Type.Integer(), high: Type.Integer() },
      { description: 'Screened rows per risk level.' },
    ),
    monitor: Type.Boolean(),
    groupByCluster: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    rowErrors: Type.Array(Type.Ref(RowError), {
      description: 'The first 100 row errors by line; all are in the results.',
    }),
  },
  { $id: 'BatchStatus', title: 'BatchStatus' },
);
export type BatchStatusData = Static<typeof BatchStatus>;

export const BatchResultRow = Type.Object(
  {
    line: Type.Integer(),
    state: Type.Union(['queued', 'done', 'error', 'cancelled'].map((s) => Type.Literal(s))),
    externalId: Type.Union([Type.String(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()], { description: 'The name as given in the row.' }),
    screeningId: Type.Union([Type.String(), Type.Null()]),
    riskLevel: Type.Union([RiskLevelSchema, Type.Null()]),
    riskScore: Type.Union([Type.Number(), Type.Null()]),
    entityId: Type.Union([Type.String(), Type.Null()]),
    entityName: Type.Union([Type.String(), Type.Null()]),
    matchedSources: Type.Array(Type.String()),
    warnings: Type.Array(Type.Ref(ScreeningWarning), {
      description:
        "The screening's warnings (identifiers screened as written although their check fails, as in POST /screen); empty when none.",
    }),
    error: Type.Union([Type.Ref(RowError), Type.Null()]),
  },
  { $id: 'BatchResultRow', title: 'BatchResultRow' },
);
export type BatchResultRowData = Static<typeof BatchResultRow>;

/** The body of the webhook event `batch.completed` (batch-runner.ts `finishBatches`; docs/webhooks.md). */
export const BatchCompletedEvent = Type.Object(
  {
    event: Type.Literal('batch.completed'),
    timestamp: Type.String({ format: 'date-time', description: 'When the batch completed.' }),
    organization: Type.Object(
      { id: Type.String({ description: '`org_<id>`' }), slug: Type.String(), name: Type.String() },
      { additionalProperties: false },
    ),
    batch: Type.Ref(BatchStatus, {
      description: 'The batch as GET /v1/batches/{id} returns it, with the status `completed`.',
    }),
  },
  {
    $id: 'BatchCompletedEvent',
    title: 'BatchCompletedEvent',
    additionalProperties: false,
    description: 'The body of the webhook event `batch.completed`.',
  },
);

export const ResultsQuery = Type.Object({
  page: PageQuery.page,
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Rows per page, 1 to 1000 (JSON only).' }),
  ),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('ndjson')], {
      default: 'json',
      description: 'json: one page in the envelope; csv or ndjson: every row, streamed.',
    }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('line'), Type.Literal('risk')], {
      default: 'line',
      description: 'line: file order; risk: highest riskScore first, then errors, then rows not run.',
    }),
  ),
});
export type ResultsQueryType = Static<typeof ResultsQuery>;

export const ListBatchesQuery = Type.Object({ ...PageQuery });

export const BATCH_SCHEMAS = [
  BatchItem,
  CreateBatchBody,
  BatchAccepted,
  RowError,
  BatchStatus,
  BatchResultRow,
  BatchCompletedEvent,
];
