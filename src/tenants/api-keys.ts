import { hash, randomBytes } from 'node:crypto';

/** Keys carry 192 random bits (DECISIONS.md asks for at least 128), shown once, stored only as SHA-256. */
const KEY_PREFIX = 'sk_';
const DISPLAY_PREFIX_LENGTH = 11;

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = KEY_PREFIX + randomBytes(24).toString('base64url');
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  // The one-shot form: every request hashes its key, and it skips making a Hash object.
  return hash('sha256', key, 'hex');
}
