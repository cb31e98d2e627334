/**
 * End-to-end HTTP benchmark: POST /screen on SQLite under load from autocannon (50 connections), and
 * GET /health in the same run for the ratio. The server runs as its own process (`sanctions serve`),
 * as a user would run it; the lists are the real files in ../shared/data/lists, and the names sent
 * are the matching benchmark's mix of listed, perturbed and innocent names.
 *   npm run build && node dist/bench/http.js [--duration=15] [--connections=50]
 * BENCH_SERVER_NODE_ARGS passes node flags to the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p").
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { loadAllLists } from './quality.js';
import { queryMix } from './query-mix.js';

const arg = (name: string, fallback: number) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split('=')[1]) : fallback;
};
const DURATION = arg('duration', 15);
const CONNECTIONS = arg('connections', 50);
const PORT = arg('port', 18181);
const LISTS = resolve(process.cwd(), '../shared/data/lists');
const CLI = resolve(process.cwd(), 'bin/sanctions');

function cli(env: NodeJS.ProcessEnv, args: string[]): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`sanctions ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/** CPU seconds a process has used (all its threads), from /proc; undefined where there is no /proc. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in MiB, from /proc. */
function rssMiB(pid: number | undefined): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/health`);
      const body = (await res.json()) as { data?: { listsReady?: boolean } };
      if (body.data?.listsReady) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become ready');
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolvePromise, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolvePromise(result)));
  });
}

async function main(): Promise<void> {
  if (!existsSync(LISTS)) {
    console.log(`HTTP benchmark skipped: ${LISTS} is absent`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sanctions-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(PORT),
    LOG_LEVEL: 'warn',
    LIST_SYNC_ON_START: 'false',
    // The benchmark measures the service, not the per-key limit of 60 a minute.
    RATE_LIMIT_PER_MINUTE: '10000000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '10000000',
  };
  delete env.DATABASE_URL;
  try {
    const started = Date.now();
    cli(env, ['lists', 'sync', '--from', LISTS, '--json']);
    console.log(`lists synced into SQLite in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The names sent: the query mix of the matching benchmark (listed, perturbed and innocent names).
    const names = queryMix([...(await loadAllLists(undefined, () => undefined)).values()].flat());
    console.log(`query mix: ${names.length} names (listed, perturbed, innocent), sent in turn`);
    cli(env, ['orgs', 'create', '--slug', 'bench', '--name', 'Bench', '--tier', 'enterprise', '--json']);
    cli(env, ['users', 'add', '--org', 'bench', '--email', 'bench@example.test', '--json']);
    const key = (JSON.parse(cli(env, ['keys', 'create', '--org', 'bench', '--user', 'bench@example.test', '--json'])) as { key: string }).key;

    const server = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), CLI, 'serve'], { env, stdio: ['ignore', process.env.BENCH_SERVER_NODE_ARGS ? 'inherit' : 'ignore', 'inherit'] });
    const url = `http://127.0.0.1:${PORT}`;
    try {
      await waitForHealth(url, 120_000);
      // Warm-up on the same kind of names (the matching code is compiled for what it sees), from the end of the mix.
      let w = 0;
      await run({
        url: `${url}/v1/screen`,
        connections: 10,
        duration: 5,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: names[names.length - 1 - (w++ % names.length)] }) }) }],
      });

      const health = await run({ url: `${url}/health`, connections: CONNECTIONS, duration: DURATION });
      let i = 0;
      const cpuBefore = cpuSeconds(server.pid);
      const loadBefore = process.cpuUsage();
      const screen = await run({
        url: `${url}/v1/screen`,
        connections: CONNECTIONS,
        duration: DURATION,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        requests: [
          {
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: names[i++ % names.length] }) }),
          },
        ],
      });
      const line = (label: string, r: autocannon.Result) =>
        `${label.padEnd(14)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${r.latency.p50} ms   p90 ${r.latency.p90} ms   p99 ${r.latency.p99} ms   max ${r.latency.max} ms   errors ${r.errors + r.non2xx}`;
      console.log(`\nHTTP benchmark: ${CONNECTIONS} connections, ${DURATION} s each, SQLite, one server process (MATCH_THREADS=${process.env.MATCH_THREADS ?? "default"}), autocannon in this process on the same machine`);
      console.log(line('GET /health', health));
      console.log(line('POST /screen', screen));
      const cpuAfter = cpuSeconds(server.pid);
      const load = process.cpuUsage(loadBefore);
      const rss = rssMiB(server.pid);
      if (rss !== undefined) console.log(`server resident memory after the run: ${rss} MiB (lists, index in the matching thread, SQLite)`);
      if (cpuBefore !== undefined && cpuAfter !== undefined) {
        console.log(`server CPU per screening: ${(((cpuAfter - cpuBefore) * 1000) / screen.requests.total).toFixed(2)} ms (all threads of the server process); load generator: ${((load.user + load.system) / 1000 / screen.requests.total).toFixed(2)} ms`);
      }
      console.log(`POST /screen throughput is ${(screen.requests.average / health.requests.average).toFixed(2)} x GET /health`);
    } finally {
      server.kill('SIGTERM');
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
