/**
 * What the HTTP benchmarks share: arguments, the command line run as a child process, a server's
 * readiness, CPU time from /proc, autocannon as a promise, and a steady interactive load.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { type Sample, spawnClient } from './open-loop-client.js';

export const LISTS = resolve(process.cwd(), '../shared/data/lists');

/** `--name=N` from the command line, or the fallback. */
export function numberArg(name: string, fallback: number): number {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.split('=')[1]) : fallback;
}

/** Runs `sanctions <args>` (the build at `cliPath`) and returns its output; throws when it fails. */
export function runCli(cliPath: string, env: NodeJS.ProcessEnv, args: string[]): string {
  const result = spawnSync(process.execPath, [cliPath, ...args], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`sanctions ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/** CPU seconds (user + system) from a /proc stat file: of one thread, or of the whole process. */
export function statCpuSeconds(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Waits until the server's /health says the lists are loaded. */
export async function waitForLists(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const body = (await (await fetch(`${url}/health`)).json()) as { data?: { listsReady?: boolean } };
      if (body.data?.listsReady) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become ready');
}

export function runAutocannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolvePromise, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolvePromise(result)));
  });
}

/** Syncs the lists into the data directory `env` points at, and creates an enterprise organization with a key. */
export function prepareServerData(cliPath: string, env: NodeJS.ProcessEnv): string {
  runCli(cliPath, env, ['lists', 'sync', '--from', LISTS, '--json']);
  runCli(cliPath, env, ['orgs', 'create', '--slug', 'bench', '--name', 'Bench', '--tier', 'enterprise', '--json']);
  runCli(cliPath, env, ['users', 'add', '--org', 'bench', '--email', 'bench@example.test', '--json']);
  return (
    JSON.parse(
      runCli(cliPath, env, ['keys', 'create', '--org', 'bench', '--user', 'bench@example.test', '--json']),
    ) as { key: string }
  ).key;
}

/** The environment of a benchmarked `sanctions serve`: SQLite in `dataDir`, no start-up sync, no per-key limit. */
export function serverEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    LIST_SYNC_ON_START: 'false',
    // The benchmarks measure the service, not the per-key limit of 60 a minute.
    RATE_LIMIT_PER_MINUTE: '10000000',
    PUBLIC_RATE_LIMIT_PER_MINUTE: '10000000',
  };
  delete env.DATABASE_URL;
  return env;
}

/** The 99th percentile of `latencies` (ms); 0 for none. */
export function p99(latencies: number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

/** A stretch of a steady load: its requests are those due from start to end(). */
export interface LoadPhase {
  end(): void;
  /** The latencies (ms, from each request's due instant) of the phase's requests; after stop(). */
  latencies(): number[];
}

/**
 * An analyst's interactive load beside a background job: POST /v1/screen sent at `rate` a second at
 * evenly spaced instants (whatever the answers' pace), by the open-loop client in one process of its
 * own from start to stop() (a benchmark's process holding every list would count its own
 * collections, and a client started per phase its first connection). phase() marks the stretches
 * compared: idle, then during the background job.
 */
export function steadyLoad(url: string, key: string, names: string[], rate: number) {
  const folder = mkdtempSync(join(tmpdir(), 'bench-steady-'));
  const namesFile = join(folder, 'names.json');
  writeFileSync(namesFile, JSON.stringify(names));
  const client = spawnClient({ urls: [url], key, namesFile, rate, seconds: 0, offset: 0 });
  const epochNow = () => performance.timeOrigin + performance.now();
  let samples: Sample[] = [];
  return {
    phase(): LoadPhase {
      const from = epochNow();
      let to = Infinity;
      return {
        end: () => {
          to = epochNow();
        },
        latencies: () => samples.filter((s) => s.dueAt >= from && s.dueAt < to).map((s) => s.latency),
      };
    },
    async stop(): Promise<void> {
      client.stop();
      samples = (await client.result.finally(() => rmSync(folder, { recursive: true, force: true }))).samples;
    },
  };
}

export interface ServerNode {
  proc: ChildProcess;
  url: string;
}

/**
 * `node args...` in a process of its own; resolves once a line of its standard output is the JSON
 * `{"msg": listening, "url": ...}`. BENCH_SERVER_STDOUT names a file that gets a copy of that output
 * (the log, a GC trace).
 */
export async function spawnListening(args: string[], env: NodeJS.ProcessEnv, listening: string): Promise<ServerNode> {
  const proc = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolveUrl, reject) => {
    proc.once('exit', (code) => reject(new Error(`${args.at(-1)} exited (${code}) before listening`)));
    const copy = process.env.BENCH_SERVER_STDOUT;
    createInterface({ input: proc.stdout! }).on('line', (text) => {
      if (copy) appendFileSync(copy, `${text}\n`);
      try {
        const line = JSON.parse(text) as { msg?: string; url?: string };
        if (line.msg === listening && line.url) resolveUrl(line.url);
      } catch {
        // not a log line
      }
    });
  });
  return { proc, url };
}

/**
 * `sanctions serve` from the build at `cliPath`, on a free port; resolves once its lists are loaded.
 * BENCH_SERVER_NODE_ARGS passes node flags to it (e.g. "--max-semi-space-size=32" or "--trace-gc").
 */
export async function startServer(cliPath: string, env: NodeJS.ProcessEnv): Promise<ServerNode> {
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const node = await spawnListening(
    [...nodeArgs, cliPath, 'serve'],
    { ...env, PORT: '0', LOG_LEVEL: 'info' },
    'sanctions screening service listening',
  );
  await waitForLists(node.url, 180_000);
  return node;
}

export async function stopServer(node: ServerNode): Promise<void> {
  if (node.proc.exitCode !== null) return;
  const exited = new Promise((resolveExit) => node.proc.once('exit', resolveExit));
  node.proc.kill('SIGTERM');
  await exited;
}
