import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The engine version every screening records (issue 13, item 5): the package version plus a digest
 * of the matching engine's rules and data, so an audit can tell which rules ran. The digest covers
 * every module of src/matching as built (its name tables, legal forms, common names, variant rules
 * and scoring live there as code and data); any change to them changes it. Computed once per process.
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

/** `<package version>+rules.<16 hex digits of SHA-256>`, e.g. `0.1.0+rules.3f9c0a1b2c3d4e5f`. */
export function engineVersion(): string {
  version ??= `${packageVersion()}+rules.${rulesDigest()}`;
  return version;
}
