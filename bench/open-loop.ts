/**
 * Open-loop latency of POST /screen: requests sent at evenly spaced instants, each timed from the
 * instant it was due, so that no queue of the client's own hides a stall (a closed loop of 50
 * connections measures its own queue). At 250, 500 and 1,000 screenings a second, on SQLite (one
 * node, durable commits), on PostgreSQL with one node, and with two nodes on one database; then the
 * capacity at 50 connections (closed loop). The servers run with SERVER_TIMING=true: every answer
 * says where its time went (auth, parse, prep, queue, match, build, write), and the slowest answers'
 * stages are printed, so a stall is named by evidence. `outside` is the client's time minus the
 * server's own: the response's way out, the network, and any lateness of the client, which runs in a
 * process of its own (open-loop-client.ts) so that this one's heap (every list) is not measured.
 * The `floor` setup runs first: floor-server.ts, which does only the steps no server of this design
 * can skip (body read, a hop to a worker thread and back, an append synced to disk, an answer), timed
 * by the same client at the same rates, so the service's own share of its tail can be read off.
 * Writes bench/results/open-loop.json: rows of {name, value, unit, target}.
 *   npm run build && node dist/bench/open-loop.js [--duration=15] [--warmup=3] [--prewarm=30] [--rates=250,500,1000]
 *     [--setups=floor,sqlite,pg,pg2] [--cli=/other/build/bin/sanctions] [--out=bench/results/open-loop.json]
 * --cli runs the servers from another build (for a comparison with the previous one), whose answers
 * may carry no Server-Timing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type ClientJob, type Sample, spawnClient } from './open-loop-client.js';
import { benchNote, machineDescription } from './results.js';
import { loadAllLists } from './quality.js';
import { queryMix } from './query-mix.js';
import {
  LISTS,
  numberArg as arg,
  prepareServerData,
  runAutocannon,
  runCli,
  type ServerNode as Node,
  serverEnv,
  spawnListening,
  startServer,
  statCpuSeconds,
  stopServer,
} from './server-process.js';

const DURATION = arg('duration', 15);
/** Seconds at each rate before its figures are taken (open-loop-client.ts says why). */
const WARMUP = arg('warmup', 3);
/** Seconds at 200/s before the first rate of a setup: the matching code compiled for every kind of name. */
const PREWARM = arg('prewarm', 30);
const CAPACITY_SECONDS = arg('capacity', 8);
const textArg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const RATES = textArg('rates', '250,500,1000').split(',').map(Number);
const SETUPS = textArg('setups', 'floor,sqlite,pg,pg2').split(',');
const CLI = resolve(textArg('cli', resolve(process.cwd(), 'bin/sanctions')));
/** Another build's bin/sanctions: run alternately with this one, ROUNDS times (compareBuilds). */
const BASELINE = process.argv.some((a) => a.startsWith('--baseline=')) ? resolve(textArg('baseline', '')) : undefined;
const ROUNDS = arg('rounds', 3);
const OUT = resolve(textArg('out', BASELINE ? 'bench/results/open-loop-compare.json' : 'bench/results/open-loop.json'));
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The targets of issues 32 and 34 on this machine (a row without one is a figure only). */
const TARGETS: Record<string, string> = {
  'sqlite 1000/s p50': '<= 1.5',
  'sqlite 1000/s p99': '<= 5',
  'sqlite 1000/s p99.9': '<= 15',
  'sqlite 250/s p99': '<= 3',
  'pg 500/s p99': '<= 10',
  'pg2 500/s p99': '<= 10',
};

interface Row {
  name: string;
  value: number;
  unit: string;
  target: string | null;
  headline?: boolean;
}

/** The rows the README's table of figures shows: the targets' own, each beside this machine's floor. */
const HEADLINES = new Set([
  'floor 250/s p99',
  'sqlite 250/s p99',
  'floor 1000/s p99',
  'sqlite 1000/s p50',
  'sqlite 1000/s p99',
  'sqlite 1000/s p99.9',
  'pg 500/s p99',
  'sqlite capacity at 50 connections',
]);

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** The measured names, and the prewarm's own (the same kinds, another draw), each in a file for the client. */
type Names = { list: string[]; file: string; prewarm: string };

/** One open-loop run by the client process (open-loop-client.ts), over the names in `namesFile`. */
const openLoop = (job: ClientJob) => spawnClient(job).result;

const STAGES = ['auth', 'parse', 'prep', 'queue', 'match', 'build', 'write', 'outside'];

/** Mean of each stage over the samples (outside = client latency minus the server's total). */
function stageMeans(samples: Sample[]): Record<string, number> | undefined {
  const timed = samples.filter((s) => s.stages);
  if (timed.length === 0) return undefined;
  const sums: Record<string, number> = {};
  for (const s of timed) {
    for (const stage of STAGES) {
      const ms = stage === 'outside' ? s.latency - (s.stages!.total ?? 0) : (s.stages![stage] ?? 0);
      sums[stage] = (sums[stage] ?? 0) + ms;
    }
  }
  return Object.fromEntries(STAGES.map((stage) => [stage, sums[stage]! / timed.length]));
}

function formatStages(means: Record<string, number> | undefined): string {
  if (!means) return '(no Server-Timing from this build)';
  return STAGES.map((s) => `${s} ${means[s]!.toFixed(2)}`).join('  ');
}

/**
 * CPU seconds of every PostgreSQL server process on this machine (the benchmark's database is the
 * only one at work while it runs): the database's share of a screening's cost beside the node's.
 */
function postgresCpu(): number {
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) continue;
      sum += statCpuSeconds(`/proc/${pid}/stat`);
    } catch {
      // the process ended meanwhile
    }
  }
  return sum;
}

/** CPU seconds of the nodes' processes, or of their HTTP (main) threads only. */
function cpuOf(nodes: Node[], thread: 'all' | 'http' = 'all'): number {
  let sum = 0;
  for (const n of nodes) {
    const pid = n.proc.pid;
    try {
      sum += statCpuSeconds(thread === 'all' ? `/proc/${pid}/stat` : `/proc/${pid}/task/${pid}/stat`);
    } catch {
      return NaN;
    }
  }
  return sum;
}

/** Rows inserted and updated so far in one PostgreSQL schema, per table (from pg_stat_user_tables). */
async function pgWrites(schema: string): Promise<Map<string, { ins: number; upd: number }>> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    // The statistics are sent by each backend when it is idle, at most every second or so.
    await new Promise((r) => setTimeout(r, 1500));
    await client.query('select pg_stat_clear_snapshot()');
    const result = await client.query<{ relname: string; ins: string; upd: string }>(
      'select relname, n_tup_ins as ins, n_tup_upd as upd from pg_stat_user_tables where schemaname = $1',
      [schema],
    );
    return new Map(result.rows.map((r) => [r.relname, { ins: Number(r.ins), upd: Number(r.upd) }]));
  } finally {
    await client.end();
  }
}

async function pgReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

/** Lets the bench read the servers' /metrics on their API port. */
const METRICS_TOKEN = 'open-loop-bench-metrics-token';

/**
 * The SQLite connection's waits for a lock held by another connection so far (the
 * sanctions_sqlite_lock_wait_seconds histogram of /metrics); undefined from a build without it.
 */
async function lockWaits(node: Node): Promise<{ count: number; seconds: number } | undefined> {
  const response = await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!response.ok) return undefined;
  const text = await response.text();
  const value = (series: string) => {
    const match = new RegExp(`^${series} ([\\d.e+-]+)$`, 'm').exec(text);
    return match ? Number(match[1]) : undefined;
  };
  const count = value('sanctions_sqlite_lock_wait_seconds_count');
  const seconds = value('sanctions_sqlite_lock_wait_seconds_sum');
  return count === undefined || seconds === undefined ? undefined : { count, seconds };
}

interface Prepared {
  /** The build whose `bin/sanctions` prepared the database and serves it. */
  cli: string;
  env: NodeJS.ProcessEnv;
  key: string;
  cleanup(): Promise<void>;
}

/** A database with the lists synced and a key made: SQLite in a temporary folder, or a PostgreSQL schema of its own. */
function prepare(engine: 'sqlite' | 'pg', cli: string): Prepared {
  const dataDir = mkdtempSync(join(tmpdir(), 'sanctions-openloop-'));
  const schema = `bench_openloop_${process.pid}`;
  const env = serverEnv(dataDir, 0);
  if (engine === 'pg') env.DATABASE_URL = `${PG_URL}?schema=${schema}`;
  if (process.env.BENCH_REDIS_URL && engine === 'pg') {
    env.REDIS_URL = process.env.BENCH_REDIS_URL;
    env.REDIS_KEY_PREFIX = `bench:${process.pid}:`;
  }
  const started = Date.now();
  const key = prepareServerData(cli, env);
  console.log(`\n[${engine}] lists synced and a key made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    cli,
    env,
    key,
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      if (engine === 'pg') await dropSchema(schema).catch(() => undefined);
    },
  };
}

const FLOOR_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'floor-server.js');

/** The floor server (floor-server.ts) in a process of its own, writing its log in `dir`. */
const startFloor = (dir: string) => spawnListening([FLOOR_SERVER, dir], process.env, 'floor listening');

/** What a setup's nodes are started from: a database prepared for `sanctions serve`, or the floor. */
type Setup = { kind: 'service'; prepared: Prepared } | { kind: 'floor'; dir: string };

async function runSetup(setup: string, from: Setup, names: Names, rows: Row[]): Promise<void> {
  const key = from.kind === 'service' ? from.prepared.key : 'none';
  const onPg = setup.startsWith('pg');
  const schema = `bench_openloop_${process.pid}`;
  const nodeCount = setup === 'pg2' ? 2 : 1;
  const nodes: Node[] = [];
  try {
    for (let i = 0; i < nodeCount; i++)
      nodes.push(
        from.kind === 'floor'
          ? await startFloor(from.dir)
          : await startServer(from.prepared.cli, { ...from.prepared.env, SERVER_TIMING: 'true', METRICS_TOKEN }),
      );
    const urls = nodes.map((n) => n.url);
    const run = (rate: number, seconds: number, offset: number, warmupSeconds = 0, namesFile = names.file) =>
      openLoop({ urls, key, namesFile, rate, seconds, offset, warmupSeconds });
    // Warm-up: the matching code is compiled for the kinds of names it sees, on names of their own.
    await run(200, PREWARM, 0, 0, names.prewarm);
    console.log(
      `[${setup}] ${nodeCount} node(s), open loop, ${DURATION} s per rate after ${WARMUP} s at that rate; latency from each request's due instant, ms`,
    );
    console.log('rate/s    p50     p90     p99   p99.9     max   errors  client-late-p99');
    let offset = 0;
    for (const rate of RATES) {
      const before = onPg ? await pgWrites(schema) : undefined;
      const waitsBefore = from.kind === 'service' && !onPg ? await lockWaits(nodes[0]!) : undefined;
      const cpuBefore = cpuOf(nodes);
      const httpCpuBefore = cpuOf(nodes, 'http');
      const dbCpuBefore = onPg ? postgresCpu() : 0;
      const { samples, lateSends } = await run(rate, DURATION, offset, WARMUP);
      const cpuAfter = cpuOf(nodes);
      const httpCpuAfter = cpuOf(nodes, 'http');
      const dbCpuAfter = onPg ? postgresCpu() : 0;
      // The CPU time and the rows written cover the warm-up's requests too.
      const requests = samples.length + Math.round(rate * WARMUP);
      offset += requests;
      const latencies = samples.map((s) => s.latency).sort((a, b) => a - b);
      const errors = samples.filter((s) => s.status !== 200).length;
      const q = (x: number) => quantile(latencies, x);
      const figures: [string, number][] = [
        ['p50', q(0.5)],
        ['p90', q(0.9)],
        ['p99', q(0.99)],
        ['p99.9', q(0.999)],
        ['max', latencies[latencies.length - 1]!],
      ];
      const late = quantile(
        lateSends.sort((a, b) => a - b),
        0.99,
      );
      console.log(
        `${String(rate).padEnd(6)} ${figures.map(([, v]) => v.toFixed(2).padStart(7)).join(' ')}  ${String(errors).padStart(7)}  ${late.toFixed(2).padStart(8)}`,
      );
      for (const [label, value] of figures) {
        const name = `${setup} ${rate}/s ${label}`;
        rows.push({ name, value: Number(value.toFixed(3)), unit: 'ms', target: TARGETS[name] ?? null });
      }
      rows.push({ name: `${setup} ${rate}/s errors`, value: errors, unit: 'requests', target: '0' });
      const p99 = q(0.99);
      const slow = samples.filter((s) => s.latency >= p99);
      if (from.kind === 'service') {
        console.log(`   all requests, mean ms:   ${formatStages(stageMeans(samples))}`);
        console.log(`   slowest 1% (${slow.length}), mean ms: ${formatStages(stageMeans(slow))}`);
      }
      const slowMeans = stageMeans(slow);
      if (slowMeans) {
        for (const stage of STAGES)
          rows.push({
            name: `${setup} ${rate}/s slowest 1% ${stage}`,
            value: Number(slowMeans[stage]!.toFixed(3)),
            unit: 'ms',
            target: null,
          });
      }
      if (Number.isFinite(cpuAfter - cpuBefore)) {
        const perScreening = ((cpuAfter - cpuBefore) * 1000) / requests;
        console.log(`   node CPU per screening: ${perScreening.toFixed(2)} ms (all threads, all nodes)`);
        rows.push({
          name: `${setup} ${rate}/s node CPU per screening`,
          value: Number(perScreening.toFixed(3)),
          unit: 'ms',
          target: null,
        });
      }
      if (Number.isFinite(httpCpuAfter - httpCpuBefore)) {
        const perScreening = ((httpCpuAfter - httpCpuBefore) * 1000) / requests;
        console.log(`   HTTP thread CPU per screening: ${perScreening.toFixed(2)} ms (the main thread of each node)`);
        rows.push({
          name: `${setup} ${rate}/s HTTP thread CPU per screening`,
          value: Number(perScreening.toFixed(3)),
          unit: 'ms',
          target: null,
        });
      }
      const waitsAfter = waitsBefore ? await lockWaits(nodes[0]!) : undefined;
      if (waitsBefore && waitsAfter) {
        const count = waitsAfter.count - waitsBefore.count;
        const ms = (waitsAfter.seconds - waitsBefore.seconds) * 1000;
        console.log(
          `   waits for an SQLite lock: ${count}, ${ms.toFixed(1)} ms in all (every write behind one waits too)`,
        );
        rows.push({ name: `${setup} ${rate}/s waits for an SQLite lock`, value: count, unit: 'waits', target: null });
      }
      if (onPg) {
        const perScreening = ((dbCpuAfter - dbCpuBefore) * 1000) / requests;
        console.log(`   database CPU per screening: ${perScreening.toFixed(2)} ms (every PostgreSQL process)`);
        rows.push({
          name: `${setup} ${rate}/s database CPU per screening`,
          value: Number(perScreening.toFixed(3)),
          unit: 'ms',
          target: null,
        });
      }
      if (before) {
        const after = await pgWrites(schema);
        const changed: string[] = [];
        let inserted = 0;
        let updated = 0;
        for (const [table, a] of after) {
          const b = before.get(table) ?? { ins: 0, upd: 0 };
          inserted += a.ins - b.ins;
          updated += a.upd - b.upd;
          if (a.upd - b.upd > 0) changed.push(`${table} ${((a.upd - b.upd) / requests).toFixed(2)}`);
        }
        console.log(
          `   rows per screening: ${(inserted / requests).toFixed(2)} inserted, ${(updated / requests).toFixed(2)} updated (${changed.join(', ') || 'none'})`,
        );
        rows.push({
          name: `${setup} rows inserted per screening`,
          value: Number((inserted / requests).toFixed(3)),
          unit: 'rows',
          target: null,
        });
        rows.push({
          name: `${setup} rows updated per screening`,
          value: Number((updated / requests).toFixed(3)),
          unit: 'rows',
          target: '0',
        });
      }
    }
    // Capacity: a closed loop of 50 connections, spread over the nodes.
    const capacity = await Promise.all(
      urls.map((url) => {
        let i = 0;
        return runAutocannon({
          url: `${url}/v1/screen`,
          connections: Math.round(50 / urls.length),
          duration: CAPACITY_SECONDS,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          requests: [
            {
              setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: names.list[i++ % names.list.length] }) }),
            },
          ],
        });
      }),
    );
    const perSecond = capacity.reduce((sum, r) => sum + r.requests.average, 0);
    const failed = capacity.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
    console.log(`[${setup}] capacity at 50 connections: ${perSecond.toFixed(0)} screenings/s (errors ${failed})`);
    rows.push({
      name: `${setup} capacity at 50 connections`,
      value: Math.round(perSecond),
      unit: 'screenings/s',
      target: null,
    });
  } finally {
    for (const n of nodes) await stopServer(n);
  }
}

/**
 * Two nodes with the real per-key limit (60 a minute) and one fresh key: 120 screenings sent to them
 * in turn, all inside one minute; the rows say how many each node admitted and how many in all.
 */
async function limitShare(prepared: Prepared, rows: Row[]): Promise<void> {
  const env = { ...prepared.env, RATE_LIMIT_PER_MINUTE: '60' };
  const key = (
    JSON.parse(
      runCli(prepared.cli, env, ['keys', 'create', '--org', 'bench', '--user', 'bench@example.test', '--json']),
    ) as {
      key: string;
    }
  ).key;
  const nodes: Node[] = [];
  try {
    for (let i = 0; i < 2; i++) nodes.push(await startServer(prepared.cli, env));
    // The windows are calendar minutes: start with most of one left.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
    const admitted = [0, 0];
    let refused = 0;
    await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const res = await fetch(`${nodes[i % 2]!.url}/v1/screen`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: JSON.stringify({ name: `Limit Probe ${i}` }),
        });
        await res.arrayBuffer();
        if (res.status === 200) admitted[i % 2]!++;
        else if (res.status === 429) refused++;
      }),
    );
    console.log(
      `\n[pg2] one key, limit 60 a minute, 120 screenings sent to both nodes in turn: node 1 admitted ${admitted[0]}, node 2 ${admitted[1]}, refused ${refused}`,
    );
    rows.push({ name: 'pg2 one key: admitted by node 1', value: admitted[0]!, unit: 'requests', target: null });
    rows.push({ name: 'pg2 one key: admitted by node 2', value: admitted[1]!, unit: 'requests', target: null });
    rows.push({
      name: 'pg2 one key: admitted by both nodes of its 60 a minute',
      value: admitted[0]! + admitted[1]!,
      unit: 'requests',
      target: '60',
    });
  } finally {
    for (const n of nodes) await stopServer(n);
  }
}

/**
 * What each setup adds to the floor's latency at the same rate, in the same run: the service's own
 * share of its p50 and p99, beside the machine's.
 */
function overTheFloor(rows: Row[]): void {
  const value = (name: string) => rows.find((r) => r.name === name)?.value;
  const lines: string[] = [];
  for (const setup of SETUPS.filter((s) => s !== 'floor')) {
    for (const rate of RATES) {
      for (const label of ['p50', 'p99']) {
        const floor = value(`floor ${rate}/s ${label}`);
        const own = value(`${setup} ${rate}/s ${label}`);
        if (floor === undefined || own === undefined) continue;
        const name = `${setup} ${rate}/s ${label} over the floor`;
        rows.push({ name, value: Number((own - floor).toFixed(3)), unit: 'ms', target: null });
        lines.push(`${name}: ${(own - floor).toFixed(2)} ms (${own.toFixed(2)} against ${floor.toFixed(2)})`);
      }
    }
  }
  if (lines.length > 0) console.log(`\n${lines.join('\n')}`);
}

/** Every setup of `setups` run with the servers of build `cli`, in order: their rows. */
async function measure(cli: string, setups: string[], names: Names, namesDir: string, pgUp: boolean): Promise<Row[]> {
  const rows: Row[] = [];
  // pg and pg2 share one database: two nodes on what one node ran on.
  const prepared = new Map<string, Prepared>();
  try {
    for (const setup of setups) {
      if (setup === 'floor') {
        console.log('\n[floor] the steps no server of this design can skip (floor-server.ts), as a screening server');
        await runSetup(setup, { kind: 'floor', dir: namesDir }, names, rows);
        continue;
      }
      const engine = setup === 'sqlite' ? 'sqlite' : 'pg';
      if (engine === 'pg' && !pgUp) {
        console.log(`\n[${setup}] skipped: PostgreSQL is not reachable at ${PG_URL}`);
        continue;
      }
      let database = prepared.get(engine);
      if (!database) prepared.set(engine, (database = prepare(engine, cli)));
      await runSetup(setup, { kind: 'service', prepared: database }, names, rows);
      if (setup === 'pg2') await limitShare(database, rows);
    }
  } finally {
    for (const database of prepared.values()) await database.cleanup();
  }
  return rows;
}

/** The rows a comparison of two builds reports: latency, capacity, CPU and lock waits of each setup. */
const COMPARED =
  /^(sqlite|pg2?) (\d+\/s (p50|p90|p99|p99\.9|node CPU per screening|HTTP thread CPU per screening|waits for an SQLite lock)|capacity at 50 connections)$/;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A build by the commit of its checkout (and whether it has changes not committed), else by its path. */
function describeBuild(cli: string): string {
  const checkout = dirname(dirname(resolve(cli)));
  try {
    const git = (...args: string[]) => execFileSync('git', ['-C', checkout, ...args], { encoding: 'utf8' }).trim();
    const changed = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `commit ${git('rev-parse', '--short', 'HEAD')}${changed ? ' with changes not committed' : ''}`;
  } catch {
    return cli;
  }
}

/**
 * --baseline: this build and the one before, run alternately ROUNDS times in this session (the
 * baseline first in odd rounds, second in even ones), every setup but the floor (the same for both
 * builds) with each; the floor, when asked for, once a round. A machine whose speed changes from one
 * minute to the next makes one run of each build say little: the medians of the rounds, with the
 * lowest and highest figure of each build, say whether a difference is larger than the spread
 * between runs of one build.
 */
async function compareBuilds(names: Names, namesDir: string, pgUp: boolean): Promise<void> {
  const builds = [
    { label: 'previous build', cli: BASELINE! },
    { label: 'this build', cli: CLI },
  ];
  const runs = new Map<string, Row[][]>(builds.map((b) => [b.label, []]));
  const floorRuns: Row[][] = [];
  const serviceSetups = SETUPS.filter((s) => s !== 'floor');
  for (let round = 1; round <= ROUNDS; round++) {
    if (SETUPS.includes('floor')) floorRuns.push(await measure(CLI, ['floor'], names, namesDir, pgUp));
    // The order turns each round (ABBA...), so that neither build always runs first after the floor.
    for (const build of round % 2 === 1 ? builds : [...builds].reverse()) {
      console.log(`\n===== round ${round} of ${ROUNDS}: ${build.label} (${build.cli})`);
      runs.get(build.label)!.push(await measure(build.cli, serviceSetups, names, namesDir, pgUp));
    }
  }
  const rows: Row[] = [];
  const lines: string[] = [];
  const summarize = (label: string, rounds: Row[][], name: string) => {
    const values = rounds.map((r) => r.find((row) => row.name === name)?.value).filter((v) => v !== undefined);
    if (values.length === 0) return undefined;
    const unit = rounds[0]!.find((row) => row.name === name)!.unit;
    const mid = median(values);
    rows.push({
      name: `${name}: ${label}, median of ${values.length}`,
      value: Number(mid.toFixed(3)),
      unit,
      target: null,
    });
    const low = Math.min(...values);
    const high = Math.max(...values);
    return `${mid.toFixed(2).padStart(8)} (${low.toFixed(2)} to ${high.toFixed(2)})`;
  };
  const firstRun = runs.get('this build')![0] ?? [];
  for (const name of firstRun.map((r) => r.name).filter((n) => COMPARED.test(n))) {
    const before = summarize('previous build', runs.get('previous build')!, name);
    const after = summarize('this build', runs.get('this build')!, name);
    lines.push(`${name.padEnd(44)} ${before ?? '(not measured)'.padStart(8)}   ${after}`);
  }
  for (const name of (floorRuns[0] ?? []).map((r) => r.name).filter((n) => /^floor \d+\/s (p50|p99)$/.test(n)))
    lines.push(`${name.padEnd(44)} ${summarize('both builds', floorRuns, name)}`);
  console.log(`\n${ROUNDS} rounds, alternated; median (lowest to highest) of each figure`);
  console.log(`${''.padEnd(44)} ${'previous build'.padStart(8)}   this build`);
  console.log(lines.join('\n'));
  mkdirSync(dirname(OUT), { recursive: true });
  const result = {
    title: `Open loop, this build against the previous one, alternated ${ROUNDS} times in one session`,
    command: `node dist/bench/open-loop.js --baseline=PREVIOUS/bin/sanctions --rounds=${ROUNDS} --setups=${SETUPS.join(',')} --rates=${RATES.join(',')} --duration=${DURATION}`,
    build: CLI,
    baseline: BASELINE,
    durationSeconds: DURATION,
    prewarmSeconds: PREWARM,
    measuredAt: new Date().toISOString(),
    machine: machineDescription(),
    note: benchNote(
      `the previous build is ${describeBuild(BASELINE!)}, this build ${describeBuild(CLI)}; each figure is the median of the rounds`,
    ),
    rows,
  };
  writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwritten: ${OUT}`);
}

async function main(): Promise<void> {
  if (!existsSync(LISTS)) {
    console.log(`open-loop benchmark skipped: ${LISTS} is absent`);
    return;
  }
  const records = [...(await loadAllLists(undefined, () => undefined)).values()].flat();
  const list = queryMix(records);
  const namesDir = mkdtempSync(join(tmpdir(), 'sanctions-openloop-names-'));
  const names = { list, file: join(namesDir, 'names.json'), prewarm: join(namesDir, 'prewarm.json') };
  writeFileSync(names.file, JSON.stringify(list));
  writeFileSync(names.prewarm, JSON.stringify(queryMix(records, 2000, 8)));
  console.log(
    `open-loop benchmark: build ${CLI}; ${list.length} names (listed, perturbed, innocent); the machine may be shared, so figures vary between runs`,
  );
  const pgUp = await pgReachable();
  let rows: Row[] | undefined;
  try {
    if (BASELINE) await compareBuilds(names, namesDir, pgUp);
    else rows = await measure(CLI, SETUPS, names, namesDir, pgUp);
  } finally {
    rmSync(namesDir, { recursive: true, force: true });
  }
  if (!rows) return; // a comparison writes its own file
  const ratio = (a: string, b: string) => {
    const x = rows.find((r) => r.name === a)?.value;
    const y = rows.find((r) => r.name === b)?.value;
    return x !== undefined && y !== undefined ? x / y : undefined;
  };
  overTheFloor(rows);
  const floorShare = ratio('sqlite capacity at 50 connections', 'floor capacity at 50 connections');
  if (floorShare !== undefined) {
    console.log(`SQLite capacity / the floor's: ${floorShare.toFixed(2)}`);
    rows.push({ name: 'sqlite / floor capacity', value: Number(floorShare.toFixed(3)), unit: 'ratio', target: null });
  }
  const pgShare = ratio('pg capacity at 50 connections', 'sqlite capacity at 50 connections');
  if (pgShare !== undefined) {
    console.log(`\nPostgreSQL one node / SQLite capacity: ${pgShare.toFixed(2)}`);
    rows.push({ name: 'pg / sqlite capacity', value: Number(pgShare.toFixed(3)), unit: 'ratio', target: '>= 0.7' });
  }
  for (const row of rows) if (HEADLINES.has(row.name)) row.headline = true;
  mkdirSync(dirname(OUT), { recursive: true });
  const result = {
    build: CLI,
    durationSeconds: DURATION,
    prewarmSeconds: PREWARM,
    measuredAt: new Date().toISOString(),
    machine: machineDescription(),
    note: benchNote(
      process.env.BENCH_REDIS_URL
        ? 'the PostgreSQL nodes keep the rate-limit and quota counters in Redis (REDIS_URL), as a multi-node deployment does'
        : 'the PostgreSQL nodes run without Redis: the rate-limit and quota counters are rows in the database',
    ),
    rows,
  };
  writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwritten: ${OUT}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
