/**
 * The kill -9 rounds of the reliability suite (issue 17, 6a and 6b), shared by the tests (a few
 * rounds, on every `npm test`) and `dist/bench/reliability.js` (as many rounds as asked).
 */
import { type Json, type ServerProcess, callJson, spawnReadyServer } from './child-server.js';

const NAMES = [
  'Rustam Karimov',
  'Emily Johnson',
  'Zarya Shipping',
  'Blue Horizon Trading',
  'Margaret Thompson',
  'Karimov Rustam Alievich',
];

export interface CrashReport {
  rounds: number;
  kills: number;
  acknowledged: number;
  unacknowledged: number;
  /** Acknowledged screenings not found after the restarts. */
  missing: string[];
  /** Keys whose replay answered another screening (or failed). */
  wrongReplays: string[];
  /** Screening ids answered to more than one key. */
  sharedScreenings: string[];
}

interface Ack {
  key: string;
  name: string;
  screeningId: string;
}

/**
 * Rounds of: start the server, `concurrency` clients POST /screen with fresh Idempotency-Keys, and
 * once `acksPerRound` answers came back, SIGKILL while the others are in flight. Then one more
 * server checks every acknowledged screening and replays every key.
 */
export async function runCrashRounds(options: {
  env: Record<string, string>;
  key: string;
  rounds: number;
  acksPerRound: number;
  concurrency: number;
  log?: (line: string) => void;
  /** How long a server may take to load its lists (the real lists take longer than the test sample). */
  readyTimeoutMs?: number;
}): Promise<CrashReport> {
  const acks: Ack[] = [];
  const cut: { key: string; name: string }[] = [];
  let kills = 0;
  for (let round = 0; round < options.rounds; round++) {
    const server = await spawnReadyServer(options.env, options.readyTimeoutMs);
    let roundAcks = 0;
    let killing: Promise<void> | undefined;
    const client = async (worker: number) => {
      for (let i = 0; ; i++) {
        const key = `r${round}-w${worker}-${i}`;
        const name = NAMES[(worker + i) % NAMES.length]!;
        const res = await callJson(server.url, 'POST', '/v1/screen', {
          key: options.key,
          body: { name },
          headers: { 'idempotency-key': key },
        });
        if (res.status === 200) {
          acks.push({ key, name, screeningId: res.body.data.screeningId as string });
          if (++roundAcks >= options.acksPerRound && !killing) killing = server.kill9();
        } else {
          cut.push({ key, name });
          if (res.status === 0) return;
          throw new Error(`POST /screen answered ${res.status}: ${JSON.stringify(res.body)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, (_, w) => client(w)));
    await killing;
    kills++;
    options.log?.(`round ${round + 1}: ${roundAcks} acknowledged, then kill -9`);
  }

  const server = await spawnReadyServer(options.env, options.readyTimeoutMs);
  try {
    const report: CrashReport = {
      rounds: options.rounds,
      kills,
      acknowledged: acks.length,
      unacknowledged: cut.length,
      missing: [],
      wrongReplays: [],
      sharedScreenings: [],
    };
    const owner = new Map<string, string>();
    for (const ack of acks) owner.set(ack.screeningId, ack.key);
    await inParallel(acks, 8, async (ack) => {
      const stored = await callJson(server.url, 'GET', `/v1/screenings/${ack.screeningId}`, { key: options.key });
      if (stored.status !== 200 || stored.body.data.query !== ack.name) report.missing.push(ack.screeningId);
      const replay = await replayOf(server, options.key, ack.key, ack.name);
      if (
        replay.status !== 200 ||
        replay.headers.get('idempotency-replayed') !== 'true' ||
        replay.body.data.screeningId !== ack.screeningId
      ) {
        report.wrongReplays.push(`${ack.key}: ${replay.status} ${JSON.stringify(replay.body).slice(0, 200)}`);
      }
    });
    // A key cut off by the kill either committed (its replay is its own screening, never another
    // key's), died running (409 until it is free again) or executes anew.
    await inParallel(cut, 8, async (c) => {
      const replay = await replayOf(server, options.key, c.key, c.name);
      if (replay.status === 200) {
        const id = replay.body.data.screeningId as string;
        const other = owner.get(id);
        if (other !== undefined && other !== c.key) report.sharedScreenings.push(`${id}: ${other} and ${c.key}`);
        owner.set(id, c.key);
      } else if (replay.status !== 409) {
        report.wrongReplays.push(`${c.key} (cut off): ${replay.status}`);
      }
    });
    return report;
  } finally {
    await server.kill9();
  }
}

function replayOf(server: ServerProcess, apiKey: string, key: string, name: string): Promise<Json> {
  return callJson(server.url, 'POST', '/v1/screen', {
    key: apiKey,
    body: { name },
    headers: { 'idempotency-key': key },
  });
}

export async function inParallel<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}
