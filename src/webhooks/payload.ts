/** The webhook payload of api-v1.md 6.2. */

/**
 * Every event the service delivers to an organization's webhook URL: enqueueDelivery takes only
 * these, and the OpenAPI document's `webhooks` (src/http/openapi.ts) must describe each one (a test
 * checks it), so an event cannot be sent without being documented.
 */
export const WEBHOOK_EVENTS = [
  'alert.created',
  'alert.resolved',
  'batch.completed',
  'validation.missed',
  'lists.changed',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface OrganizationRef {
  id: string;
  slug: string;
  name: string;
}

/** The alert object of api-v1.md 2.9, plus the additions DECISIONS.md and this service make. */
export interface AlertPayload {
  id: string;
  monitorId: string;
  entityId: string | null;
  entityName: string | null;
  oldRiskScore: number;
  newRiskScore: number;
  oldRiskLevel: string;
  newRiskLevel: string;
  oldSources: string[];
  newSources: string[];
  /** List labels of oldSources/newSources, for integrations written against earlier descriptions. */
  oldLists: string[];
  newLists: string[];
  /** Why the alert was raised: risk_level_changed, threshold_crossed, source_added. */
  reasons: string[];
  riskThreshold?: number;
  query?: string;
  timestamp: string;
  resolvedAt: string | null;
  resolvedBy?: string;
  note?: string;
  /** Issue 13: false positives on this customer that lapsed in the rescreen, and why. */
  lapsedSuppressions?: { decisionId: string; entityId: string; reason: string }[];
  /** Issue 13: the latest analyst decision on each of the alert's matched entities (command line and console views). */
  decisions?: unknown[];
}

/** The envelope of every event: its name, when, whose, and the object under its own key. */
function envelope(event: WebhookEvent, timestamp: string, organization: OrganizationRef, key: string, value: object) {
  return JSON.stringify({
    event,
    timestamp,
    organization: { id: organization.id, slug: organization.slug, name: organization.name },
    [key]: value,
  });
}

/** The exact bytes that are signed and sent; stored with the delivery so every retry sends the same body. */
export function serializeEvent(
  event: Extract<WebhookEvent, 'alert.created' | 'alert.resolved'>,
  timestamp: string,
  organization: OrganizationRef,
  alert: AlertPayload,
): string {
  return envelope(event, timestamp, organization, 'alert', alert);
}

/** The body of `batch.completed` (issue 14): the batch as GET /batches/{id} shows it. */
export function serializeBatchEvent(timestamp: string, organization: OrganizationRef, batch: object): string {
  return envelope('batch.completed', timestamp, organization, 'batch', batch);
}

/**
 * The body of `validation.missed` (issue 31): a list activation brought new or changed entries that
 * the quick run recorded on it did not all find at medium or above.
 */
export function serializeValidationEvent(timestamp: string, organization: OrganizationRef, validation: object): string {
  return envelope('validation.missed', timestamp, organization, 'validation', validation);
}

/**
 * The body of `lists.changed` (issue 30), sent to the organizations that opted in: what list
 * versions came into force, their counts of changed entities, and where the feed lists them.
 */
export function serializeListsChangedEvent(
  timestamp: string,
  organization: OrganizationRef,
  lists: { versions: object[]; added: number; removed: number; changed: number; major: number; feed: string },
): string {
  return envelope('lists.changed', timestamp, organization, 'lists', lists);
}
