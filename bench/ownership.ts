/**
 * OFAC 50 percent rule at the scale of the full GLEIF golden copy: 3 million entities and 500
 * thousand stakes, with a sprinkle of blocked roots. Prints build and derivation time and peak
 * memory (targets: derivation under 60 s, peak under 2 GiB). Then loads the same 500 thousand
 * stakes from a stakes CSV through loadOwnershipDir, to show the file path's throughput.
 *
 *   node --import tsx bench/ownership.ts            (or the compiled dist/bench/ownership.js)
 *   ENTITIES=3000000 STAKES=500000 ROOTS=3000 node --import tsx bench/ownership.ts
 */
import { mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emptyRecord, type ListRecord } from '../src/lists/model.js';
import { deriveBlockedWithStats, loadOwnershipDir, OwnershipGraphBuilder } from '../src/ownership/index.js';

const ENTITIES = Number(process.env['ENTITIES'] ?? 3_000_000);
const STAKES = Number(process.env['STAKES'] ?? 500_000);
const ROOTS = Number(process.env['ROOTS'] ?? 3_000);

// Deterministic generator (mulberry32), so runs are comparable.
let seed = 0x5eed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n: number): number => Math.floor(random() * n);

function lei(i: number): string {
  return `BENCH${i.toString(36).toUpperCase().padStart(13, '0')}00`;
}

/** Percentages shaped like real holdings: many full subsidiaries, majority and minority stakes. */
function percentage(): number {
  const r = random();
  if (r < 0.4) return 100;
  if (r < 0.5) return 50;
  if (r < 0.7) return 50 + int(5000) / 100;
  return 1 + int(4899) / 100;
}

/** Groups: an owner sits a little before its subsidiary in id order, so chains several levels deep form. */
function stake(): [number, number, number] {
  const owned = 64 + int(ENTITIES - 64);
  const owner = owned - 1 - int(64);
  return [owner, owned, percentage()];
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
let peakHeap = 0;
const sample = (): void => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
};
const timer = setInterval(sample, 50);

const t0 = performance.now();
const builder = new OwnershipGraphBuilder();
for (let i = 0; i < ENTITIES; i++) {
  builder.setEntity(
    lei(i),
    { name: `Bench Entity ${i} Holdings Ltd`, country: i % 7 === 0 ? 'CY' : 'GB', otherNames: [] },
    19_800,
  );
}
const edges: [number, number, number][] = [];
for (let i = 0; i < STAKES; i++) {
  const s = stake();
  edges.push(s);
  builder.addRelationship({
    owner: lei(s[0]),
    owned: lei(s[1]),
    amount: Math.round(s[2] * 10_000),
    kind: 'stake',
    type: 'STAKE',
    day: 19_800,
  });
}
const graph = builder.finish();
const t1 = performance.now();
sample();

const listed: ListRecord[] = [];
for (let i = 0; i < ROOTS; i++) {
  const node = int(ENTITIES);
  const r = emptyRecord('us_ofac', String(10_000 + i), 'organization', `BENCH LISTED ${i}`);
  r.identifiers.push({ type: 'lei', value: lei(node) });
  r.programs = [i % 2 ? 'RUSSIA-EO14024' : 'IRAN'];
  listed.push(r);
}
const t2 = performance.now();
const result = deriveBlockedWithStats({ listed, ownership: graph, asOf: '2024-03-01' });
const t3 = performance.now();
sample();
const deepest = result.records.reduce((m, r) => Math.max(m, r.derivation?.chain.length ?? 0), 0);

console.log('ownership derivation (OFAC 50 percent rule)');
console.log(
  `  graph: ${graph.nodeCount.toLocaleString()} entities, ${graph.edgeCount.toLocaleString()} stakes, ${ROOTS} listed roots`,
);
console.log(`  build graph (intern, de-duplicate): ${((t1 - t0) / 1000).toFixed(2)} s`);
console.log(`  derive to fixed point + chains + records: ${((t3 - t2) / 1000).toFixed(2)} s`);
console.log(`  derived: ${result.records.length.toLocaleString()} entities; longest chain ${deepest} links`);
console.log(`  peak heap used: ${mib(peakHeap)}; peak RSS: ${mib(process.resourceUsage().maxRSS * 1024)}`);

// The file path: the same stakes as a stakes CSV.
const dir = mkdtempSync(path.join(tmpdir(), 'ownership-bench-'));
try {
  const out = createWriteStream(path.join(dir, 'stakes.csv'));
  out.write('owner_lei,owned_lei,percentage,as_of\n');
  for (const [owner, owned, pct] of edges) {
    if (!out.write(`${lei(owner)},${lei(owned)},${pct},2024-03-01\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const t4 = performance.now();
  const data = await loadOwnershipDir(dir);
  const t5 = performance.now();
  sample();
  console.log(
    `  load ${data.files[0]?.records.toLocaleString()} CSV stakes via loadOwnershipDir: ${((t5 - t4) / 1000).toFixed(2)} s`,
  );
  console.log(
    `  peak heap used (whole run): ${mib(peakHeap)}; peak RSS (whole run): ${mib(process.resourceUsage().maxRSS * 1024)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  clearInterval(timer);
}
