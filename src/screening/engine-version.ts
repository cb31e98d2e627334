import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoringDigest } from '../matching/index.js';

/**
 * The engine version every screening records: the package version, the digest of the declared
 * scoring (the SCORING table, the profile knobs and the rules of partSimilarity with their pinning
 * pairs; docs/scoring.md shows the same digest), and a digest of the engine's modules as built (its
 * name tables, legal forms, common names and variant rules are code and data there), so an audit can
 * tell which table and which rules ran. Computed once per process.
 */

const here = dirname(fileURLToPath(import.meta.url));

function packageVersion(): string {
  for (let dir = here, i = 0; i < 5; i++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.version) return pkg.version;
    } catch {
      // not this folder
    }
  }
  return '0.0.0';
}

function rulesDigest(): string {
  const folder = join(here, '..', 'matching');
  const hash = createHash('sha256');
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.js') || f.endsWith('.ts') || f.endsWith('.json'))
    .filter((f) => !f.endsWith('.d.ts') && !f.endsWith('.map'))
    .sort();
  for (const file of files) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(folder, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

let version: string | undefined;

/**
 * `<package version>+scoring.<16 hex of the declared scoring>.code.<16 hex of the modules>`, e.g.
 * `0.1.0+scoring.3f9c0a1b2c3d4e5f.code.0a1b2c3d4e5f6a7b` (SHA-256 prefixes).
 */
export function engineVersion(): string {
  version ??= `${packageVersion()}+scoring.${scoringDigest()}.code.${rulesDigest()}`;
  return version;
}
