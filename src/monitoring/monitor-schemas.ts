import { Type, type Static } from '@sinclair/typebox';
import { ExternalIdField, identifiersField, RiskLevelSchema, StoredIdentifier } from '../screening/index.js';
import { PageQuery } from '../infra/page-query.js';
import { DEFAULT_RISK_THRESHOLD } from './alert-rules.js';

/** Shapes of the monitoring endpoints (api-v1.md 2.8, 4.4-4.6; DECISIONS.md "Monitors"). */

const MonitorExternalId = Type.Union([Type.String(), Type.Null()], {
  description:
    "The customer reference: the one given with POST /monitors, else the screening's; null when neither has one.",
});

export const CreateMonitorRequest = Type.Object(
  {
    screeningId: Type.String({ description: 'Id of a stored screening of this organization.', maxLength: 100 }),
    riskThreshold: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 100,
        default: DEFAULT_RISK_THRESHOLD,
        description: 'Alert when the risk score crosses it, in either direction. 0 to 100, default 55.',
      }),
    ),
    identifiers: identifiersField(
      "Added to the screening's own identifiers for every rescreen (the same checks as POST /screen). The monitored search is then the screening's name and filters with all of them: another search than the screening's.",
    ),
    externalId: Type.Optional(ExternalIdField),
  },
  { $id: 'CreateMonitorRequest', title: 'CreateMonitorRequest', description: 'Unknown fields are ignored.' },
);
export type CreateMonitorBody = Static<typeof CreateMonitorRequest>;

export const MonitorCreated = Type.Object(
  {
    id: Type.String({ pattern: '^mon_' }),
    screeningId: Type.String(),
    isActive: Type.Boolean({ description: 'False while the organization is below the Starter tier.' }),
    isNew: Type.Boolean({ description: 'True when a new monitor was created.' }),
    entityName: Type.Union([Type.String(), Type.Null()]),
    lastRiskScore: Type.Number(),
    lastRiskLevel: RiskLevelSchema,
    riskThreshold: Type.Number(),
    externalId: MonitorExternalId,
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'MonitorCreated', title: 'MonitorCreated' },
);

export const MonitorItem = Type.Object(
  {
    id: Type.String({ pattern: '^mon_' }),
    screeningId: Type.String(),
    query: Type.String(),
    entityName: Type.Union([Type.String(), Type.Null()]),
    isActive: Type.Boolean(),
    riskThreshold: Type.Number(),
    lastRiskScore: Type.Number(),
    lastRiskLevel: RiskLevelSchema,
    lastSources: Type.Array(Type.String()),
    lastScreenedAt: Type.String({ format: 'date-time' }),
    externalId: MonitorExternalId,
    createdAt: Type.String({ format: 'date-time' }),
    identifiers: Type.Array(Type.Ref(StoredIdentifier), {
      description: 'The identifiers every rescreen uses; empty when none.',
    }),
  },
  { $id: 'MonitorItem', title: 'MonitorItem' },
);

export const MonitorRemoved = Type.Object(
  { id: Type.String({ pattern: '^mon_' }), removed: Type.Literal(true) },
  { $id: 'MonitorRemoved', title: 'MonitorRemoved' },
);

export const ListMonitorsQuery = Type.Object({ ...PageQuery }, { description: 'Unknown parameters are ignored.' });
export type ListMonitorsQueryType = Static<typeof ListMonitorsQuery>;

const Sources = (description: string) => Type.Array(Type.String(), { description });

const Organization = Type.Object(
  { id: Type.String({ description: '`org_<id>`' }), slug: Type.String(), name: Type.String() },
  { additionalProperties: false },
);

/** The alert object of both alert events (alerts-service.ts `alertView`, alert-raise.ts; api-v1.md 2.9). */
const alertFields = {
  id: Type.String({ description: '`alt_<id>`' }),
  monitorId: Type.String(),
  entityId: Type.Union([Type.String(), Type.Null()], {
    description: 'The top match; when the party dropped off the lists, the entity it matched before.',
  }),
  entityName: Type.Union([Type.String(), Type.Null()]),
  oldRiskScore: Type.Number({ minimum: 0, maximum: 100 }),
  newRiskScore: Type.Number({ minimum: 0, maximum: 100 }),
  oldRiskLevel: RiskLevelSchema,
  newRiskLevel: RiskLevelSchema,
  oldSources: Sources('Sources matched before the rescreen.'),
  newSources: Sources('Sources matched now.'),
  oldLists: Sources('List labels of oldSources.'),
  newLists: Sources('List labels of newSources.'),
  reasons: Type.Array(
    Type.Union(
      ['risk_level_changed', 'threshold_crossed', 'source_added', 'suppression_lapsed'].map((r) => Type.Literal(r)),
    ),
  ),
  riskThreshold: Type.Optional(Type.Number({ description: "The monitor's threshold (not on test sends)." })),
  query: Type.Optional(Type.String({ description: 'The monitored name (not on test sends).' })),
  timestamp: Type.String({ format: 'date-time', description: 'When the alert was raised.' }),
};

/** The body of the webhook event `alert.created` (alert-raise.ts; api-v1.md 2.9 and 6.2, docs/webhooks.md). */
export const AlertCreatedEvent = Type.Object(
  {
    event: Type.Literal('alert.created'),
    timestamp: Type.String({ format: 'date-time' }),
    organization: Organization,
    alert: Type.Object(
      {
        ...alertFields,
        resolvedAt: Type.Null(),
        lapsedSuppressions: Type.Optional(
          Type.Array(
            Type.Object(
              { decisionId: Type.String(), entityId: Type.String(), reason: Type.String() },
              { additionalProperties: false },
            ),
            { description: 'With the reason suppression_lapsed: the false positives that no longer apply.' },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    $id: 'AlertCreatedEvent',
    title: 'AlertCreatedEvent',
    additionalProperties: false,
    description: 'The body of the webhook event `alert.created`.',
  },
);

/**
 * The body of the webhook event `alert.resolved` (alerts-service.ts `resolveAlert`; DECISIONS.md:
 * the alert object with resolvedAt set, plus resolvedBy and note).
 */
export const AlertResolvedEvent = Type.Object(
  {
    event: Type.Literal('alert.resolved'),
    timestamp: Type.String({ format: 'date-time', description: 'When the alert was resolved.' }),
    organization: Organization,
    alert: Type.Object(
      {
        ...alertFields,
        resolvedAt: Type.String({ format: 'date-time' }),
        resolvedBy: Type.String({ description: 'The email of the user who resolved the alert.' }),
        note: Type.Optional(Type.String({ description: 'The note given when resolving, if any.' })),
      },
      { additionalProperties: false },
    ),
  },
  {
    $id: 'AlertResolvedEvent',
    title: 'AlertResolvedEvent',
    additionalProperties: false,
    description: 'The body of the webhook event `alert.resolved`.',
  },
);

export const MONITOR_SCHEMAS = [
  CreateMonitorRequest,
  MonitorCreated,
  MonitorItem,
  MonitorRemoved,
  AlertCreatedEvent,
  AlertResolvedEvent,
];
