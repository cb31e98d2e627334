/**
 * Benchmark result files: each benchmark writes what it measured to `bench/results/<name>.json`, and
 * `npm run docs` renders the README's figure table and docs/benchmarks.md from these files, so no
 * figure in the documentation is typed by hand. The shape is documented in docs/benchmarks.md; a new
 * benchmark only writes a file of this shape.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export interface ResultRow {
  /** What was measured, as a reader would say it. */
  name: string;
  value: number | string;
  /** `ms`, `%`, `req/s`, `MiB`, `s`... (empty for a count or a digest). */
  unit: string;
  /** The goal the figure is held to, in words (`< 5 ms`), when there is one. */
  target?: string;
  /** Shown in the README's table of current figures. */
  headline?: boolean;
}

export interface BenchResult {
  /** The file's name without .json. */
  benchmark: string;
  title: string;
  /** The command that wrote this file. */
  command: string;
  measuredAt: string;
  machine: string;
  /** Conditions a reader needs (load on the machine, flags, sizes). */
  note?: string;
  rows: ResultRow[];
}

export const RESULTS_DIR = join(process.cwd(), 'bench', 'results');

export function machineDescription(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${availableParallelism()} cores (${cpu}), ${Math.round(totalmem() / 1024 ** 3)} GiB, Node.js ${process.version}`;
}

/** Writes bench/results/<benchmark>.json and says so. */
export function writeResult(result: Omit<BenchResult, 'measuredAt' | 'machine'>): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${result.benchmark}.json`);
  const full: BenchResult = {
    benchmark: result.benchmark,
    title: result.title,
    command: result.command,
    measuredAt: new Date().toISOString(),
    machine: machineDescription(),
    ...(result.note ? { note: result.note } : {}),
    rows: result.rows,
  };
  writeFileSync(file, JSON.stringify(full, null, 2) + '\n');
  console.log(`results written to ${file}`);
  return file;
}

/** BENCH_NOTE (e.g. "machine shared with other builds") goes into the file's note. */
export function benchNote(extra?: string): string | undefined {
  const parts = [process.env.BENCH_NOTE, extra].filter((p): p is string => Boolean(p));
  return parts.length ? parts.join('; ') : undefined;
}
