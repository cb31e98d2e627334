/**
 * The client of the open-loop benchmark (open-loop.ts), in a process of its own: requests sent at
 * evenly spaced instants, each timed from the instant it was due. The benchmark's own process holds
 * every list (to make its query mix), and its garbage collections would show up as the server's
 * latency; this process holds the names only.
 *   node dist/bench/open-loop-client.js JOB.json  (prints {samples, lateSends} as JSON)
 * With `seconds` 0 it sends until its standard input ends (steadyLoad in server-process.ts).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What the benchmark asks of one run of this client. */
export interface ClientJob {
  urls: string[];
  key: string;
  /** A JSON file holding the names, an array of strings. */
  namesFile: string;
  rate: number;
  /** How long to send; 0: until standard input ends. */
  seconds: number;
  offset: number;
  /**
   * Seconds sent at the same rate before `seconds`, whose answers are not kept: the server (its
   * group commits, its young generation, its compiled code) and this client settle to the rate
   * first, so the figures are of a steady load, not of a step from another rate to this one.
   */
  warmupSeconds?: number;
}

export interface Sample {
  /** The instant the request was due, ms since the epoch. */
  dueAt: number;
  /** From the instant the request was due to the end of its answer, ms. */
  latency: number;
  status: number;
  /** Server-Timing stages, ms (total included), when the server sent them. */
  stages?: Record<string, number>;
}

/**
 * BENCH_SLOW_LOG names a file that gets a line for every answer slower than 15 ms: its due instant
 * (ms since the epoch, to line up with the server's own traces), its latency and its Server-Timing.
 */
const SLOW_LOG = process.env.BENCH_SLOW_LOG;

function logSlow(dueAt: number, latency: number, timing: string | string[] | undefined): void {
  appendFileSync(SLOW_LOG!, `${dueAt.toFixed(1)} ${latency.toFixed(1)} ${String(timing).replace(/ /g, '')}\n`);
}

function parseServerTiming(header: string | undefined): Record<string, number> | undefined {
  if (!header) return undefined;
  const stages: Record<string, number> = {};
  for (const part of header.split(',')) {
    const match = /^\s*([\w-]+);dur=([\d.]+)/.exec(part);
    if (match) stages[match[1]!] = Number(match[2]);
  }
  return stages;
}

/**
 * Sends `rate` requests a second at evenly spaced instants, to the urls in turn: for `seconds`, or
 * (seconds 0) until `stopped` resolves.
 */
export async function openLoop(
  urls: string[],
  key: string,
  names: string[],
  rate: number,
  seconds: number,
  offset: number,
  stopped?: Promise<void>,
  warmupSeconds = 0,
): Promise<{ samples: Sample[]; lateSends: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const targets = urls.map((u) => new URL(u));
  const warmup = Math.round(rate * warmupSeconds);
  let total = seconds > 0 ? warmup + Math.round(rate * seconds) : Infinity;
  const interval = 1000 / rate;
  const samples: Sample[] = [];
  const lateSends: number[] = [];
  let sent = 0;
  let done = 0;
  // Time for the metronome thread to start before the first instant.
  const start = performance.now() + 100;
  // The warm-up's requests are sent and answered like the others, and left out of the figures.
  const kept = (i: number) => i >= warmup;
  return new Promise((resolveRun) => {
    const record = (i: number, sample: Sample) => {
      if (kept(i)) samples.push(sample);
      if (++done === total) {
        agent.destroy();
        resolveRun({ samples, lateSends });
      }
    };
    const send = (i: number, due: number) => {
      const target = targets[i % targets.length]!;
      const body = JSON.stringify({ name: names[(offset + i) % names.length] });
      if (kept(i)) lateSends.push(performance.now() - due);
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: 'POST',
          path: '/v1/screen',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': key },
        },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => {
            const timing = res.headers['server-timing'];
            const stages = parseServerTiming(Array.isArray(timing) ? timing[0] : timing);
            const latency = performance.now() - due;
            if (SLOW_LOG && latency > 15 && kept(i)) logSlow(performance.timeOrigin + due, latency, timing);
            record(i, {
              dueAt: performance.timeOrigin + due,
              latency,
              status: res.statusCode ?? 0,
              ...(stages ? { stages } : {}),
            });
          });
        },
      );
      req.on('error', () => {
        record(i, { dueAt: performance.timeOrigin + due, latency: performance.now() - due, status: 0 });
      });
      req.end(body);
    };
    const metronome = startMetronome(performance.timeOrigin + start, interval, total, (due) => {
      // Every request due by now is sent (several, when this thread was busy as their instants passed).
      while (sent < total && sent <= due) {
        send(sent, start + sent * interval);
        sent++;
      }
    });
    void stopped?.then(() => {
      metronome.stop();
      total = sent;
      if (done === total) {
        agent.destroy();
        resolveRun({ samples, lateSends });
      }
    });
  });
}

/**
 * The instants to send at. Node's timers count whole milliseconds and fire late by up to one (the
 * event loop's clock is a millisecond count), so a client on setTimeout sends most requests up to a
 * millisecond after their instant, and the figures from the due instant carry that on every request:
 * a millisecond is the size of the targets measured here. This worker thread sleeps to each instant
 * with Atomics.wait (a futex with a timeout in nanoseconds) and then posts the request's number; the
 * post wakes the client's event loop at once, whatever its timers. It holds no sockets and no names,
 * only the schedule; a request due while the client's thread is busy is still timed from its instant.
 */
function startMetronome(
  startEpochMs: number,
  interval: number,
  total: number,
  onDue: (index: number) => void,
): { stop: () => void } {
  const control = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(METRONOME, { eval: true, workerData: { startEpochMs, interval, total, control } });
  worker.on('message', onDue);
  return {
    stop: () => {
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
    },
  };
}

const METRONOME = `
const { parentPort, workerData } = require('node:worker_threads');
const { startEpochMs, interval, total, control } = workerData;
const now = () => performance.timeOrigin + performance.now();
for (let i = 0; i < total && Atomics.load(control, 0) === 0; i++) {
  const wait = startEpochMs + i * interval - now();
  if (wait > 0) Atomics.wait(control, 0, 0, wait);
  if (Atomics.load(control, 0) !== 0) break;
  parentPort.postMessage(i);
}
`;

const CLIENT = fileURLToPath(import.meta.url);

/**
 * This client in a child process, on `job` (written beside its names file): `result` resolves with
 * its samples once it has sent for job.seconds, or, with seconds 0, once stop() was called and the
 * last answer is in.
 */
export function spawnClient(job: ClientJob): {
  stop: () => void;
  result: Promise<{ samples: Sample[]; lateSends: number[] }>;
} {
  const jobFile = join(dirname(job.namesFile), `job-${job.rate}-${job.offset}-${Date.now()}.json`);
  writeFileSync(jobFile, JSON.stringify(job));
  const child = spawn(process.execPath, [CLIENT, jobFile], { stdio: ['pipe', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const result = new Promise<number | null>((resolveExit) => child.once('exit', resolveExit)).then((code) => {
    rmSync(jobFile, { force: true });
    if (code !== 0) throw new Error(`the open-loop client exited with ${code}`);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { samples: Sample[]; lateSends: number[] };
  });
  if (job.seconds > 0) child.stdin.end();
  return { stop: () => child.stdin.end(), result };
}

if (process.argv[1] === CLIENT) {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ClientJob;
  const names = JSON.parse(readFileSync(job.namesFile, 'utf8')) as string[];
  const stdinEnds =
    job.seconds > 0
      ? undefined
      : new Promise<void>((resolveEnd) => {
          process.stdin.on('end', resolveEnd).resume();
        });
  const result = await openLoop(
    job.urls,
    job.key,
    names,
    job.rate,
    job.seconds,
    job.offset,
    stdinEnds,
    job.warmupSeconds,
  );
  process.stdout.write(JSON.stringify(result));
}
