import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ListRecord } from '../src/lists/model.js';

/** A seeded generator (mulberry32), so every run sends the same queries. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
