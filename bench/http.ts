/**
 * End-to-end HTTP benchmark: POST /screen on SQLite under load from autocannon (50 connections), and
 * GET /health in the same run for the ratio. The server runs as its own process (`sanctions serve`),
 * as a user would run it; the lists are the real files in ../shared/data/lists, and the names sent
 * are the matching benchmark's mix of listed, perturbed and innocent names.
 *   npm run build && node dist/bench/http.js [--duration=15] [--connections=50]
 * BENCH_SERVER_NODE_ARGS passes node flags to the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p").
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type autocannon from 'autocannon';
import { loadAllLists } from './quality.js';
import { queryMix } from './query-mix.js';
import { benchNote, writeResult } from './results.js';
import {
  LISTS,
  numberArg as arg,
  prepareServerData,
  runAutocannon as run,
  serverEnv,
  statCpuSeconds,
  waitForLists,
} from './server-process.js';

const DURATION = arg('duration', 15);
const CONNECTIONS = arg('connections', 50);
const PORT = arg('port', 18181);
const CLI = resolve(process.cwd(), 'bin/sanctions');

/** CPU seconds a process has used (all its threads), from /proc; undefined where there is no /proc. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    return statCpuSeconds(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
}

/** Resident memory of a process in MiB, from /proc. */
function rssMiB(pid: number | undefined): number | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  if (!existsSync(LISTS)) {
    console.log(`HTTP benchmark skipped: ${LISTS} is absent`);
    return;
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'sanctions-bench-'));
  const env = serverEnv(dataDir, PORT);
  try {
    const started = Date.now();
    const key = prepareServerData(CLI, env);
    console.log(`lists synced into SQLite (and a key made) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The names sent: the query mix of the matching benchmark (listed, perturbed and innocent names).
    const names = queryMix([...(await loadAllLists(undefined, () => undefined)).values()].flat());
    console.log(`query mix: ${names.length} names (listed, perturbed, innocent), sent in turn`);

    const server = spawn(
      process.execPath,
      [...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), CLI, 'serve'],
      { env, stdio: ['ignore', process.env.BENCH_SERVER_NODE_ARGS ? 'inherit' : 'ignore', 'inherit'] },
    );
    const url = `http://127.0.0.1:${PORT}`;
    try {
      await waitForLists(url, 120_000);
      // Warm-up on the same kind of names (the matching code is compiled for what it sees), from the end of the mix.
      let w = 0;
      await run({
        url: `${url}/v1/screen`,
        connections: 10,
        duration: 5,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ name: names[names.length - 1 - (w++ % names.length)] }),
            }),
          },
        ],
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
      console.log(
        `\nHTTP benchmark: ${CONNECTIONS} connections, ${DURATION} s each, SQLite, one server process (MATCH_THREADS=${process.env.MATCH_THREADS ?? 'default'}), autocannon in this process on the same machine`,
      );
      console.log(line('GET /health', health));
      console.log(line('POST /screen', screen));
      const cpuAfter = cpuSeconds(server.pid);
      const load = process.cpuUsage(loadBefore);
      const rss = rssMiB(server.pid);
      if (rss !== undefined)
        console.log(`server resident memory after the run: ${rss} MiB (lists, index in the matching thread, SQLite)`);
      if (cpuBefore !== undefined && cpuAfter !== undefined) {
        console.log(
          `server CPU per screening: ${(((cpuAfter - cpuBefore) * 1000) / screen.requests.total).toFixed(2)} ms (all threads of the server process); load generator: ${((load.user + load.system) / 1000 / screen.requests.total).toFixed(2)} ms`,
        );
      }
      console.log(
        `POST /screen throughput is ${(screen.requests.average / health.requests.average).toFixed(2)} x GET /health`,
      );
      writeResult({
        benchmark: 'http',
        title: `POST /screen over HTTP: SQLite, one server process, ${CONNECTIONS} connections, ${DURATION} s (autocannon on the same machine)`,
        command: `node dist/bench/http.js --duration=${DURATION} --connections=${CONNECTIONS}`,
        ...(benchNote() ? { note: benchNote() } : {}),
        rows: [
          {
            name: 'POST /screen throughput',
            value: Math.round(screen.requests.average),
            unit: 'req/s',
            headline: true,
          },
          { name: 'POST /screen latency p50', value: screen.latency.p50, unit: 'ms' },
          { name: 'POST /screen latency p99', value: screen.latency.p99, unit: 'ms', headline: true },
          { name: 'POST /screen errors', value: screen.errors + screen.non2xx, unit: '' },
          { name: 'GET /health throughput', value: Math.round(health.requests.average), unit: 'req/s' },
          ...(rss !== undefined ? [{ name: 'server resident memory after the run', value: rss, unit: 'MiB' }] : []),
        ],
      });
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
