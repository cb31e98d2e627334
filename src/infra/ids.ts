import { randomFillSync } from 'node:crypto';

// Crockford base32, lower-cased: ids read well in URLs and logs and sort by creation time.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

// Random bytes are drawn from the system generator in blocks: one call per 400 ids instead of one each.
const pool = Buffer.alloc(4000);
let poolOffset = pool.length;

function randomBytes10(): Buffer {
  if (poolOffset + 10 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 10;
  return pool.subarray(poolOffset - 10, poolOffset);
}

/**
 * A ULID-shaped identifier (48-bit millisecond time + 80 random bits) with a type prefix, e.g.
 * `scr_01j9…`. The time is the caller's clock, so ids sort by the time their rows record.
 */
export function newId(prefix: string, at: Date): string {
  let time = '';
  let remaining = at.getTime();
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[remaining % 32] + time;
    remaining = Math.floor(remaining / 32);
  }
  const bytes = randomBytes10();
  let bits = 0;
  let value = 0;
  let rand = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      rand += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `${prefix}_${time}${rand}`;
}
