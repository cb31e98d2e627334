import { Type, type Static } from '@sinclair/typebox';
import { PageQuery } from '../infra/page-query.js';
import { SCREENING_IDENTIFIER_TYPES } from '../identifiers/index.js';
import { MAX_IDENTIFIERS, MAX_IDENTIFIER_LENGTH } from './identifiers-input.js';

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

/** The customer reference (issue 13), on POST /screen and POST /monitors. */
export const ExternalIdField = Type.String({
  description:
    "The customer's reference in your own systems, 1 to 200 characters after trimming. Stored with the screening, filterable in GET /screenings, and part of the idempotency comparison.",
});
const NullableExternalId = Type.Union([Type.String(), Type.Null()], {
  description: 'The customer reference given with the request, or null.',
});

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

export const IdentifierInput = Type.Object(
  {
    type: Type.Union(
      SCREENING_IDENTIFIER_TYPES.map((t) => Type.Literal(t)),
      {
        description:
          'imo (7 digits, IMO check digit), mmsi (9 digits, allocated maritime identification digits), lei (ISO 17442, MOD 97-10), bic (ISO 9362 structure), passport, national_id, registration, tax_id, crypto_wallet, call_sign, aircraft_serial, aircraft_registration.',
      },
    ),
    value: Type.String({
      minLength: 1,
      maxLength: MAX_IDENTIFIER_LENGTH,
      description:
        'As written: letter case, spaces, dashes, dots and prefixes such as "IMO" or "No." do not matter. A value of the wrong length, characters or structure for its type is 400 VALIDATION_ERROR naming identifiers[i].value; a well-formed value whose check digit fails (IMO, LEI) or whose MMSI country digits are unallocated is screened as written, with a warning in the result\'s `warnings`.',
    }),
    country: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z]{2}$',
        description:
          'Issuing country (ISO 3166-1 alpha-2) of a passport, national_id, registration or tax_id: a number of another country on the listing is another document.',
      }),
    ),
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9]{2,10}$',
        description: 'Only with crypto_wallet: the currency (BTC, ETH, XMR...; XBT is read as BTC).',
      }),
    ),
  },
  {
    $id: 'IdentifierInput',
    title: 'IdentifierInput',
    description: 'An identifier of the screened party. Unknown fields are ignored.',
  },
);

/** An identifier as stored with a screening or monitor and returned by GET /screenings/{id}. */
export const StoredIdentifier = Type.Object(
  {
    type: Type.String(),
    value: Type.String({ description: 'As sent, trimmed.' }),
    normalized: Type.String({ description: 'The form the lists are compared in.' }),
    country: Type.Optional(Type.String()),
    currency: Type.Optional(Type.String()),
  },
  { $id: 'StoredIdentifier', title: 'StoredIdentifier' },
);

/** The `identifiers` field of a request (POST /screen, POST /monitors), with what it means there. */
export function identifiersField(description: string) {
  return Type.Optional(
    Type.Array(Type.Ref(IdentifierInput), {
      maxItems: MAX_IDENTIFIERS,
      description: `At most ${MAX_IDENTIFIERS}. ${description}`,
    }),
  );
}

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
        description:
          "Collapse rows for the same party across lists into one match with `listings`. Left out: false, or the screening profile's `groupByCluster`.",
      }),
    ),
    identifiers: identifiersField(
      "A listing carrying one of them (same type and normalized value) is found whatever its name. Decisive identifiers (lei, bic, imo of a vessel or a company, mmsi, crypto_wallet with no other currency, aircraft_serial of a listed aircraft) make it high whatever the name, explained with the name score beside it; country-scoped ones (passport, national_id, registration, tax_id) make it high with a compatible name or the same issuing country, and medium (review) otherwise; call_sign and aircraft_registration high with a compatible name or on a craft's listing. A listing with only other numbers of the same type is contradicted. Part of the search (isMonitored, monitors' rescreens).",
    ),
    externalId: Type.Optional(ExternalIdField),
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
    // Issue 13: suppression by an analyst's false-positive decision (README "Decisions and suppression").
    suppressed: Type.Optional(
      Type.Literal(true, {
        description:
          'A cleared match (false_positive decision in force for this customer): reported after the others, it raises neither riskScore nor riskLevel and creates no alert.',
      }),
    ),
    decisionId: Type.Optional(Type.String({ description: 'With `suppressed`: the decision that suppresses it.' })),
    suppressionLapsed: Type.Optional(
      Type.Object(
        {
          decisionId: Type.String(),
          reason: Type.String({
            description: 'listing_changed, delisted_and_relisted, customer_data_changed or review_date_passed.',
          }),
          lapsedAt: Type.String({ format: 'date-time' }),
        },
        { description: 'A false positive on this match that no longer suppresses it, and why.' },
      ),
    ),
    decision: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'GET /screenings/{id} only: the latest decision on this match (a `Decision`).',
        },
      ),
    ),
  },
  { $id: 'Match', title: 'Match' },
);

/** A warning about the request (issue 27): it was screened, but part of it is doubtful. */
export const ScreeningWarning = Type.Object(
  {
    field: Type.String({ description: 'The request field, such as `identifiers[0].value`.' }),
    code: Type.Union(
      ['CHECKSUM_MISMATCH', 'UNALLOCATED_MID'].map((c) => Type.Literal(c)),
      {
        description:
          'CHECKSUM_MISMATCH: an IMO number or LEI whose check digit fails (for a vessel, the ship scheme); UNALLOCATED_MID: an MMSI whose maritime identification digits are allocated to no country.',
      },
    ),
    message: Type.String(),
  },
  { $id: 'ScreeningWarning', title: 'ScreeningWarning' },
);

const Warnings = Type.Array(Type.Ref(ScreeningWarning), {
  description:
    'What the screening took as written although it fails a check: a well-formed identifier whose check digit fails may still be the number a list prints, so it is screened, not refused. Empty when none.',
});

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
    warnings: Warnings,
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
    identifiers: Type.Array(Type.Ref(StoredIdentifier), { description: 'The identifiers screened; empty when none.' }),
    warnings: Warnings,
    externalId: NullableExternalId,
    engineVersion: Type.Union([Type.String(), Type.Null()], {
      description:
        'The engine that ran: package version, the digest of the declared scoring (the table, knobs and part rules of docs/scoring.md) and a digest of the engine modules (`0.1.0+scoring.<16 hex>.code.<16 hex>`; `0.1.0+rules.<16 hex>` on screenings stored before the scoring table); null for screenings stored before it was recorded.',
    }),
    profile: Type.Union(
      [
        Type.Object({
          id: Type.Union([Type.String(), Type.Null()], {
            description: 'The profile (`prf_<id>`); null for the built-in default profile.',
          }),
          version: Type.Integer({ description: 'The version that was active; 0 for the built-in default.' }),
        }),
        Type.Null(),
      ],
      {
        description:
          'The screening profile the screening ran under (docs/profiles.md); null for screenings stored before profiles existed.',
      },
    ),
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
    externalId: NullableExternalId,
    timestamp: Type.String({ format: 'date-time' }),
  },
  { $id: 'ScreeningSummary', title: 'ScreeningSummary' },
);

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
    externalId: Type.Optional(
      Type.String({ maxLength: 500, description: 'Screenings with exactly this customer reference (after trimming).' }),
    ),
  },
  { description: 'Unknown parameters are ignored.' },
);
export type ListScreeningsQueryType = Static<typeof ListScreeningsQuery>;

export const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const SCREENING_SCHEMAS = [
  IdentifierInput,
  StoredIdentifier,
  ScreeningWarning,
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
