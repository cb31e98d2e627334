/**
 * Batch screening end to end (issue 14), on a server process on SQLite with the real lists:
 *  1. the throughput: a CSV of --rows rows (default 100,000) uploaded with no other traffic, the time
 *     to accept it and until every row is screened (the server's own finishedAt), and the CPU each of
 *     the server's threads spent per row (the HTTP thread, the matching thread, the rest): on a shared
 *     machine the CPU per row is the steadier figure, and each thread's CPU against the wall time says
 *     which one is the limit;
 *  2. fairness: the p99 of interactive POST /screen with no batch against its value while a second
 *     batch (--during-rows, default as many rows) runs. The runner gives way to interactive requests
 *     by design (BATCH_BUSY_CONCURRENCY), so this second batch's end-to-end time, also printed, mixes
 *     its own speed with the time it yielded;
 *  3. durability: a third batch killed (SIGKILL) at about half way and the server restarted: rows lost
 *     and rows screened twice, counted in the database.
 * The server's peak resident memory is read before the kill.
 *   npm run build && node dist/bench/batch.js [--rows=100000] [--during-rows=100000] [--kill-rows=10000] [--duration=15] [--connections=2]
 * BENCH_CACHE_DIR keeps the synced lists database, the key and the query mix between runs (each run
 * works on a copy); BENCH_CLI runs another build; BENCH_SERVER_NODE_ARGS passes node flags to the server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type autocannon from 'autocannon';
import { preparedCopy } from './prepared-data.js';
import { LISTS, numberArg as arg, runAutocannon, serverEnv, statCpuSeconds, waitForLists } from './server-process.js';

const ROWS = arg('rows', 100_000);
const DURING_ROWS = arg('during-rows', ROWS);
const KILL_ROWS = arg('kill-rows', 10_000);
const DURATION = arg('duration', 15);
const CONNECTIONS = arg('connections', 2);
const PORT = arg('port', 18191);
const CLI = resolve(process.cwd(), process.env.BENCH_CLI ?? 'bin/sanctions');
const URL_BASE = `http://127.0.0.1:${PORT}`;
const METRICS_URL = `http://127.0.0.1:${PORT + 1}/metrics`;

function peakRssMiB(pid: number | undefined): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds of each of the process's threads, by thread id. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(tid, statCpuSeconds(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended
    }
  }
  return out;
}

/**
 * CPU between two readings: the main (HTTP) thread, the busiest other one (the matching thread), and
 * the rest (V8's garbage collector helpers, the SQLite checkpointer, libuv's pool for the log syncs).
 */
function cpuSplit(pid: number, before: Map<string, number>, after: Map<string, number>) {
  const spent = [...after].map(([tid, s]) => ({ tid, s: s - (before.get(tid) ?? 0) }));
  const main = spent.find((t) => t.tid === String(pid))?.s ?? 0;
  const others = spent.filter((t) => t.tid !== String(pid)).map((t) => t.s);
  others.sort((x, y) => y - x);
  const busiest = others[0] ?? 0;
  const rest = others.slice(1).reduce((x, y) => x + y, 0);
  return { main, busiest, rest, all: main + busiest + rest };
}

/** Seconds the matching threads have spent screening (sanctions_matching_busy_seconds_total); undefined on builds without it. */
async function matchingBusySeconds(): Promise<number | undefined> {
  const text = await (await fetch(METRICS_URL)).text();
  const hit = /^sanctions_matching_busy_seconds_total (\S+)$/m.exec(text);
  return hit ? Number(hit[1]) : undefined;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function csvOf(names: string[], rows: number, prefix: string): string {
  const lines = ['name,externalId'];
  for (let i = 0; i < rows; i++) lines.push(`"${names[i % names.length]!.replace(/"/g, '""')}",${prefix}-${i}`);
  return `${lines.join('\n')}\n`;
}

function startServer(env: NodeJS.ProcessEnv): ChildProcess {
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  return spawn(process.execPath, [...nodeArgs, CLI, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function api<T>(key: string, method: string, path: string, body?: string, type?: string): Promise<T> {
  const res = await fetch(URL_BASE + path, {
    method,
    headers: { 'x-api-key': key, ...(type ? { 'content-type': type } : {}) },
    ...(body !== undefined ? { body } : {}),
  });
  const json = (await res.json()) as { data: T };
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

interface Status {
  status: string;
  done: number;
  screened: number;
  errors: number;
  total: number;
  finishedAt: string | null;
}

async function waitUntil(key: string, id: string, done: (s: Status) => boolean): Promise<Status> {
  for (;;) {
    const s = await api<Status>(key, 'GET', `/v1/batches/${id}`);
    if (done(s)) return s;
    // Once a second: the status counts every row of the batch, and the server's CPU is what is measured.
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function interactive(key: string, names: string[]): Promise<autocannon.Result> {
  let i = 0;
  return runAutocannon({
    url: `${URL_BASE}/v1/screen`,
    connections: CONNECTIONS,
    duration: DURATION,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: names[i++ % names.length] }) }) }],
  });
}

const line = (label: string, r: autocannon.Result) =>
  `${label.padEnd(26)} ${r.requests.average.toFixed(0).padStart(5)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   max ${r.latency.max} ms   errors ${r.errors + r.non2xx}`;

/** Uploads a CSV batch; the wall-clock time of the upload, the time until accepted (202), and its id. */
async function upload(key: string, csv: string) {
  const startedAt = Date.now();
  const t0 = performance.now();
  const created = await api<{ batchId: string }>(key, 'POST', '/v1/batches', csv, 'text/csv');
  return { id: created.batchId, startedAt, accepted: performance.now() - t0 };
}

/** Seconds from the upload to the server's finishedAt. */
const tookSeconds = (startedAt: number, end: Status) => (Date.parse(end.finishedAt!) - startedAt) / 1000;

async function main(): Promise<void> {
  if (!existsSync(LISTS)) {
    console.log(`batch benchmark skipped: ${LISTS} is absent`);
    return;
  }
  const { key, names, dataDir, remove } = await preparedCopy(CLI, 'sanctions-bench-batch');
  const env = { ...serverEnv(dataDir, PORT), METRICS_PORT: String(PORT + 1) };
  let server: ChildProcess | undefined;
  try {
    server = startServer(env);
    await waitForLists(URL_BASE, 120_000);
    const pid = server.pid!;
    console.log(
      `\nBatch benchmark: SQLite, one server process (BATCH_CONCURRENCY=${process.env.BATCH_CONCURRENCY ?? 'default'}, ` +
        `MATCH_THREADS=${process.env.MATCH_THREADS ?? 'default'}), real lists; 2 cores shared with whatever else runs on this machine`,
    );

    // Warm-up: the matching code compiled, the collection after the index build over.
    await interactive(key, names.slice().reverse());

    // 1. The batch alone.
    const csv = csvOf(names, ROWS, 'a');
    const loadBefore = load();
    const cpuBefore = threadCpu(pid);
    const busyBefore = await matchingBusySeconds();
    const alone = await upload(key, csv);
    const end = await waitUntil(key, alone.id, (s) => s.status === 'completed');
    const cpu = cpuSplit(pid, cpuBefore, threadCpu(pid));
    const busyAfter = await matchingBusySeconds();
    const took = tookSeconds(alone.startedAt, end);
    const perRow = (s: number) => `${((s * 1e6) / end.done).toFixed(0)} us`;
    const ofWall = (s: number) => `${((s / took) * 100).toFixed(0)}%`;
    console.log(
      `\n1. ${ROWS.toLocaleString('en')} CSV rows (${(csv.length / 1024 / 1024).toFixed(1)} MB), no other traffic (load average before: ${loadBefore}; after: ${load()})`,
    );
    console.log(`   accepted (202, every row stored) after ${(alone.accepted / 1000).toFixed(1)} s`);
    console.log(
      `   all rows screened after ${took.toFixed(1)} s: ${(end.done / took).toFixed(0)} rows/s (${end.screened} screened, ${end.errors} errors)`,
    );
    console.log(
      `   server CPU per row: HTTP thread ${perRow(cpu.main)}, matching thread ${perRow(cpu.busiest)}, other threads ${perRow(cpu.rest)}, all ${perRow(cpu.all)}`,
    );
    console.log(
      `   share of a core over the wall time: HTTP thread ${ofWall(cpu.main)}, matching thread ${ofWall(cpu.busiest)}, all ${ofWall(cpu.all)}`,
    );
    if (busyBefore !== undefined && busyAfter !== undefined) {
      const busy = busyAfter - busyBefore;
      console.log(
        `   matching thread busy (time in its screening handler, descheduled time included) ${((busy / took) * 100).toFixed(0)}% of the wall time, ${perRow(busy)} a row`,
      );
    }

    // 2. The interactive p99 with no batch running, then while a second batch runs.
    const idle = await interactive(key, names.slice().reverse());
    const loadDuring = load();
    const second = await upload(key, csvOf(names, DURING_ROWS, 'b'));
    const during = await interactive(key, names);
    const secondEnd = await waitUntil(key, second.id, (s) => s.status === 'completed');
    const mixed = tookSeconds(second.startedAt, secondEnd);
    console.log(
      `\n2. interactive POST /screen, ${CONNECTIONS} connections, ${DURATION} s (load average ${loadDuring}; after: ${load()}):`,
    );
    console.log(line('   idle (after batch 1)', idle));
    console.log(line('   while batch 2 runs', during));
    console.log(`   p99 ratio: ${(during.latency.p99 / Math.max(1, idle.latency.p99)).toFixed(2)} x idle`);
    console.log(
      `   batch 2 (${DURING_ROWS.toLocaleString('en')} rows, its first ${DURATION} s under the interactive load, when the runner gives way to it): ` +
        `${mixed.toFixed(1)} s end to end, ${(secondEnd.done / mixed).toFixed(0)} rows/s`,
    );
    const rss = peakRssMiB(pid);
    if (rss !== undefined) console.log(`\nserver peak resident memory (batches 1 and 2): ${rss} MiB`);

    // 3. Kill -9 at about half way, restart, count.
    const third = await api<{ batchId: string }>(key, 'POST', '/v1/batches', csvOf(names, KILL_ROWS, 'k'), 'text/csv');
    const half = await waitUntil(key, third.batchId, (s) => s.done >= KILL_ROWS / 2);
    server.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    server = startServer(env);
    await waitForLists(URL_BASE, 120_000);
    const resumed = await waitUntil(key, third.batchId, (s) => s.status === 'completed');
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
    server = undefined;
    const db = new Database(join(dataDir, 'sanctions.db'), { readonly: true });
    try {
      const lost = db
        .prepare(
          `select count(*) as n from batch_rows r where r.batch_id = ? and (r.state <> 'done' or not exists (select 1 from screenings s where s.id = r.screening_id))`,
        )
        .get(third.batchId) as { n: number };
      const twice = db
        .prepare(
          `select coalesce(sum(n - 1), 0) as n from (select count(*) as n from screenings where external_id like 'k-%' group by external_id having count(*) > 1)`,
        )
        .get() as { n: number };
      console.log(
        `\n3. kill -9 at ${half.done.toLocaleString('en')} of ${KILL_ROWS.toLocaleString('en')} rows, restart: ${resumed.status}, rows lost ${lost.n}, rows screened twice ${twice.n}`,
      );
    } finally {
      db.close();
    }
  } finally {
    if (server) server.kill('SIGKILL');
    remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
