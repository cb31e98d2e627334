import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { validationError } from '../infra/errors.js';

/**
 * Password hashes with scrypt from node:crypto. Parameters follow OWASP's Password Storage Cheat
 * Sheet for scrypt (N=2^17, r=8, p=1: 128 MiB and roughly a tenth of a second a hash on this class
 * of machine). The parameters and salt are stored with the hash, so they can be raised later and
 * old hashes still verify.
 */
const SCRYPT_COST = 2 ** 17;
const SCRYPT_BLOCK_SIZE = 8;
const SCRYPT_PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/** NIST SP 800-63B asks for at least 8 characters; 12 is the floor here, 200 the ceiling. */
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem must exceed 128 * N * r bytes.
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export function checkPassword(password: string): string {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    throw validationError('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (length > MAX_PASSWORD_LENGTH)
    throw validationError('password', `must be at most ${MAX_PASSWORD_LENGTH} characters`);
  return password;
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, SCRYPT_COST, SCRYPT_BLOCK_SIZE, SCRYPT_PARALLELISM);
  return [
    'scrypt',
    SCRYPT_COST,
    SCRYPT_BLOCK_SIZE,
    SCRYPT_PARALLELISM,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, blockSize, parallelism, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !blockSize || !parallelism || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(cost), Number(blockSize), Number(parallelism));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to verify against when the account has none, so an unknown email takes as long as a known one. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  return (decoy ??= hashPassword(randomBytes(16).toString('hex')));
}

/** A random token for a link or a cookie (256 bits), and what is stored of it. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
