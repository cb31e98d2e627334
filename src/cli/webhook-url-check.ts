import type { Config } from '../infra/config.js';

/**
 * The check applied to a webhook URL when it is saved. The webhooks module replaces this with the
 * SSRF rules (private, loopback, link-local and metadata addresses refused unless allowed).
 */
export function checkWebhookUrlForSave(_config: Config): ((url: string) => Promise<void>) | undefined {
  return undefined;
}
