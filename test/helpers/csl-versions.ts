/**
 * List versions in a publisher's own format for the decision and suppression tests: the US
 * Consolidated Screening List JSON fixture (test/fixtures/lists/us_csl/json), changed as a test needs,
 * written to a folder, parsed by the real adapter and put in force as a new us_csl version.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { usCslAdapter } from '../../src/lists/adapters/us-csl.js';
import { REPO_ROOT, type TestApp, activateRecords } from './harness.js';

export const CSL_FIXTURE = resolve(REPO_ROOT, 'test/fixtures/lists/us_csl/json/consolidated.json');

/** One entry of the CSL JSON `results`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CslEntry = Record<string, any>;

export interface CslDocument {
  results: CslEntry[];
  [key: string]: unknown;
}

export function cslDocument(): CslDocument {
  return JSON.parse(readFileSync(CSL_FIXTURE, 'utf8')) as CslDocument;
}

/** The entry with this CSL id in a document. */
export function cslEntry(doc: CslDocument, id: string): CslEntry {
  const entry = doc.results.find((r) => r.id === id);
  if (!entry) throw new Error(`no CSL entry ${id} in the fixture`);
  return entry;
}

/** Writes `doc` as consolidated.json, parses it with the us_csl adapter and activates it; returns the version id. */
export async function activateCsl(t: TestApp, doc: CslDocument): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'csl-version-'));
  try {
    await writeFile(join(dir, 'consolidated.json'), JSON.stringify(doc));
    const parsed = await usCslAdapter.parse(dir);
    return await activateRecords(t.ctx, 'us_csl', parsed.records);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
