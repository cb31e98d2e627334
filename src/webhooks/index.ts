/**
 * Webhooks: the outbox of deliveries, their payloads, signed sends with retries and pausing.
 * This face is how other domains and the layers above import webhooks/ (eslint.config.js, docs/architecture.md).
 */
export { enqueueDelivery, outboxBacklog, releaseClaims } from './delivery-store.js';
export { DeliveryWorker } from './delivery-worker.js';
export { serializeBatchEvent, serializeEvent, serializeValidationEvent, WEBHOOK_EVENTS } from './payload.js';
export type { WebhookEvent } from './payload.js';
export type { AlertPayload } from './payload.js';
export { assertWebhookUrlAllowed } from './ssrf.js';
export { webhooksService } from './webhooks-service.js';
export type { WebhooksService } from './webhooks-service.js';
export { serializeListsChangedEvent } from './payload.js';
