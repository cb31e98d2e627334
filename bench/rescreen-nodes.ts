/**
 * Rescreening across nodes (issue 30, item 4): N monitors in one PostgreSQL schema with every list
 * of ../shared/data/lists synced, rescreened in full by one node, then by two nodes at once (each a
 * process of its own with its own matching thread, as `sanctions serve` nodes; every batch claimed
 * with FOR UPDATE SKIP LOCKED, monitoring/rescreen-service.ts). Before each run every monitor is put
 * back to its first state (never screened against these lists, low risk, no alert), so both runs do
 * the same work and raise the same alerts; the benchmark checks that they did, that every monitor was
 * rescreened exactly once, and that no monitor got two alerts.
 *   npm run build && node dist/bench/rescreen-nodes.js [--monitors=N] [--nodes=1x2,1,2]
 * `--nodes` lists the runs: `N` nodes of one matching thread each, or `NxT` nodes of T threads each
 * (MATCH_THREADS). The default: one node with two threads (this machine's two cores), then one node
 * and two nodes of one thread each (the same cores shared out by nodes instead of threads).
 * Writes bench/results/rescreen-nodes.json. PostgreSQL from TEST_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), in a schema of its own that is dropped at the end.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../src/infra/config.js';
import type { DeltaReport } from '../src/monitoring/rescreen-service.js';
import { createContext } from '../src/start/context.js';
import { insertMonitors, monitorRows } from './monitor-seed.js';
import { type ResultRow, benchNote, writeResult } from './results.js';
import { LISTS, numberArg, prepareServerData, runCli } from './server-process.js';
import { dataIdsOf, hundredAliases, withAliases } from './un-aliases.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CLI = resolve(process.cwd(), 'bin/sanctions');
const SELF = fileURLToPath(import.meta.url);

interface NodeReport {
  rescreened: number;
  alerts: number;
  seconds: number;
  delta?: DeltaReport;
}

/**
 * `full` and `delta`: a pass of that mode. `change`: the lists are loaded again on `go` (a version
 * put in force since `ready`), then the delta pass that change starts is timed alone.
 */
type NodeMode = 'full' | 'delta' | 'change';

/** A node: loads the lists, says `ready`, runs one pass of `mode` on `go` and prints its report. */
async function nodeMain(mode: NodeMode): Promise<void> {
  // Stopped from outside (a profile taken with BENCH_NODE_ARGS=--cpu-prof is written on exit).
  process.once('SIGTERM', () => process.exit(143));
  const ctx = await createContext(loadConfig(process.env));
  try {
    await ctx.runtime.refresh();
    console.log('ready');
    await new Promise<void>((go) => createInterface({ input: process.stdin }).once('line', () => go()));
    if (mode === 'change' && !(await ctx.runtime.refresh())) throw new Error('no new list version to load');
    const started = performance.now();
    const report = await ctx.jobs.rescreen.runPass(mode === 'full' ? 'full' : 'delta');
    const seconds = (performance.now() - started) / 1000;
    const own: NodeReport = {
      rescreened: report?.rescreened ?? 0,
      alerts: report?.alerts ?? 0,
      seconds,
      ...(report?.delta ? { delta: report.delta } : {}),
    };
    console.log(JSON.stringify(own));
  } finally {
    await ctx.close();
  }
}

/** Starts `count` nodes, waits until each has its lists, starts their passes at once; the wall time and reports. */
async function runNodes(env: NodeJS.ProcessEnv, run: NodeRun, mode: NodeMode, beforeGo?: () => void) {
  const nodes = Array.from({ length: run.count }, () =>
    spawn(
      process.execPath,
      [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), SELF, `--node=${mode}`],
      { env: { ...env, MATCH_THREADS: String(run.threads) }, stdio: ['pipe', 'pipe', 'inherit'] },
    ),
  );
  const reports = nodes.map(
    (child) =>
      new Promise<{ ready: Promise<void>; report: Promise<NodeReport> }>((resolveLines) => {
        let readyNow: () => void = () => undefined;
        let reportNow: (report: NodeReport) => void = () => undefined;
        const ready = new Promise<void>((resolveReady) => (readyNow = resolveReady));
        const report = new Promise<NodeReport>((resolveReport, reject) => {
          reportNow = resolveReport;
          child.once('exit', (code) => reject(new Error(`a node exited (${code}) without a report`)));
        });
        createInterface({ input: child.stdout! }).on('line', (line) => {
          if (line === 'ready') readyNow();
          else if (line.startsWith('{')) reportNow(JSON.parse(line) as NodeReport);
        });
        resolveLines({ ready, report });
      }),
  );
  const lines = await Promise.all(reports);
  await Promise.all(lines.map((line) => line.ready));
  beforeGo?.();
  const started = performance.now();
  for (const child of nodes) child.stdin!.end('go\n');
  const done = await Promise.all(lines.map((line) => line.report));
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(nodes.map((child) => (child.exitCode === null ? new Promise((r) => child.once('exit', r)) : 0)));
  return { seconds, nodes: done };
}

/** A run of the benchmark: how many nodes, with how many matching threads each. */
interface NodeRun {
  count: number;
  threads: number;
}

function parseRuns(text: string): NodeRun[] {
  return text.split(',').map((part) => {
    const [count, threads = '1'] = part.split('x');
    const run = { count: Number(count), threads: Number(threads) };
    if (!(run.count >= 1 && run.threads >= 1)) throw new Error(`--nodes: "${part}" is not N or NxT`);
    return run;
  });
}

function describeRun(run: NodeRun): string {
  const nodes = `${run.count} node${run.count > 1 ? 's' : ''}`;
  return `${nodes}, ${run.threads} matching thread${run.threads > 1 ? 's' : ''}${run.count > 1 ? ' each' : ''}`;
}

/** Every monitor as before its first rescreen; the alerts and deliveries of the last run gone. */
async function resetMonitors(client: pg.Client): Promise<void> {
  await client.query('delete from webhook_attempts');
  await client.query('delete from webhook_deliveries');
  await client.query('delete from alerts');
  await client.query(
    `update monitors set rescreen_generation = null, last_risk_score = 0, last_risk_level = 'low',
       last_sources = '[]', last_entity_id = null, last_list_versions = '[]'`,
  );
  // The reset rewrote every row: the dead versions cleared and the statistics taken, as autovacuum
  // does on a deployment (this machine's PostgreSQL runs with it off), so each run starts alike.
  await client.query('vacuum analyze monitors, alerts, webhook_deliveries, webhook_attempts');
}

async function alertCounts(client: pg.Client): Promise<{ alerts: number; monitors: number }> {
  const { rows } = await client.query<{ alerts: string; monitors: string }>(
    'select count(*) as alerts, count(distinct monitor_id) as monitors from alerts',
  );
  return { alerts: Number(rows[0]!.alerts), monitors: Number(rows[0]!.monitors) };
}

/** The monitors and their organization (with a webhook, so alerts write deliveries); seconds taken. */
async function seed(env: NodeJS.ProcessEnv, total: number): Promise<number> {
  prepareServerData(CLI, env);
  const ctx = await createContext(loadConfig(env), { command: true });
  try {
    await ctx.services.tenants.updateOrganization({
      ctx: ctx.operator,
      input: { org: 'bench', webhookUrl: 'http://127.0.0.1:9/hooks', webhookSecret: 'bench-secret-0123456789' },
    });
    const org = await ctx.database.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'bench')
      .executeTakeFirstOrThrow();
    const records = await ctx.database.db.selectFrom('list_records').select('data').limit(50_000).execute();
    const listed = records.map((r) => (JSON.parse(r.data) as { name: string }).name);
    const started = performance.now();
    await insertMonitors(ctx.database.db, monitorRows({ orgId: org.id, total, listed, now: ctx.clock.now() }));
    return (performance.now() - started) / 1000;
  } finally {
    await ctx.close();
  }
}

async function measure(env: NodeJS.ProcessEnv, client: pg.Client, total: number, runs: NodeRun[]) {
  const size = `${total.toLocaleString('en')} monitors, PostgreSQL, every list`;
  const rows: ResultRow[] = [];
  const first = runs[0]!;
  // A new monitor's terms (for delta passes) are written by the first pass that sees it: once, untimed below.
  const terms = await runNodes(env, { count: 1, threads: first.threads }, 'delta');
  console.log(`monitor terms written in ${terms.seconds.toFixed(1)} s (once per new monitor)`);
  const times: { config: NodeRun; seconds: number }[] = [];
  let firstAlerts: number | undefined;
  for (const config of runs) {
    const { count } = config;
    await resetMonitors(client);
    const run = await runNodes(env, config, 'full');
    const rescreened = run.nodes.reduce((sum, node) => sum + node.rescreened, 0);
    const alerts = await alertCounts(client);
    const shares = run.nodes.map((node) => `${((100 * node.rescreened) / total).toFixed(1)}%`).join(' / ');
    console.log(
      `${describeRun(config)}: ${rescreened.toLocaleString('en')} rescreened in ${run.seconds.toFixed(1)} s ` +
        `(${Math.round(rescreened / run.seconds).toLocaleString('en')}/s; shares ${shares}), ${alerts.alerts} alerts on ${alerts.monitors} monitors`,
    );
    if (rescreened !== total) throw new Error(`${count} node(s) rescreened ${rescreened} of ${total} monitors`);
    if (alerts.alerts !== alerts.monitors) throw new Error(`a monitor got two alerts in one pass (${count} nodes)`);
    if (firstAlerts !== undefined && alerts.alerts !== firstAlerts)
      throw new Error(`${count} node(s) raised ${alerts.alerts} alerts, one node ${firstAlerts}`);
    firstAlerts ??= alerts.alerts;
    times.push({ config, seconds: run.seconds });
    rows.push({
      name: `full rescreen, ${describeRun(config)} (${size})`,
      value: Number(run.seconds.toFixed(1)),
      unit: 's',
      // The target is a node's: one node with a matching thread per core of this machine.
      ...(count === 1 && config.threads === availableParallelism() && total >= 1_000_000 ? { target: '<= 300' } : {}),
    });
    if (count > 1)
      rows.push({ name: `share of the monitors each node rescreened (${count} nodes)`, value: shares, unit: '' });
  }
  rows.push(...(await measureDelta(env, client, size, { count: 1, threads: first.threads })));
  // N nodes against one node of as many threads each.
  for (const { config, seconds } of times) {
    const one = times.find((t) => t.config.count === 1 && t.config.threads === config.threads);
    if (one && config.count > 1)
      rows.push({
        name: `${config.count} nodes / one node, time of a full rescreen (${config.threads} matching thread${config.threads > 1 ? 's' : ''} a node; ${size})`,
        value: Number((seconds / one.seconds).toFixed(2)),
        unit: 'ratio',
        target: `about 1/${config.count}`,
      });
  }
  return rows;
}

/**
 * The delta pass after a change of 100 entities (the UN list with an alias added to 100 listings,
 * put in force by `sanctions lists sync` while the node waits with the lists of before), every
 * monitor screened against those lists by the full passes above. One node: a delta pass is not
 * shared out (its monitors are found by one lookup), the full pass after it is.
 */
async function measureDelta(
  env: NodeJS.ProcessEnv,
  client: pg.Client,
  size: string,
  config: NodeRun,
): Promise<ResultRow[]> {
  const unFile = join(LISTS, 'un_csl', 'consolidated.xml');
  const changedDir = mkdtempSync(join(tmpdir(), 'sanctions-rescreen-change-'));
  try {
    const original = readFileSync(unFile, 'utf8');
    mkdirSync(join(changedDir, 'un_csl'));
    writeFileSync(
      join(changedDir, 'un_csl', 'consolidated.xml'),
      withAliases(original, hundredAliases(dataIdsOf(original), ` Run${process.pid}`)),
    );
    const alertsBefore = (await alertCounts(client)).alerts;
    const run = await runNodes(env, config, 'change', () =>
      runCli(CLI, env, ['lists', 'sync', '--from', changedDir, '--source', 'un_csl', '--json']),
    );
    const delta = run.nodes[0]?.delta;
    if (!delta) throw new Error('the node ran no delta pass after the change');
    const alerts = (await alertCounts(client)).alerts - alertsBefore;
    console.log(
      `delta pass: ${delta.entities} changed entities, ${delta.reached.toLocaleString('en')} monitors reached through the index, ` +
        `${delta.monitors} affected and rescreened, ${alerts} alerts, ${(delta.tookMs / 1000).toFixed(1)} s`,
    );
    return [
      {
        name: `delta pass over ${delta.entities} changed entities, ${describeRun(config)} (${size})`,
        value: Number((delta.tookMs / 1000).toFixed(1)),
        unit: 's',
        target: '<= 60',
      },
      { name: `monitors the delta pass reached through the index (${size})`, value: delta.reached, unit: 'monitors' },
      { name: `monitors the delta pass rescreened (${size})`, value: delta.monitors, unit: 'monitors' },
    ];
  } finally {
    rmSync(changedDir, { recursive: true, force: true });
  }
}

/** Monitors in `schema`, or undefined when it has none yet. */
async function monitorCount(client: pg.Client, schema: string): Promise<number | undefined> {
  const { rows } = await client
    .query<{ n: string }>(`select count(*) as n from "${schema}".monitors`)
    .catch(() => ({ rows: [] as { n: string }[] }));
  return rows[0] ? Number(rows[0].n) : undefined;
}

async function main(): Promise<void> {
  const total = numberArg('monitors', 1_000_000);
  const runsArg = process.argv.find((a) => a.startsWith('--nodes='))?.slice(8) ?? '1x2,1,2';
  const runs = parseRuns(runsArg);
  if (!existsSync(LISTS)) {
    console.log(`lists absent (${LISTS}); nothing to measure.`);
    return;
  }
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    console.log(`PostgreSQL is not reachable at ${PG_URL}; skipped.`);
    return;
  }
  // --schema=NAME: seeded once and kept, so that runs after the first skip seeding and keying.
  const named = process.argv.find((a) => a.startsWith('--schema='))?.slice(9);
  const schema = named ?? `bench_rescreen_${process.pid}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'sanctions-rescreen-nodes-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: `${PG_URL}?schema=${schema}`,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  };
  try {
    if (named && (await monitorCount(client, schema)) === total) console.log(`reusing schema ${schema}`);
    else {
      const seeded = await seed(env, total);
      console.log(`${total.toLocaleString('en')} monitors seeded in ${seeded.toFixed(1)} s`);
    }
    await client.query(`set search_path to "${schema}"`);
    const rows = await measure(env, client, total, runs);
    writeResult({
      benchmark: 'rescreen-nodes',
      title: 'Full rescreen on PostgreSQL, one node and two, and the delta pass of a change',
      command: `node dist/bench/rescreen-nodes.js --monitors=${total} --nodes=${runsArg}`,
      note: benchNote(
        'each node a process with MATCH_THREADS matching threads; the nodes and PostgreSQL share the 2 cores',
      ),
      rows,
    });
  } finally {
    if (!named) await client.query(`drop schema if exists "${schema}" cascade`).catch(() => undefined);
    await client.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const node = process.argv.find((a) => a.startsWith('--node='))?.slice(7) as NodeMode | undefined;
(node ? nodeMain(node) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
