/**
 * Matching performance: index build time, resident memory with all lists loaded, and per-query
 * latency (p50/p99, one core, warm) over a mix of listed, perturbed and clean names, with the
 * garbage collections that overlap the slowest queries and the same queries a second time.
 *   node --import tsx bench/matching.ts        or        node dist/bench/matching.js
 * Options: --warmup=measured (warm up on 1,000 of the measured names, as before 2026-11-29, instead of
 * another draw of the mix); --lists-json=<file> (records saved earlier, a JSON array of ListRecord, instead of parsing
 * the lists); --digest (no timing: print the outcome digest of the query mix, see outcomeDigest, to
 * check that a change of the engine's code left every answer as it was).
 */
import { readFile } from 'node:fs/promises';
import { PerformanceObserver } from 'node:perf_hooks';
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
  // Warm-up: another draw of the same kinds of names, as many as are measured, so that the engine's
  // code is compiled for every kind before the figures are taken. After a warm-up of 1,000 of the
  // measured (listed) names, V8 still optimized some 320 functions and deoptimized about 100 during
  // the measured pass (--trace-opt --trace-deopt); after this one, about 30 and 8. --warmup=measured
  // keeps that older warm-up, to compare with figures taken before.
  const oldWarmup = process.argv.includes('--warmup=measured');
  for (const q of oldWarmup ? queries.slice(0, 1000) : queryMix(records, 2000, 8)) idx.screen({ name: q });
  // The garbage collections of the measured queries, to tell how many of the slowest answers waited
  // for one (a query that overlaps a collection counts its pause).
  const collections: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) collections.push({ start: e.startTime, end: e.startTime + e.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const spans: { start: number; end: number }[] = [];
  let reported = 0;
  const tAll = performance.now();
  for (const q of queries) {
    const start = performance.now();
    const o = idx.screen({ name: q });
    spans.push({ start, end: performance.now() });
    reported += o.matches.length;
  }
  const total = performance.now() - tAll;
  // The same queries a second time: what the first sight of a word costs (the caches of spelling
  // folds, fuzzy ways and comparisons a running server has warmed) shows as the difference.
  const again: number[] = [];
  for (const q of queries) {
    const start = performance.now();
    idx.screen({ name: q });
    again.push(performance.now() - start);
  }
  await new Promise((r) => setTimeout(r, 50)); // the observer reports on a later turn
  observer.disconnect();
  const times = spans.map((s) => s.end - s.start).sort((a, b) => a - b);
  again.sort((a, b) => a - b);
  const measured = collections.filter((c) => c.start < spans[spans.length - 1]!.end);
  const overlaps = (s: { start: number; end: number }) => measured.some((c) => c.start < s.end && c.end > s.start);
  const p99 = quantile(times, 0.99);
  const slowest = spans.filter((s) => s.end - s.start >= p99);
  const slowWithCollection = slowest.filter(overlaps).length;
  const clear = spans
    .filter((s) => !overlaps(s))
    .map((s) => s.end - s.start)
    .sort((a, b) => a - b);
  const pauseMs = measured.length ? measured.reduce((sum, c) => sum + c.end - c.start, 0) / measured.length : 0;
  console.log(`queries: ${queries.length} (listed, perturbed, clean), ${reported} matches reported`);
  console.log(
    `latency per query: p50 ${quantile(times, 0.5).toFixed(3)} ms, p90 ${quantile(times, 0.9).toFixed(3)} ms, p99 ${p99.toFixed(3)} ms, max ${times[times.length - 1]!.toFixed(2)} ms`,
  );
  const throughput = Math.round((queries.length / total) * 1000);
  console.log(`throughput: ${throughput} queries/s on one core`);
  console.log(
    `garbage collections during the queries: ${measured.length}, ${pauseMs.toFixed(2)} ms each on average; ${slowWithCollection} of the ${slowest.length} slowest queries overlap one; p99 of the queries no collection overlaps ${quantile(clear, 0.99).toFixed(3)} ms`,
  );
  console.log(
    `the same queries again: p50 ${quantile(again, 0.5).toFixed(3)} ms, p99 ${quantile(again, 0.99).toFixed(3)} ms`,
  );
  const ms = (q: number, sorted = times) => Number(quantile(sorted, q).toFixed(3));
  writeResult({
    benchmark: 'matching',
    title: `Matching alone: ${idx.size} records of ${idx.sources.length} sources, ${queries.length} queries, one core, after ${oldWarmup ? '1,000 of them' : 'as many others'}`,
    command: 'node --expose-gc dist/bench/matching.js',
    ...(benchNote() ? { note: benchNote() } : {}),
    rows: [
      { name: 'latency per query, p50', value: ms(0.5), unit: 'ms', headline: true },
      { name: 'latency per query, p99', value: ms(0.99), unit: 'ms', target: '<= 1', headline: true },
      { name: 'throughput on one core', value: throughput, unit: 'queries/s' },
      { name: 'garbage collections during the queries', value: measured.length, unit: '' },
      { name: 'mean pause of those collections', value: Number(pauseMs.toFixed(2)), unit: 'ms' },
      {
        name: 'slowest 1% of queries that a collection overlaps',
        value: slowWithCollection,
        unit: `of ${slowest.length}`,
      },
      { name: 'latency per query, p99, of the queries no collection overlaps', value: ms(0.99, clear), unit: 'ms' },
      { name: 'the same queries again, p50', value: ms(0.5, again), unit: 'ms' },
      { name: 'the same queries again, p99', value: ms(0.99, again), unit: 'ms' },
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
