/**
 * Batch screening end to end (issue 14): a CSV of --rows rows (default 100,000) uploaded to a server
 * process on SQLite with the real lists; the time to accept it, the time until every row is screened,
 * the server's peak resident memory, and the p99 of interactive POST /screen while the batch runs
 * against its idle value. Then a second batch killed (SIGKILL) at about half way and the server
 * restarted: rows lost and rows screened twice, counted in the database.
 *   npm run build && node dist/bench/batch.js [--rows=100000] [--kill-rows=10000] [--duration=15] [--connections=2]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type autocannon from 'autocannon';
import { loadAllLists } from './quality.js';
import { queryMix } from './query-mix.js';
import {
  LISTS,
  numberArg as arg,
  prepareServerData,
  runAutocannon,
  serverEnv,
  waitForLists,
} from './server-process.js';

const ROWS = arg('rows', 100_000);
const KILL_ROWS = arg('kill-rows', 10_000);
const DURATION = arg('duration', 15);
const CONNECTIONS = arg('connections', 2);
const PORT = arg('port', 18191);
const CLI = resolve(process.cwd(), 'bin/sanctions');
const URL_BASE = `http://127.0.0.1:${PORT}`;

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

function csvOf(names: string[], rows: number, prefix: string): string {
  const lines = ['name,externalId'];
  for (let i = 0; i < rows; i++) lines.push(`"${names[i % names.length]!.replace(/"/g, '""')}",${prefix}-${i}`);
  return `${lines.join('\n')}\n`;
}

function startServer(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
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

async function main(): Promise<void> {
  if (!existsSync(LISTS)) {
    console.log(`batch benchmark skipped: ${LISTS} is absent`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sanctions-bench-batch-'));
  const env = serverEnv(dataDir, PORT);
  let server: ChildProcess | undefined;
  try {
    const key = prepareServerData(CLI, env);
    const names = queryMix([...(await loadAllLists(undefined, () => undefined)).values()].flat());
    server = startServer(env);
    await waitForLists(URL_BASE, 120_000);
    // Warm-up, then the interactive p99 with no batch running.
    await interactive(key, names.slice().reverse());
    const idle = await interactive(key, names);

    const csv = csvOf(names, ROWS, 'b');
    const t0 = performance.now();
    const created = await api<{ batchId: string }>(key, 'POST', '/v1/batches', csv, 'text/csv');
    const accepted = performance.now() - t0;
    const during = await interactive(key, names);
    const end = await waitUntil(key, created.batchId, (s) => s.status === 'completed');
    const took = performance.now() - t0;
    const rss = peakRssMiB(server.pid);

    console.log(
      `\nBatch benchmark: ${ROWS.toLocaleString('en')} CSV rows (${(csv.length / 1024 / 1024).toFixed(1)} MB), SQLite, one server process (BATCH_CONCURRENCY=${process.env.BATCH_CONCURRENCY ?? 'default'}), real lists; 2 cores shared with other work on this machine`,
    );
    console.log(`accepted (202, every row stored) after ${(accepted / 1000).toFixed(1)} s`);
    console.log(
      `all rows screened after ${(took / 1000).toFixed(1)} s: ${((end.done / took) * 1000).toFixed(0)} rows/s (${end.screened} screened, ${end.errors} errors)`,
    );
    if (rss !== undefined) console.log(`server peak resident memory: ${rss} MiB`);
    console.log(`interactive POST /screen, ${CONNECTIONS} connections, ${DURATION} s:`);
    console.log(line('  idle', idle));
    console.log(line('  while the batch runs', during));
    console.log(`  p99 ratio: ${(during.latency.p99 / Math.max(1, idle.latency.p99)).toFixed(2)} x idle`);

    // Kill -9 at about half way, restart, count.
    const second = await api<{ batchId: string }>(key, 'POST', '/v1/batches', csvOf(names, KILL_ROWS, 'k'), 'text/csv');
    const half = await waitUntil(key, second.batchId, (s) => s.done >= KILL_ROWS / 2);
    server.kill('SIGKILL');
    await new Promise((r) => server!.once('exit', r));
    server = startServer(env);
    await waitForLists(URL_BASE, 120_000);
    const resumed = await waitUntil(key, second.batchId, (s) => s.status === 'completed');
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
    server = undefined;
    const db = new Database(join(dataDir, 'sanctions.db'), { readonly: true });
    try {
      const lost = db
        .prepare(
          `select count(*) as n from batch_rows r where r.batch_id = ? and (r.state <> 'done' or not exists (select 1 from screenings s where s.id = r.screening_id))`,
        )
        .get(second.batchId) as { n: number };
      const twice = db
        .prepare(
          `select coalesce(sum(n - 1), 0) as n from (select count(*) as n from screenings where external_id like 'k-%' group by external_id having count(*) > 1)`,
        )
        .get() as { n: number };
      console.log(
        `kill -9 at ${half.done.toLocaleString('en')} of ${KILL_ROWS.toLocaleString('en')} rows, restart: ${resumed.status}, rows lost ${lost.n}, rows screened twice ${twice.n}`,
      );
    } finally {
      db.close();
    }
  } finally {
    if (server) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
