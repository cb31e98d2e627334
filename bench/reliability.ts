/**
 * The longer reliability runs (issue 17): more kill -9 rounds than `npm test` makes, and a soak at a
 * steady rate reporting the server's resident memory and the p99 of each window over time.
 *   npm run build && node dist/bench/reliability.js [--rounds=10] [--soak=1800] [--rate=100] [--every=60]
 * --rounds=0 or --soak=0 leave that part out. The server is `sanctions serve` on SQLite with the
 * real lists of ../shared/data/lists (the sample is not enough to show memory growth).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { callJson, spawnReadyServer } from './child-server.js';
import { queryMix } from './query-mix.js';
import { loadAllLists } from './quality.js';
import { runCrashRounds } from './reliability-rounds.js';
import { LISTS, numberArg, prepareServerData, serverEnv } from './server-process.js';

const ROUNDS = numberArg('rounds', 10);
const SOAK_SECONDS = numberArg('soak', 1800);
const RATE = numberArg('rate', 100);
const EVERY = numberArg('every', 60);
const CLI = resolve(process.cwd(), 'bin/sanctions');

function rssMiB(pid: number | undefined): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : NaN;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

async function soak(env: Record<string, string>, key: string, names: string[]): Promise<void> {
  const server = await spawnReadyServer(env, 300_000);
  try {
    console.log(`soak: ${RATE} POST /screen a second for ${SOAK_SECONDS} s, a line every ${EVERY} s`);
    console.log('   t (s)  sent  errors  p50 ms  p99 ms  max ms  RSS MiB');
    const started = Date.now();
    const startRss = rssMiB(server.proc.pid);
    let window: number[] = [];
    let errors = 0;
    let sent = 0;
    let next = 0;
    const inFlight = new Set<Promise<void>>();
    const fire = () => {
      const name = names[sent++ % names.length]!;
      const t0 = performance.now();
      const p = callJson(server.url, 'POST', '/v1/screen', { key, body: { name } }).then((res) => {
        if (res.status === 200) window.push(performance.now() - t0);
        else errors++;
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    };
    let lastReport = started;
    while (Date.now() - started < SOAK_SECONDS * 1000) {
      // Open loop: requests leave on schedule whatever the answers do.
      const due = Math.floor(((Date.now() - started) / 1000) * RATE);
      while (next < due) {
        fire();
        next++;
      }
      if (Date.now() - lastReport >= EVERY * 1000) {
        lastReport = Date.now();
        const sorted = window.sort((a, b) => a - b);
        console.log(
          [
            Math.round((Date.now() - started) / 1000),
            sorted.length,
            errors,
            percentile(sorted, 50).toFixed(1),
            percentile(sorted, 99).toFixed(1),
            (sorted.at(-1) ?? NaN).toFixed(1),
            rssMiB(server.proc.pid),
          ]
            .map((v) => String(v).padStart(7))
            .join(' '),
        );
        window = [];
        errors = 0;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await Promise.all(inFlight);
    const endRss = rssMiB(server.proc.pid);
    console.log(
      `soak: ${next} requests; resident memory ${startRss} -> ${endRss} MiB (${endRss - startRss >= 0 ? '+' : ''}${endRss - startRss})`,
    );
  } finally {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sanctions-reliability-'));
  try {
    const env = { ...(serverEnv(dataDir, 0) as Record<string, string>), LOG_LEVEL: 'info' };
    const key = prepareServerData(CLI, env);
    if (ROUNDS > 0) {
      const t0 = Date.now();
      const report = await runCrashRounds({
        env,
        key,
        rounds: ROUNDS,
        acksPerRound: 300,
        concurrency: 32,
        readyTimeoutMs: 300_000,
        log: (line) => console.log(`kill -9: ${line}`),
      });
      console.log(
        `kill -9: ${report.kills} rounds in ${((Date.now() - t0) / 1000).toFixed(0)} s, ${report.acknowledged} acknowledged, ` +
          `${report.unacknowledged} cut off; missing ${report.missing.length}, wrong replays ${report.wrongReplays.length}, ` +
          `shared ${report.sharedScreenings.length}`,
      );
      if (report.missing.length || report.wrongReplays.length || report.sharedScreenings.length) process.exitCode = 1;
    }
    if (SOAK_SECONDS > 0) {
      const names = queryMix([...(await loadAllLists(undefined, () => undefined)).values()].flat());
      await soak(env, key, names);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (existsSync(LISTS)) await main();
else console.log(`reliability benchmark skipped: ${LISTS} is absent`);
