import { Type, type Static } from '@sinclair/typebox';
import { PageQuery } from '../infra/page-query.js';
import { THRESHOLDS } from './thresholds.js';

/** Request and response shapes of /v1/validation-runs (issue 31): validation, handler types and the OpenAPI document. */

export const ValidationRunStatusSchema = Type.Union(
  ['queued', 'running', 'completed', 'failed'].map((s) => Type.Literal(s)),
  {
    $id: 'ValidationRunStatus',
    title: 'ValidationRunStatus',
    description:
      'queued (waiting for a node to take it), running (see progress), completed (the signed report is ready), failed (error says why).',
  },
);

const thresholdProperties = Object.fromEntries(
  THRESHOLDS.map((t) => [
    t.key,
    Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: t.unit === '%' ? 100 : 1_000_000,
        description: `${t.label}: ${t.bound === 'min' ? 'at least' : 'at most'} this (${t.unit}); default ${t.default}.`,
      }),
    ),
  ]),
);

export const CreateValidationRunBody = Type.Object(
  {
    quick: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'A quick run: samples (2,000 listed names, 100 perturbations a kind, 2,000 negatives, 500 listed identifiers) instead of every listed name, in about a minute.',
      }),
    ),
    profile: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          "The screening profile the run measures (its id, prf_...; `default`: the built-in one). Left out: the organization's own profile, or the built-in one when it has none. The engine runs with the profile's options and a match counts as found at its cut-offs (unless `cutoffs` are given); the report names the profile and its version.",
      }),
    ),
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2 ** 31 - 1,
        description:
          'Draws the samples and the negative population; the same seed draws the same ones. Default 20260522.',
      }),
    ),
    thresholds: Type.Optional(
      Type.Object(thresholdProperties, {
        additionalProperties: false,
        description:
          "The organization's thresholds the summary judges the figures against; unset ones take their default.",
      }),
    ),
    cutoffs: Type.Optional(
      Type.Object(
        {
          medium: Type.Optional(
            Type.Number({
              minimum: 0,
              maximum: 100,
              description: "Default: the profile's medium cut-off (50, the medium boundary).",
            }),
          ),
          high: Type.Optional(
            Type.Number({
              minimum: 0,
              maximum: 100,
              description: "Default: the profile's high cut-off (80, the high boundary).",
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'The score a match must reach to count as found at medium and at high. The defaults are the risk levels of the service; another value shows what a different alerting line would catch (and what it would miss).',
        },
      ),
    ),
  },
  { $id: 'CreateValidationRunRequest', title: 'CreateValidationRunRequest' },
);
export type CreateValidationRunBodyType = Static<typeof CreateValidationRunBody>;

export const ValidationSummaryRow = Type.Object(
  {
    key: Type.String(),
    label: Type.String(),
    value: Type.Number(),
    unit: Type.Union([Type.Literal('%'), Type.Literal('ms'), Type.Literal('count')]),
    threshold: Type.Number(),
    bound: Type.Union([Type.Literal('min'), Type.Literal('max')], {
      description: 'min: the value must be at least the threshold; max: at most.',
    }),
    met: Type.Boolean(),
  },
  { $id: 'ValidationSummaryRow', title: 'ValidationSummaryRow' },
);

export const ValidationRun = Type.Object(
  {
    id: Type.String({ description: '`val_<id>`' }),
    kind: Type.String({ description: 'full, quick, or activation (recorded by the deployment on a list activation).' }),
    status: Type.Ref(ValidationRunStatusSchema),
    quick: Type.Boolean(),
    seed: Type.Integer(),
    progress: Type.Object({
      phase: Type.Union([Type.String(), Type.Null()], {
        description: 'self-screen, perturbations, negatives, identifiers or latency; null before the run starts.',
      }),
      done: Type.Integer(),
      total: Type.Integer({ description: 'Queries of the current phase.' }),
    }),
    createdAt: Type.String(),
    startedAt: Type.Union([Type.String(), Type.Null()]),
    finishedAt: Type.Union([Type.String(), Type.Null()]),
    passed: Type.Union([Type.Boolean(), Type.Null()], { description: 'Every threshold met; null until completed.' }),
    summary: Type.Union([Type.Array(Type.Ref(ValidationSummaryRow)), Type.Null()], {
      description: 'Each figure against its threshold; null until completed.',
    }),
    error: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'ValidationRun', title: 'ValidationRun' },
);

export const ListValidationRunsQuery = Type.Object({ ...PageQuery });

export const ReportParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  file: Type.Union([Type.Literal('report.json'), Type.Literal('report.html')]),
});

/**
 * The body of the webhook event `validation.missed` (validation-runner.ts `complete`; docs/validation.md
 * "List activations"): sent to every organization with a webhook when an activation's quick run did
 * not find all of the new or changed entries at medium or above.
 */
export const ValidationMissedEvent = Type.Object(
  {
    event: Type.Literal('validation.missed'),
    timestamp: Type.String({ format: 'date-time', description: 'When the run completed.' }),
    organization: Type.Object(
      { id: Type.String({ description: '`org_<id>`' }), slug: Type.String(), name: Type.String() },
      { additionalProperties: false },
    ),
    validation: Type.Object(
      {
        runId: Type.String({ description: 'The activation run (`val_act_...`): GET /v1/validation/runs/{id}.' }),
        versions: Type.Array(
          Type.Object(
            {
              source: Type.String({ description: 'A source id, e.g. `us_ofac`.' }),
              version: Type.String({ description: 'The list version in force (`lv_...`).' }),
            },
            { additionalProperties: false },
          ),
          { description: 'The list versions in force after the activation, one per source.' },
        ),
        newOrChanged: Type.Integer({
          minimum: 0,
          description: 'Names and listings of the new and changed entries that were self-screened.',
        }),
        missed: Type.Array(Type.String(), {
          description: 'Entity ids (`<source>:<record id>`) of the new or changed entries not all found.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  {
    $id: 'ValidationMissedEvent',
    title: 'ValidationMissedEvent',
    additionalProperties: false,
    description: 'The body of the webhook event `validation.missed`.',
  },
);

export const VALIDATION_SCHEMAS = [
  ValidationRunStatusSchema,
  CreateValidationRunBody,
  ValidationSummaryRow,
  ValidationRun,
  ValidationMissedEvent,
];
