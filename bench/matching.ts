/**
 * Matching performance: index build time, resident memory with all lists loaded, and per-query
 * latency (p50/p99, one core, warm) over a mix of listed, perturbed and clean names.
 *   node --import tsx bench/matching.ts        or        node dist/bench/matching.js
 * Options: --lists-json=<file> (records saved earlier, a JSON array of ListRecord, instead of parsing
 * the lists); --digest (no timing: print the outcome digest of the query mix, see outcomeDigest, to
 * check that a change of the engine's code left every answer as it was).
 */
import { readFile } from 'node:fs/promises';
import type { ListRecord } from '../src/lists/model.js';
import { MatchingIndex } from '../src/matching/index.js';
import { loadAllLists } from './quality.js';
import { printDigest, queryMix } from './query-mix.js';
import { benchNote, writeResult } from './results.js';

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main(): Promise<void> {
  console.log('Matching performance benchmark (single thread)');
  const cacheArg = process.argv.find((a) => a.startsWith('--lists-json='));
  let records: ListRecord[];
  if (cacheArg) records = JSON.parse(await readFile(cacheArg.slice(13), 'utf8')) as ListRecord[];
  else records = [...(await loadAllLists()).values()].flat();
  if (records.length === 0) {
    console.log('No lists could be loaded from ../shared/data/lists; nothing to measure.');
    return;
  }
  if (process.argv.includes('--digest')) {
    const idx = MatchingIndex.build(records);
    printDigest(idx, queryMix(records));
    return;
  }
  (globalThis as { gc?: () => void }).gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const idx = MatchingIndex.build(records);
  const buildMs = performance.now() - t0;
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  console.log(`records ${idx.size}, names ${idx.nameCount}, sources ${idx.sources.length} (${idx.sources.join(', ')})`);
  console.log(`index build: ${(buildMs / 1000).toFixed(2)} s`);
  console.log(
    `memory with all lists loaded and indexed: rss ${mib(mem.rss)}, heap used ${mib(mem.heapUsed)} (index ~${mib(mem.heapUsed - heapBefore)} of heap)`,
  );

  // The same build with turns for the event loop (list reloads in a running server): how long did
  // the loop wait at worst while it ran?
  {
    let last = performance.now();
    const stalls: number[] = [];
    const timer = setInterval(() => {
      const now = performance.now();
      stalls.push(now - last);
      last = now;
    }, 1);
    const ta = performance.now();
    await MatchingIndex.buildAsync(records, { yieldEveryMs: 10 });
    const asyncMs = performance.now() - ta;
    clearInterval(timer);
    stalls.sort((a, b) => a - b);
    console.log(
      `index buildAsync: ${(asyncMs / 1000).toFixed(2)} s; event-loop stall while building: p50 ${quantile(stalls, 0.5).toFixed(1)} ms, p99 ${quantile(stalls, 0.99).toFixed(1)} ms, max ${stalls[stalls.length - 1]?.toFixed(1) ?? '-'} ms (includes GC pauses)`,
    );
    (globalThis as { gc?: () => void }).gc?.();
  }

  // Query mix: a third listed names, a third perturbed listed names, a third clean (innocent) names.
  const queries = queryMix(records);
  for (const q of queries.slice(0, 1000)) idx.screen({ name: q }); // warm-up
  const times: number[] = [];
  let reported = 0;
  const tAll = performance.now();
  for (const q of queries) {
    const s = performance.now();
    const o = idx.screen({ name: q });
    times.push(performance.now() - s);
    reported += o.matches.length;
  }
  const total = performance.now() - tAll;
  times.sort((a, b) => a - b);
  console.log(`queries: ${queries.length} (listed, perturbed, clean), ${reported} matches reported`);
  console.log(
    `latency per query: p50 ${quantile(times, 0.5).toFixed(3)} ms, p90 ${quantile(times, 0.9).toFixed(3)} ms, p99 ${quantile(times, 0.99).toFixed(3)} ms, max ${times[times.length - 1]!.toFixed(2)} ms`,
  );
  const throughput = Math.round((queries.length / total) * 1000);
  console.log(`throughput: ${throughput} queries/s on one core`);
  const ms = (q: number) => Number(quantile(times, q).toFixed(3));
  writeResult({
    benchmark: 'matching',
    title: `Matching alone: ${idx.size} records of ${idx.sources.length} sources, ${queries.length} queries, one core`,
    command: 'node --expose-gc dist/bench/matching.js',
    ...(benchNote() ? { note: benchNote() } : {}),
    rows: [
      { name: 'latency per query, p50', value: ms(0.5), unit: 'ms', headline: true },
      { name: 'latency per query, p99', value: ms(0.99), unit: 'ms', headline: true },
      { name: 'throughput on one core', value: throughput, unit: 'queries/s' },
      { name: 'index build', value: Number((buildMs / 1000).toFixed(2)), unit: 's' },
      { name: 'heap used with all lists indexed', value: Math.round(mem.heapUsed / 1024 / 1024), unit: 'MiB' },
      {
        name: 'resident memory with all lists indexed',
        value: Math.round(mem.rss / 1024 / 1024),
        unit: 'MiB',
        headline: true,
      },
    ],
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
