import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { OpsConfig } from './config.js';

/**
 * Secrets at rest (webhook secrets): AES-256-GCM with node:crypto when SECRET_KEY is set.
 *
 * A sealed value is `enc:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url parts): the key id is the
 * first 8 hex digits of SHA-256 of the key, so the key that sealed a value is found among SECRET_KEY
 * and SECRET_KEY_PREVIOUS without any other bookkeeping. The 12-byte IV is random per value; the
 * 16-byte tag authenticates it. Values without the prefix are clear text (written before SECRET_KEY
 * was set): they are read as they are, and `sanctions secrets rotate` seals them.
 */

const PREFIX = 'enc:v1:';

export class SecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretError';
  }
}

interface Key {
  id: string;
  bytes: Buffer;
}

function keyOf(raw: string): Key {
  const bytes = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (bytes.length !== 32) throw new SecretError('a secret key must be 32 bytes');
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes };
}

export class SecretBox {
  private readonly current: Key | undefined;
  private readonly keys = new Map<string, Key>();

  constructor(config: Pick<OpsConfig, 'secretKey' | 'previousSecretKeys'>) {
    if (config.secretKey) this.current = keyOf(config.secretKey);
    for (const key of [this.current, ...config.previousSecretKeys.map(keyOf)]) {
      if (key && !this.keys.has(key.id)) this.keys.set(key.id, key);
    }
  }

  /** A key is set: new secrets are stored encrypted. */
  get enabled(): boolean {
    return this.current !== undefined;
  }

  /** The id of the key new values are sealed under. */
  get currentKeyId(): string | undefined {
    return this.current?.id;
  }

  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  /** The key id a stored value was sealed under; undefined for clear text. */
  static keyIdOf(value: string): string | undefined {
    return SecretBox.isSealed(value) ? value.slice(PREFIX.length).split(':', 1)[0] : undefined;
  }

  /** Encrypts under the current key; without a key the value is stored as it is. */
  seal(plain: string): string {
    if (!this.current) return plain;
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.bytes, nonce);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [this.current.id, nonce, cipher.getAuthTag(), data].map((p) =>
      typeof p === 'string' ? p : p.toString('base64url'),
    );
    return PREFIX + parts.join(':');
  }

  /** Decrypts a sealed value (clear text passes through); throws SecretError naming the missing key. */
  open(stored: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const [id, nonce, tag, data] = stored.slice(PREFIX.length).split(':');
    const key = id ? this.keys.get(id) : undefined;
    if (!key || nonce === undefined || tag === undefined || data === undefined) {
      throw new SecretError(
        `the secret was encrypted under key ${id ?? '?'}, which is neither SECRET_KEY nor in SECRET_KEY_PREVIOUS`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(nonce, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretError(`the secret sealed under key ${id} does not authenticate (altered or wrong key)`);
    }
  }

  /** Needs re-sealing under the current key (clear text, or sealed under another key). */
  needsRotation(stored: string): boolean {
    return this.current !== undefined && SecretBox.keyIdOf(stored) !== this.current.id;
  }
}
