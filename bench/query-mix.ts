import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { SOURCE_LABELS, type ListRecord } from '../src/lists/model.js';
import { type MatchingIndex, summarizeOutcome } from '../src/matching/index.js';
import type { ScreenSummary } from '../src/matching/outcome.js';
import type { MatchOptions, MatchQuery } from '../src/matching/types.js';
import { rng } from '../src/validation/seeded.js';

/** A seeded generator (mulberry32), so every run sends the same queries. */
export { rng };

/**
 * The query mix of the performance benchmarks: a third listed names as published, a third listed
 * names with one letter dropped or the first word moved to the end, a third innocent names (the
 * yente US negatives, when ../shared/data has them).
 */
export function queryMix(records: ListRecord[], perKind = 2000, seed = 7): string[] {
  const rand = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const listed = records.map((r) => r.name);
  const queries: string[] = [];
  for (let i = 0; i < perKind; i++) queries.push(pick(listed));
  for (let i = 0; i < perKind; i++) {
    const n = pick(listed);
    const p = 1 + Math.floor(rand() * Math.max(1, n.length - 2));
    const words = n.split(/\s+/);
    queries.push(i % 2 === 0 ? n.slice(0, p) + n.slice(p + 1) : [...words.slice(1), words[0]].join(' '));
  }
  const negFile = path.resolve(
    process.cwd(),
    '../shared/data/matching/opensanctions_yente/candidate_generation_benchmark/negatives_us.csv',
  );
  if (existsSync(negFile)) {
    const rows = parse(readFileSync(negFile, 'utf8'), { columns: true }) as Record<string, string>[];
    for (let i = 0; i < perKind; i++) queries.push(pick(rows).full_name ?? 'John Smith');
  }
  return queries;
}

/** What a screening answers, as the service stores and sends it (see summarizeOutcome). */
export type Screen = (query: MatchQuery, options: MatchOptions) => ScreenSummary;

/**
 * The fields beside the name that the digest's third pass sends: every kind of agreement and
 * contradiction the corroboration rules know (a full date, a year, another date; a country; each
 * entity type), cycled over the mix so that the same name meets several.
 */
const FIELDS: Omit<MatchQuery, 'name'>[] = [
  { entityType: 'person', birthDate: '1952-10-07', country: 'RU' },
  { entityType: 'organization', country: 'IR' },
  { birthDate: '1960', country: 'SY' },
  { entityType: 'vessel' },
  { entityType: 'person', birthDate: '1975-03', country: 'AF' },
  { country: 'CN' },
];

/**
 * SHA-256 over every outcome of `queries`, in three passes: the names alone, the names grouped by
 * cluster, and the names with the fields above. Each outcome enters as the JSON of its summary: risk
 * score, level, confidence, top entity, matched sources and the matches as the API sends them
 * (entity, score, explanation, listings), so that one changed byte of any answer changes the digest.
 * A refactoring that claims "same outcomes" must leave all three unchanged.
 */
export function outcomeDigest(screen: Screen, queries: string[]): { plain: string; grouped: string; fields: string } {
  const pass = (query: (name: string, i: number) => MatchQuery, options: MatchOptions): string => {
    const hash = createHash('sha256');
    queries.forEach((name, i) => hash.update(JSON.stringify(screen(query(name, i), options)) + '\n'));
    return hash.digest('hex');
  };
  return {
    plain: pass((name) => ({ name }), {}),
    grouped: pass((name) => ({ name }), { groupByCluster: true }),
    fields: pass((name, i) => ({ name, ...FIELDS[i % FIELDS.length]! }), {}),
  };
}

/** Print the outcome digest of the query mix against `idx`, each outcome as the service stores and sends it. */
export function printDigest(idx: MatchingIndex, queries: string[]): { plain: string; grouped: string; fields: string } {
  const t0 = performance.now();
  const d = outcomeDigest(
    (query, options) => summarizeOutcome(idx.screen(query, options), (s) => SOURCE_LABELS[s]),
    queries,
  );
  console.log(`outcome digest of the ${queries.length}-query mix (${((performance.now() - t0) / 1000).toFixed(1)} s):`);
  console.log(`  names alone         ${d.plain}`);
  console.log(`  grouped by cluster  ${d.grouped}`);
  console.log(`  with fields         ${d.fields}`);
  return d;
}
