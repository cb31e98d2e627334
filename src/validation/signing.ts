import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

/**
 * Ed25519 signatures of validation reports. The private key is configuration
 * (VALIDATION_SIGNING_KEY: PKCS #8 DER, base64, as `sanctions validate keygen` prints it); a report
 * carries the public key (SPKI DER, base64) and its id, so anyone can check it was not changed since it
 * was signed, and compare the key id with the one the deployment publishes.
 */

export interface SigningKeyPair {
  /** PKCS #8 DER, base64: the value of VALIDATION_SIGNING_KEY. */
  privateKey: string;
  /** SPKI DER, base64. */
  publicKey: string;
  keyId: string;
}

export interface Signature {
  algorithm: 'Ed25519';
  keyId: string;
  publicKey: string;
  /** Base64 of the signature over the canonical JSON of the report without its `signature`. */
  value: string;
}

/** The key's id: the first 16 hex digits of the SHA-256 of its public key (SPKI DER). */
export function keyIdOf(publicKeyDer: Buffer): string {
  return `ed25519:${createHash('sha256').update(publicKeyDer).digest('hex').slice(0, 16)}`;
}

export function generateSigningKey(): SigningKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: spki.toString('base64'),
    keyId: keyIdOf(spki),
  };
}

/** The private key of a VALIDATION_SIGNING_KEY value; throws with a plain message when it is not one. */
export function parseSigningKey(value: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'pkcs8' });
  } catch {
    throw new Error('is not a base64 PKCS #8 private key; make one with: sanctions validate keygen');
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`must be an Ed25519 key, not ${key.asymmetricKeyType ?? 'unknown'}`);
  return key;
}

/** The public key (SPKI DER, base64) and id of a private key. */
export function publicKeyOf(privateKey: KeyObject): { publicKey: string; keyId: string } {
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return { publicKey: spki.toString('base64'), keyId: keyIdOf(spki) };
}

/**
 * JSON with the keys of every object sorted and no white space: the bytes a signature covers, the
 * same whatever order or indentation the file was written in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export function signDocument(document: object, privateKey: KeyObject): Signature {
  const { publicKey, keyId } = publicKeyOf(privateKey);
  const value = sign(null, Buffer.from(canonicalJson(document), 'utf8'), privateKey).toString('base64');
  return { algorithm: 'Ed25519', keyId, publicKey, value };
}

export interface SignatureCheck {
  valid: boolean;
  keyId: string | null;
  /** Why it is not valid. */
  reason?: string;
}

/** Checks the signature of a signed document (its `signature` field) over the rest of it. */
export function verifyDocument(signed: Record<string, unknown>): SignatureCheck {
  const { signature, ...document } = signed;
  const given = signature as Partial<Signature> | undefined;
  if (!given || typeof given !== 'object' || typeof given.value !== 'string' || typeof given.publicKey !== 'string')
    return { valid: false, keyId: null, reason: 'the report carries no signature' };
  if (given.algorithm !== 'Ed25519')
    return { valid: false, keyId: null, reason: `unknown signature algorithm ${String(given.algorithm)}` };
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: Buffer.from(given.publicKey, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return { valid: false, keyId: null, reason: 'the public key in the report is malformed' };
  }
  const keyId = keyIdOf(Buffer.from(given.publicKey, 'base64'));
  if (given.keyId !== keyId)
    return { valid: false, keyId, reason: 'the key id does not belong to the public key in the report' };
  const ok = verify(null, Buffer.from(canonicalJson(document), 'utf8'), publicKey, Buffer.from(given.value, 'base64'));
  return ok
    ? { valid: true, keyId }
    : {
        valid: false,
        keyId,
        reason: 'the signature does not match the content: the report was changed after it was signed',
      };
}
