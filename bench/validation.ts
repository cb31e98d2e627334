/**
 * Validation run speed (issue 31): `sanctions validate` as a user runs it, on the real lists
 * (../shared/data/lists), quick and full, timed from the outside (wall clock of the command: reading
 * the lists from the database, building the index, the run, writing and signing the report). Writes
 * bench/results/validation.json: rows of {name, value, unit, target}, and the report's headline figures.
 *   node dist/bench/validation.js [--data-dir=DIR (lists already synced there)] [--only=quick|full]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LISTS, runCli } from './server-process.js';

interface Row {
  name: string;
  value: number;
  unit: string;
  target: string | null;
}

// The command line of the same build as this file.
const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const given = process.argv.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const dataDir = given ? resolve(given) : mkdtempSync(join(tmpdir(), 'bench-validation-'));
const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
delete env.DATABASE_URL;

if (!given) {
  console.log(`syncing the lists from ${LISTS} into ${dataDir}`);
  runCli(cli, env, ['lists', 'sync', '--from', LISTS, '--json']);
}
env.VALIDATION_SIGNING_KEY = (
  JSON.parse(runCli(cli, env, ['validate', 'keygen', '--json'])) as { privateKey: string }
).privateKey;

/** Writes the rows measured so far: a full run cut short still leaves the quick run's figures. */
function writeResults(): void {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/validation.json',
    `${JSON.stringify(
      {
        measuredAt: new Date().toISOString(),
        note: 'Measured on the shared 2-core machine while other engineers were building and testing: figures are loaded-machine figures.',
        rows,
        summaries: reports,
      },
      null,
      2,
    )}\n`,
  );
  console.log('wrote bench/results/validation.json');
}

const rows: Row[] = [];
const reports: Record<string, unknown> = {};
for (const kind of ['quick', 'full'] as const) {
  if (only && only !== kind) continue;
  const out = mkdtempSync(join(tmpdir(), `validation-${kind}-`));
  const t0 = performance.now();
  const result = spawnSync(
    process.execPath,
    [cli, 'validate', ...(kind === 'quick' ? ['--quick'] : []), '--out', out, '--json'],
    {
      env,
      encoding: 'utf8',
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  if (result.status !== 0 && result.status !== 1) throw new Error(`validate ${kind} failed: ${result.stderr}`);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
    selfScreen: { names: number; found: number; top: number; misses: unknown[] };
    context: { durationMs: number };
    summary: { key: string; value: number; unit: string }[];
    latency: { p50Ms: number; p99Ms: number };
  };
  const verify = spawnSync(process.execPath, [cli, 'validate', 'verify', join(out, 'report.json'), '--json'], {
    env,
    encoding: 'utf8',
  });
  rows.push(
    {
      name: `${kind} run, whole command (wall clock)`,
      value: Math.round(seconds * 10) / 10,
      unit: 's',
      target: kind === 'quick' ? '<= 60' : '<= 600',
    },
    {
      name: `${kind} run, the validation itself`,
      value: Math.round(report.context.durationMs / 100) / 10,
      unit: 's',
      target: null,
    },
    { name: `${kind} run, listed names self-screened`, value: report.selfScreen.names, unit: 'names', target: null },
    {
      name: `${kind} run, self-screen found at medium+`,
      value: Math.round((10000 * report.selfScreen.found) / report.selfScreen.names) / 100,
      unit: '%',
      target: '>= 99.5',
    },
    {
      name: `${kind} run, self-screen misses listed`,
      value: report.selfScreen.misses.length,
      unit: 'names',
      target: null,
    },
    { name: `${kind} run, engine latency p50`, value: report.latency.p50Ms, unit: 'ms', target: null },
    { name: `${kind} run, engine latency p99`, value: report.latency.p99Ms, unit: 'ms', target: null },
    { name: `${kind} run, report verifies`, value: verify.status === 0 ? 1 : 0, unit: 'bool', target: '1' },
  );
  reports[kind] = report.summary;
  for (const r of rows.slice(-8))
    console.log(`${r.name}: ${r.value} ${r.unit}${r.target ? ` (target ${r.target})` : ''}`);
  rmSync(out, { recursive: true, force: true });
  writeResults();
}

if (!given) rmSync(dataDir, { recursive: true, force: true });
