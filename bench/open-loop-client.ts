/**
 * The client of the open-loop benchmark (open-loop.ts), in a process of its own: requests sent at
 * evenly spaced instants, each timed from the instant it was due. The benchmark's own process holds
 * every list (to make its query mix), and its garbage collections would show up as the server's
 * latency; this process holds the names only.
 *   node dist/bench/open-loop-client.js JOB.json  (prints {samples, lateSends} as JSON)
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

/** What the benchmark asks of one run of this client. */
export interface ClientJob {
  urls: string[];
  key: string;
  /** A JSON file holding the names, an array of strings. */
  namesFile: string;
  rate: number;
  seconds: number;
  offset: number;
}

export interface Sample {
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

/** Sends `rate` requests a second for `seconds` at evenly spaced instants, to the urls in turn. */
export async function openLoop(
  urls: string[],
  key: string,
  names: string[],
  rate: number,
  seconds: number,
  offset: number,
): Promise<{ samples: Sample[]; lateSends: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1024 });
  const targets = urls.map((u) => new URL(u));
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const samples: Sample[] = [];
  const lateSends: number[] = [];
  let sent = 0;
  let done = 0;
  const start = performance.now() + 20;
  return new Promise((resolveRun) => {
    const send = (i: number, due: number) => {
      const target = targets[i % targets.length]!;
      const body = JSON.stringify({ name: names[(offset + i) % names.length] });
      lateSends.push(performance.now() - due);
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
            if (SLOW_LOG && latency > 15) logSlow(performance.timeOrigin + due, latency, timing);
            samples.push({
              latency,
              status: res.statusCode ?? 0,
              ...(stages ? { stages } : {}),
            });
            if (++done === total) {
              agent.destroy();
              resolveRun({ samples, lateSends });
            }
          });
        },
      );
      req.on('error', () => {
        samples.push({ latency: performance.now() - due, status: 0 });
        if (++done === total) {
          agent.destroy();
          resolveRun({ samples, lateSends });
        }
      });
      req.end(body);
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) {
        send(sent, start + sent * interval);
        sent++;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
    };
    setTimeout(tick, 20);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ClientJob;
  const names = JSON.parse(readFileSync(job.namesFile, 'utf8')) as string[];
  const result = await openLoop(job.urls, job.key, names, job.rate, job.seconds, job.offset);
  process.stdout.write(JSON.stringify(result));
}
