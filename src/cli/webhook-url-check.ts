import type { Config } from '../infra/config.js';
import { assertWebhookUrlAllowed } from '../webhooks/ssrf.js';

/**
 * The check applied to a webhook URL when it is saved: the SSRF rules of the webhooks module (loopback,
 * private, link-local and metadata addresses refused unless WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true).
 */
export function checkWebhookUrlForSave(config: Config): (url: string) => Promise<void> {
  return (url) => assertWebhookUrlAllowed(url, config.webhooks.allowPrivateAddresses);
}
