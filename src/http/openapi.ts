import type { SwaggerOptions } from '@fastify/swagger';
import type { WebhookEvent } from '../webhooks/index.js';
import { COMMON_HEADERS } from './schemas.js';

/**
 * The OpenAPI 3.1 document is generated from the route schemas (the same objects that validate
 * requests) by @fastify/swagger; this module adds what route schemas cannot carry: the security
 * scheme, the headers on every response, and the contract's decisions written out.
 */

const DESCRIPTION = `Screens people, organizations, vessels and aircraft against nine official sanctions lists
(US OFAC, US CSL, EU, UK, UN, Australia, Switzerland, Canada, Japan) and a source derived from ownership data
under the OFAC 50 percent rule. Every screening is stored for the caller's organization.

**Scores.** riskScore, matchScore and confidence are numbers from 0 to 100 with at most one decimal.
riskLevel is \`high\` when riskScore >= 80, \`medium\` when 50 <= riskScore < 80, and \`low\` below 50.
A screening with no match above the reporting floor has riskScore 0, riskLevel \`low\`, null entityId and entityName.

**Identifiers.** POST /screen and POST /monitors take \`identifiers\`: IMO, MMSI, LEI, BIC, passport, national id,
registration, tax id, crypto wallet, call sign, aircraft serial and aircraft registration numbers, normalized per type
and checked where the standard defines a check. A value of the wrong length, characters or structure is 400
VALIDATION_ERROR naming \`identifiers[i].value\`; a well-formed IMO number or LEI whose check digit fails (or an MMSI with
unallocated country digits) is screened as written and the result carries a \`warnings\` entry
(\`{field, code: CHECKSUM_MISMATCH | UNALLOCATED_MID, message}\`), stored and shown again by GET /screenings/{id}.
A listing carrying one is found whatever its name. A decisive identifier (LEI, BIC, IMO of a vessel or company, MMSI,
crypto wallet, a listed aircraft's serial) makes the match high whatever the name; passport, national id, registration
and tax id numbers do so only with a compatible name or the same issuing country. The explanation names the identifier
and the name score beside it.

**Authentication.** Every /v1 request carries an \`x-api-key\` header. Keys are created by an administrator
(command line \`sanctions keys create\`). API access requires the Starter tier or above.

**Limits.** 60 requests per minute per key on every endpoint, shared by all nodes of a deployment;
\`X-RateLimit-Reset\` is the Unix time (seconds) when the window resets and \`Retry-After\` on 429 the seconds to wait.
Failed authentications are limited per client address. Monthly screening quotas: starter 1,000, professional 10,000,
enterprise unlimited, counted per calendar month in UTC; only new POST /screen executions count.

**Idempotency.** POST /screen accepts an \`Idempotency-Key\` (at most 255 characters) scoped to the organization:
a replay within 24 hours returns the stored response with \`Idempotency-Replayed: true\`; the same key with a
different body gives 422 IDEMPOTENCY_KEY_MISMATCH; the same key while the first request runs gives 409 CONFLICT.

**Errors.** Every failure uses the envelope \`{ "success": false, "error": { "code", "message" } }\`.`;

const deliveryHeader = (name: string, description: string, required = true) => ({
  name,
  in: 'header' as const,
  required,
  schema: { type: 'string' as const },
  description,
});

/** The tag each event is listed under, by the domain that sends it. */
const WEBHOOK_TAGS: Record<string, string> = {
  alert: 'monitoring',
  batch: 'batches',
  lists: 'lists',
  validation: 'validation',
};

/** A webhook event: what the service POSTs to the organization's webhook URL, signed. */
function webhookEvent(event: WebhookEvent, schema: string, summary: string, description: string) {
  return {
    post: {
      operationId: `${event.replace(/\.(\w)/, (_m, c: string) => c.toUpperCase())}Event`,
      tags: [WEBHOOK_TAGS[event.split('.')[0] ?? ''] ?? 'monitoring'],
      // Sent by the service, not called with an API key: the signature header authenticates it.
      security: [],
      summary,
      description,
      parameters: [
        deliveryHeader('X-Service-Event', `The event name: \`${event}\`.`),
        deliveryHeader('X-Service-Delivery', 'The delivery id (`whd_...`), the same on every retry.'),
        deliveryHeader(
          'X-Service-Signature',
          '`sha256=` followed by the hex HMAC-SHA256 of the raw request body, keyed with the webhook secret.',
        ),
        deliveryHeader('X-Service-Test', '`true` on test sends (`sanctions webhooks test`) only.', false),
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
      },
      responses: {
        '2XX': { description: 'Received; any other answer or none within 10 seconds is retried.' },
      },
    },
  };
}

/**
 * Webhook events the service POSTs to an organization's webhook URL (OpenAPI 3.1 `webhooks`,
 * docs/webhooks.md), signed with the organization's webhook secret. Keyed by every event the service
 * delivers (WEBHOOK_EVENTS, webhooks/payload.ts): an event added there does not compile until it is
 * described here.
 */
const WEBHOOKS: Record<WebhookEvent, ReturnType<typeof webhookEvent>> = {
  'alert.created': webhookEvent(
    'alert.created',
    'AlertCreatedEvent',
    'A rescreen raised an alert',
    "Sent when a rescreen of a monitor changes its risk level, crosses its threshold in either direction, finds it on a new list, or lapses an analyst's suppression of one of its matches.",
  ),
  'alert.resolved': webhookEvent(
    'alert.resolved',
    'AlertResolvedEvent',
    'A user resolved an alert',
    "Sent when a member of the organization resolves an alert (`sanctions alerts resolve ALERT_ID --user EMAIL [--note TEXT]`, or the console): the alert object with `resolvedAt` set, plus `resolvedBy` (the user's email) and `note` when one was given.",
  ),
  'batch.completed': webhookEvent(
    'batch.completed',
    'BatchCompletedEvent',
    'Every row of a batch has run',
    'Sent when every row of a batch (POST /v1/batches) has run, with the batch as GET /v1/batches/{id} returns it; not sent for a cancelled batch.',
  ),
  'validation.missed': webhookEvent(
    'validation.missed',
    'ValidationMissedEvent',
    'A list activation brought entries the service does not find',
    'Sent to every organization with a webhook when list versions come into force and the quick validation run recorded on them does not find every new or changed entry at medium or above: the run, the versions and the entity ids it missed.',
  ),
  'lists.changed': webhookEvent(
    'lists.changed',
    'ListsChangedEvent',
    'List versions came into force (opt-in)',
    'Sent once per version to each organization that opted in (`sanctions orgs update --lists-changed on`) and has a webhook, when list versions that change at least one listed entity come into force: the counts of entities added, removed and changed, and links to GET /v1/lists/changes.',
  ),
};

/** `publicUrl` (PUBLIC_URL) is the server entry; unset, the entry is relative to where the document was read. */
export function buildOpenApiOptions(publicUrl?: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sanctions Screening Service API',
        version: '1.0.0',
        description: DESCRIPTION,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [
        publicUrl
          ? { url: publicUrl, description: 'This deployment (PUBLIC_URL; the v1 prefix is part of every path)' }
          : { url: '/', description: 'The server this document was read from (the v1 prefix is part of every path)' },
      ],
      tags: [
        { name: 'screening', description: 'Screen names and read stored screenings.' },
        { name: 'monitoring', description: 'Continuous monitoring of stored screenings.' },
        {
          name: 'decisions',
          description:
            'Analyst decisions on matches: false positives suppress a listed entity for a customer; four-eyes approval.',
        },
        { name: 'batches', description: 'Batch screening of customer files (JSON, CSV, NDJSON, XLSX).' },
        { name: 'lists', description: 'The sanctions lists: what changed between the versions put in force.' },
        {
          name: 'validation',
          description:
            'Validation reports: evidence, signed with Ed25519, of how well this deployment screens on its own lists (self-screen, perturbation recall, false alerts per script, identifiers, latency).',
        },
        {
          name: 'profiles',
          description:
            'Screening profiles: lists, cut-offs and matching knobs per organization or API key, drafted, backtested on stored screenings and activated with an audit trail.',
        },
        { name: 'service', description: 'Health of the service.' },
      ],
      webhooks: WEBHOOKS,
      components: {
        securitySchemes: {
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'x-api-key',
            description: 'API key of a user of the organization.',
          },
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  };
}

type Json = Record<string, unknown>;

/** Adds the common response headers and Retry-After to every response of every operation. */
export function finishOpenApiDocument(document: Json): Json {
  const doc = structuredClone(document);
  const components = (doc.components ?? {}) as Json;
  components.headers = {
    ...COMMON_HEADERS,
    'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' },
    'Idempotency-Replayed': {
      schema: { type: 'string', enum: ['true'] },
      description: 'Set when the response is a replay of an earlier request with the same Idempotency-Key.',
    },
  };
  doc.components = components;
  const schemas = (components.schemas ?? {}) as Json;
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      referToComponent(operation.requestBody, schemas);
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        const headers = (response.headers ?? {}) as Json;
        for (const name of Object.keys(COMMON_HEADERS)) headers[name] = { $ref: `#/components/headers/${name}` };
        // 429 always says when to retry; 503 LISTS_NOT_READY does too.
        if (status === '429' || status === '503') headers['Retry-After'] = { $ref: '#/components/headers/Retry-After' };
        if (operation.operationId === 'screen' && status === '200') {
          headers['Idempotency-Replayed'] = { $ref: '#/components/headers/Idempotency-Replayed' };
        }
        response.headers = headers;
      }
    }
  }
  return doc;
}

/**
 * @fastify/swagger inlines request bodies even when their schema is a named component; point them at
 * the component instead, so the document has one definition of each and no unused components.
 */
function referToComponent(requestBody: unknown, schemas: Json): void {
  const content = (requestBody as { content?: Record<string, { schema?: Json }> } | undefined)?.content;
  for (const media of Object.values(content ?? {})) {
    const title = media.schema?.title;
    if (typeof title === 'string' && title in schemas) media.schema = { $ref: `#/components/schemas/${title}` };
  }
}
