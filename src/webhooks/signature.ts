import { createHmac, timingSafeEqual } from 'node:crypto';

/** api-v1.md 6.3: `sha256=` + hex HMAC-SHA256 of the raw request body, keyed with the webhook secret. */
export function signPayload(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** Constant-time check of a signature header, for receivers written in TypeScript (docs/webhooks.md). */
export function verifySignature(secret: string, body: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signPayload(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
