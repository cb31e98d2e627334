import { Type, type Static } from '@sinclair/typebox';

/**
 * Request and response shapes of the screening endpoints (api-v1.md 2.2-2.6, 4.1-4.3). They validate
 * requests, type the handlers and generate the OpenAPI document.
 */

export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export const RiskLevelSchema = Type.Union(
  RISK_LEVELS.map((l) => Type.Literal(l)),
  {
    description: 'high when riskScore >= 80, medium when 50 <= riskScore < 80, low below 50.',
  },
);

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

export const ScreenRequest = Type.Object(
  {
    name: Type.String({ description: 'Name of the entity to screen: 1 to 500 characters after trimming.' }),
    entityType: Type.Optional(
      Type.Union(
        ['person', 'business', 'organization', 'aircraft', 'vessel'].map((t) => Type.Literal(t)),
        {
          description: '`business` is an alias of `organization`.',
        },
      ),
    ),
    country: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        description: 'ISO 3166-1 alpha-2 country code such as GB; letter case is ignored',
      }),
    ),
    birthDate: Type.Optional(
      Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'calendar date, YYYY-MM-DD' }),
    ),
    groupByCluster: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Collapse rows for the same party across lists into one match with `listings`.',
      }),
    ),
  },
  { $id: 'ScreenRequest', title: 'ScreenRequest', description: 'Unknown fields are ignored and never stored.' },
);
export type ScreenRequestBody = Static<typeof ScreenRequest>;

export const Derivation = Type.Object(
  {
    rule: Type.Literal('ofac_50_percent'),
    percentage: Type.Optional(Type.Number({ description: 'Aggregated stake held by blocked owners, percent.' })),
    ownerEntityId: Type.String({
      description: 'The listed owner at the head of the strongest chain, `<source_id>:<record_id>`.',
    }),
    ownerName: Type.String(),
    chain: Type.Array(Type.Object({ lei: Type.String(), name: Type.String() }), {
      description: 'From the listed owner down to the matched entity.',
    }),
    contributors: Type.Optional(
      Type.Array(
        Type.Object(
          {
            ownerEntityId: Type.Optional(Type.String()),
            ownerLei: Type.Optional(Type.String()),
            ownerName: Type.String(),
            percentage: Type.Number(),
          },
          { additionalProperties: true },
        ),
      ),
    ),
    asOf: Type.String({ description: 'Date of the ownership data, YYYY-MM-DD.' }),
  },
  { $id: 'Derivation', title: 'Derivation', additionalProperties: true },
);

export const MatchedEntity = Type.Object(
  {
    id: Type.String({ description: '`<source_id>:<record_id>`' }),
    name: Type.String({ description: 'Name as listed.' }),
    entityType: Type.Union(['person', 'organization', 'aircraft', 'vessel'].map((t) => Type.Literal(t))),
    country: Type.Optional(Type.String()),
    programs: Type.Optional(Type.Array(Type.String())),
    listingDate: Type.Optional(Type.String()),
    reason: Type.Optional(Type.String({ description: 'Present on derived (us_ofac_50) matches.' })),
    derivation: Type.Optional(Type.Ref(Derivation)),
  },
  { $id: 'MatchedEntity', title: 'MatchedEntity' },
);

export const Listing = Type.Object(
  {
    dataset: Type.String(),
    datasetLabel: Type.String(),
    entityId: Type.String(),
    name: Type.String(),
    programs: Type.Array(Type.String()),
    listingDate: Type.Optional(Type.String()),
    matchScore: Type.Optional(Type.Number()),
  },
  { $id: 'Listing', title: 'Listing', additionalProperties: true },
);

export const Match = Type.Object(
  {
    dataset: Type.String({ description: 'Source id (api-v1.md 2.7).' }),
    datasetLabel: Type.String(),
    matchScore: Score('How well this list row matches the query: name plus corroborating fields.'),
    entity: Type.Ref(MatchedEntity),
    explanation: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'Which listed name matched, how the name parts aligned, and what birth date, country and entity type did to the score.',
        },
      ),
    ),
    listings: Type.Optional(
      Type.Array(Type.Ref(Listing), { description: 'Only with groupByCluster: one entry per source row.' }),
    ),
    clusterId: Type.Optional(Type.String()),
  },
  { $id: 'Match', title: 'Match' },
);

export const ScreeningResult = Type.Object(
  {
    screeningId: Type.String({ pattern: '^scr_' }),
    entityId: Type.Union([Type.String(), Type.Null()]),
    entityName: Type.Union([Type.String(), Type.Null()]),
    riskScore: Score('Overall risk of the screening.'),
    riskLevel: RiskLevelSchema,
    confidence: Score('How sure the service is that the top match is the same party.'),
    matchedSources: Type.Array(Type.String()),
    matchDetails: Type.Array(Type.Ref(Match), {
      description:
        'The top match first: the best row of the riskiest party (it sets riskScore, entityId and entityName), even when one row of another party, confirmed by no other list, scores a little higher; the other matches follow by matchScore.',
    }),
    isMonitored: Type.Boolean(),
  },
  { $id: 'ScreeningResult', title: 'ScreeningResult' },
);
export type ScreeningResultData = Static<typeof ScreeningResult>;

export const ListVersionRef = Type.Object(
  {
    source: Type.String(),
    version: Type.String(),
    publishedAt: Type.Union([Type.String(), Type.Null()]),
    records: Type.Integer(),
  },
  { $id: 'ListVersionRef', title: 'ListVersionRef' },
);

export const ScreeningRecord = Type.Object(
  {
    id: Type.String({ pattern: '^scr_' }),
    entityId: Type.Union([Type.String(), Type.Null()]),
    entityName: Type.Union([Type.String(), Type.Null()]),
    query: Type.String(),
    riskScore: Score('Overall risk of the screening.'),
    riskLevel: RiskLevelSchema,
    confidence: Score('Confidence in the top match.'),
    matchedSources: Type.Array(Type.String()),
    matchDetails: Type.Array(Type.Ref(Match)),
    usedSources: Type.Array(Type.String(), { description: 'Source ids the screening ran against.' }),
    listVersions: Type.Array(Type.Ref(ListVersionRef), { description: 'The list versions the screening ran against.' }),
    isMonitored: Type.Boolean(),
    entityType: Type.Union([Type.String(), Type.Null()]),
    country: Type.Union([Type.String(), Type.Null()]),
    birthDate: Type.Union([Type.String(), Type.Null()]),
    groupByCluster: Type.Boolean(),
    timestamp: Type.String({ format: 'date-time' }),
  },
  { $id: 'ScreeningRecord', title: 'ScreeningRecord' },
);

export const ScreeningSummary = Type.Object(
  {
    id: Type.String({ pattern: '^scr_' }),
    entityId: Type.Union([Type.String(), Type.Null()]),
    entityName: Type.Union([Type.String(), Type.Null()]),
    query: Type.String(),
    riskScore: Type.Number(),
    riskLevel: RiskLevelSchema,
    matchedSources: Type.Array(Type.String()),
    isMonitored: Type.Boolean(),
    timestamp: Type.String({ format: 'date-time' }),
  },
  { $id: 'ScreeningSummary', title: 'ScreeningSummary' },
);

export const PageQuery = {
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      default: 1,
      description: 'Page number, from 1 (at most 1,000,000).',
    }),
  ),
  pageSize: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page, 1 to 100.' }),
  ),
};

export const ListScreeningsQuery = Type.Object(
  {
    ...PageQuery,
    riskLevel: Type.Optional(RiskLevelSchema),
    dateFrom: Type.Optional(Type.String({ description: 'ISO 8601 date or date-time; screenings at or after it.' })),
    dateTo: Type.Optional(
      Type.String({ description: 'ISO 8601 date or date-time; a bare date includes that whole day.' }),
    ),
    search: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Case-insensitive substring of the screened name or the matched entity name.',
      }),
    ),
  },
  { description: 'Unknown parameters are ignored.' },
);
export type ListScreeningsQueryType = Static<typeof ListScreeningsQuery>;

export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const SCREENING_SCHEMAS = [
  ScreenRequest,
  Derivation,
  MatchedEntity,
  Listing,
  Match,
  ScreeningResult,
  ListVersionRef,
  ScreeningRecord,
  ScreeningSummary,
];
