/**
 * CPU cost of POST /screen on the HTTP thread: `sanctions serve` on SQLite (real lists, defaults,
 * FULL durability, one matching thread) as its own process, a fixed number of screenings sent at a
 * fixed concurrency, and the CPU time of the server's main thread read from /proc before and after.
 * On a shared machine CPU time per request is a steadier figure than requests a second: it does not
 * depend on how much of the CPU the other processes leave us.
 *   npm run build && node dist/bench/http-cpu.js [--requests=20000] [--rounds=3] [--connections=20]
 * BENCH_CACHE_DIR keeps the synced lists database and the query mix between runs (each run works on
 * a copy of it); BENCH_SERVER_NODE_ARGS passes node flags to the server (e.g. "--cpu-prof").
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { preparedCopy } from './prepared-data.js';
import {
  LISTS,
  numberArg as arg,
  runAutocannon as run,
  serverEnv,
  statCpuSeconds as cpuSeconds,
  waitForLists,
} from './server-process.js';

const REQUESTS = arg('requests', 20_000);
const ROUNDS = arg('rounds', 3);
const CONNECTIONS = arg('connections', 20);
const PORT = arg('port', 18182);
// BENCH_CLI runs another build of the command line against the same data (before/after comparisons).
const CLI = resolve(process.cwd(), process.env.BENCH_CLI ?? 'bin/sanctions');

async function main(): Promise<void> {
  if (!existsSync(LISTS)) {
    console.log(`HTTP CPU benchmark skipped: ${LISTS} is absent`);
    return;
  }
  const { key, names, dataDir, remove } = await preparedCopy(CLI, 'sanctions-cpu');
  const env = serverEnv(dataDir, PORT);
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const server = spawn(process.execPath, [...nodeArgs, CLI, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${PORT}`;
  try {
    await waitForLists(url, 120_000);
    let i = 0;
    const screen = (amount: number) =>
      run({
        url: `${url}/v1/screen`,
        connections: CONNECTIONS,
        amount,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: names[i++ % names.length] }) }) }],
      });
    await screen(3000);
    const main = `/proc/${server.pid}/task/${server.pid}/stat`;
    const all = `/proc/${server.pid}/stat`;
    /** CPU seconds of each thread but the main one (the matching thread is the busiest of them). */
    const others = () =>
      new Map(
        readdirSync(`/proc/${server.pid}/task`)
          .filter((tid) => tid !== String(server.pid))
          .map((tid) => [tid, cpuSeconds(`/proc/${server.pid}/task/${tid}/stat`)] as const),
      );
    console.log(
      `POST /screen, ${CONNECTIONS} connections, ${REQUESTS} requests a round, SQLite, server as its own process`,
    );
    const perRequest: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const mainBefore = cpuSeconds(main);
      const allBefore = cpuSeconds(all);
      const othersBefore = others();
      const result = await screen(REQUESTS);
      const perScreening = (seconds: number) => (seconds * 1000) / result.requests.total;
      const mainMs = perScreening(cpuSeconds(main) - mainBefore);
      const allMs = perScreening(cpuSeconds(all) - allBefore);
      const threads = [...others()]
        .map(([tid, seconds]) => perScreening(seconds - (othersBefore.get(tid) ?? 0)))
        .sort((a, b) => b - a);
      perRequest.push(mainMs);
      console.log(
        `round ${round}: main thread ${mainMs.toFixed(3)} ms CPU per screening, whole server ${allMs.toFixed(3)} ms ` +
          `(busiest other thread ${(threads[0] ?? 0).toFixed(3)} ms, the rest ${threads
            .slice(1)
            .reduce((a, b) => a + b, 0)
            .toFixed(3)} ms); ` +
          `${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx}`,
      );
    }
    perRequest.sort((a, b) => a - b);
    console.log(
      `main thread CPU per screening, median of ${ROUNDS}: ${perRequest[Math.floor(ROUNDS / 2)]!.toFixed(3)} ms`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
