/**
 * Validation run speed (issue 31): `sanctions validate` as a user runs it, on the real lists
 * (../shared/data/lists), quick and full, timed from the outside (wall clock of the command: reading
 * the lists from the database, building the index, the run, writing and signing the report). Then a
 * run through the API of `sanctions serve` (POST /v1/validation-runs, quick unless --api-run=full)
 * while an analyst's load of POST /v1/screen goes on at --rate a second: its p99 during the run
 * against its p99 idle (the target: at most twice). Writes bench/results/validation.json: rows of
 * {name, value, unit, target}, the report's headline figures and the machine's load average.
 *   node dist/bench/validation.js [--data-dir=DIR (lists already synced there)] [--only=quick|full|api]
 *     [--rate=20] [--idle=60] [--busy=60] [--api-run=quick|full]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAllLists } from './quality.js';
import { queryMix } from './query-mix.js';
import {
  LISTS,
  numberArg,
  p99,
  prepareServerData,
  runCli,
  serverEnv,
  startServer,
  steadyLoad,
  stopServer,
} from './server-process.js';

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
        loadAverage1min: Math.round(loadavg()[0]! * 10) / 10,
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
  if (only !== undefined && only !== kind) continue;
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

if (only === undefined || only === 'api') await apiRun();

/** One validation run through the API, polled to its end: its final status and wall clock. */
async function runThroughApi(url: string, key: string, full: boolean): Promise<{ status: string; seconds: number }> {
  const started = performance.now();
  const headers = { 'content-type': 'application/json', 'x-api-key': key };
  const queued = (await (
    await fetch(`${url}/v1/validation-runs`, { method: 'POST', headers, body: JSON.stringify({ quick: !full }) })
  ).json()) as { data: { id: string } };
  let status = 'queued';
  while (status === 'queued' || status === 'running') {
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
    const run = (await (await fetch(`${url}/v1/validation-runs/${queued.data.id}`, { headers })).json()) as {
      data: { status: string };
    };
    status = run.data.status;
  }
  return { status, seconds: (performance.now() - started) / 1000 };
}

/**
 * Validation runs through the API beside an analyst's steady load: the load's p99 idle and while runs
 * go on. A quick run lasts a few seconds, about a hundred of the analyst's requests, whose p99 would be
 * their slowest one or two: quick runs follow one another for at least --busy seconds (default as long
 * as the idle stretch), so both figures rest on as many requests.
 */
async function apiRun(): Promise<void> {
  const rate = numberArg('rate', 20);
  const idleSeconds = numberArg('idle', 60);
  const busySeconds = numberArg('busy', idleSeconds);
  const full = process.argv.includes('--api-run=full');
  const serverDir = mkdtempSync(join(tmpdir(), 'bench-validation-api-'));
  const serverEnvironment = { ...serverEnv(serverDir, 0), VALIDATION_SIGNING_KEY: env.VALIDATION_SIGNING_KEY };
  const key = prepareServerData(cli, serverEnvironment);
  const names = queryMix([...(await loadAllLists(undefined, () => undefined)).values()].flat(), 200);
  const server = await startServer(cli, serverEnvironment);
  try {
    // Warm-up, then the idle figure. The warm-up has a quick run of its own: the first run after a
    // start compiles the validators of its answers' schemas (once per process, 60 ms on the HTTP
    // thread) and the run's code, as the screenings' warm-up compiles theirs.
    const load = steadyLoad(server.url, key, names, rate);
    await runThroughApi(server.url, key, false);
    await new Promise((resolveWait) => setTimeout(resolveWait, 5000));
    const idle = load.phase();
    await new Promise((resolveWait) => setTimeout(resolveWait, idleSeconds * 1000));
    idle.end();
    const busy = load.phase();
    const started = performance.now();
    const runs: { status: string; seconds: number }[] = [];
    do runs.push(await runThroughApi(server.url, key, full));
    while (!full && performance.now() - started < busySeconds * 1000);
    busy.end();
    await load.stop();
    const kind = full ? 'full' : 'quick';
    const during = full ? 'the full run' : `${runs.length} quick runs in turn`;
    const [idleLatencies, busyLatencies] = [idle.latencies(), busy.latencies()];
    const idleP99 = p99(idleLatencies);
    rows.push(
      {
        name: `${kind} run through the API (${runs.length === 1 ? runs[0]!.status : `${runs.length} runs: ${[...new Set(runs.map((r) => r.status))].join(', ')}`})`,
        value: Math.round((runs.reduce((sum, r) => sum + r.seconds, 0) / runs.length) * 10) / 10,
        unit: 's',
        target: null,
      },
      {
        name: `POST /v1/screen at ${rate}/s, p99 idle (${idleLatencies.length} requests)`,
        value: Math.round(idleP99 * 10) / 10,
        unit: 'ms',
        target: null,
      },
      {
        name: `POST /v1/screen at ${rate}/s, p99 during ${during} (${busyLatencies.length} requests)`,
        value: Math.round(p99(busyLatencies) * 10) / 10,
        unit: 'ms',
        target: `<= ${Math.round(2 * idleP99 * 10) / 10}`,
      },
    );
    for (const r of rows.slice(-3))
      console.log(`${r.name}: ${r.value} ${r.unit}${r.target ? ` (target ${r.target})` : ''}`);
    writeResults();
  } finally {
    await stopServer(server);
    rmSync(serverDir, { recursive: true, force: true });
  }
}
