import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { PageQuery } from '../infra/page-query.js';

/** Shapes of the decision endpoints (issue 13): request validation, types and the OpenAPI document. */

export const DECISIONS = ['confirmed', 'false_positive', 'needs_information'] as const;
export type DecisionKind = (typeof DECISIONS)[number];

export const REASONS = [
  'different_birth_date',
  'different_nationality',
  'different_gender',
  'different_entity_type',
  'different_identifier',
  'name_coincidence',
  'other',
] as const;

export const LAPSE_REASONS = [
  'listing_changed',
  'delisted_and_relisted',
  'customer_data_changed',
  'review_date_passed',
] as const;

export const FOUR_EYES = ['off', 'high', 'all'] as const;

const literals = <T extends readonly string[]>(values: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

export const DecisionRequest = Type.Object(
  {
    entityId: Type.String({
      maxLength: 300,
      description:
        'The matched entity (`<source_id>:<record_id>`): a match of the screening (or alert), or a listing of a grouped match.',
    }),
    decision: literals(
      DECISIONS,
      '`false_positive` suppresses the entity for this customer in later screenings (README "Decisions and suppression").',
    ),
    reason: Type.Optional(literals(REASONS, 'Why. Required for `false_positive`; `other` needs a note.')),
    note: Type.Optional(
      Type.String({ description: 'Free text, at most 2,000 characters; required with reason `other`.' }),
    ),
  },
  { $id: 'DecisionRequest', title: 'DecisionRequest', description: 'Unknown fields are ignored.' },
);
export type DecisionRequestBody = Static<typeof DecisionRequest>;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Decision = Type.Object(
  {
    id: Type.String({ pattern: '^dec_' }),
    screeningId: Nullable(Type.String()),
    alertId: Nullable(Type.String()),
    entityId: Type.String(),
    entityName: Type.String(),
    matchScore: Type.Number(),
    matchLevel: Type.String({ description: 'The level of the match when decided (high, medium).' }),
    decision: literals(DECISIONS, 'What the analyst decided.'),
    reason: Nullable(Type.String()),
    note: Nullable(Type.String()),
    decidedBy: Type.String({ description: 'E-mail of the user whose API key made the decision.' }),
    status: literals(
      ['pending', 'effective', 'lapsed'] as const,
      '`pending` waits for a second user (four-eyes); `lapsed`: a false positive that no longer suppresses.',
    ),
    approvedBy: Nullable(Type.String({ description: 'E-mail of the approving user.' })),
    approvedAt: Nullable(Type.String({ format: 'date-time' })),
    reviewAt: Nullable(Type.String({ format: 'date-time', description: 'A false positive lapses at this time.' })),
    lapsedAt: Nullable(Type.String({ format: 'date-time' })),
    lapseReason: Nullable(literals(LAPSE_REASONS, 'Why the suppression lapsed.')),
    externalId: Nullable(Type.String()),
    listVersion: Nullable(Type.String({ description: "The version of the entity's list the decision saw." })),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Decision', title: 'Decision' },
);

export const ListDecisionsQuery = Type.Object(
  {
    ...PageQuery,
    screeningId: Type.Optional(Type.String({ maxLength: 100 })),
    alertId: Type.Optional(Type.String({ maxLength: 100 })),
    entityId: Type.Optional(Type.String({ maxLength: 300 })),
    externalId: Type.Optional(Type.String({ maxLength: 500 })),
    decision: Type.Optional(literals(DECISIONS, 'Only decisions of this kind.')),
    status: Type.Optional(literals(['pending', 'effective', 'lapsed'] as const, 'Only decisions in this state.')),
    dateFrom: Type.Optional(Type.String({ description: 'ISO 8601 date or date-time; decisions at or after it.' })),
    dateTo: Type.Optional(Type.String({ description: 'ISO 8601 date or date-time; a bare date includes that day.' })),
  },
  { description: 'Unknown parameters are ignored.' },
);
export type ListDecisionsQueryType = Static<typeof ListDecisionsQuery>;

export const DECISION_SCHEMAS = [DecisionRequest, Decision];
