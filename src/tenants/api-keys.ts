import { createHash, randomBytes } from 'node:crypto';

/** Keys carry 192 random bits (DECISIONS.md asks for at least 128), shown once, stored only as SHA-256. */
const KEY_PREFIX = 'sk_';
const DISPLAY_PREFIX_LENGTH = 11;

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = KEY_PREFIX + randomBytes(24).toString('base64url');
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
