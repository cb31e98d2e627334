/**
 * Crash safety and several nodes, with real server processes: a server killed (SIGKILL) after it
 * committed an alert and while it was sending the webhook delivers it after a restart; two servers
 * on one PostgreSQL database never attempt one delivery twice at once and raise each alert once.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createContext } from '../../src/start/context.js';
import {
  ENGINES,
  type SeededOrg,
  activateRecords,
  person,
  sampleRecords,
  seedOrg,
  testEnv,
} from '../helpers/harness.js';
import { type Receiver, startReceiver } from './receiver.js';

const SECRET = 'process-secret-0123456789';
const runningFromSource = fileURLToPath(import.meta.url).endsWith('.ts');

/** A log line of a server process (pino JSON). */
type LogLine = Record<string, unknown> & { msg?: string };

interface Child {
  proc: ChildProcess;
  url: string;
  /**
   * Resolves with the first log line, past or future, that `match` accepts: the test waits on what
   * the server says it did, not for a time. Fails when the process exits first or after `timeoutMs`.
   */
  logged(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
}

function startServerProcess(env: Record<string, string>): Promise<Child> {
  const args = runningFromSource ? ['--import', 'tsx', 'src/start/server.ts'] : ['dist/src/start/server.js'];
  const proc = spawn(process.execPath, args, {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<{ match: (line: LogLine) => boolean; settle: (line?: LogLine) => void }>();
  let exited = false;
  proc.on('exit', () => {
    exited = true;
    for (const w of waiters) w.settle();
  });
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      return; // not a log line
    }
    lines.push(line);
    for (const w of waiters) if (w.match(line)) w.settle(line);
  });
  proc.stderr!.resume();
  const logged = (match: (line: LogLine) => boolean, timeoutMs = 20_000) => {
    const seen = lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      const waiter = {
        match,
        settle: (line?: LogLine) => {
          waiters.delete(waiter);
          clearTimeout(timer);
          if (line) resolve(line);
          else reject(new Error('the server process exited before logging what the test waits for'));
        },
      };
      const timer = setTimeout(() => waiter.settle(), timeoutMs);
      if (exited) return waiter.settle();
      waiters.add(waiter);
    });
  };
  return logged((l) => l.msg === 'sanctions screening service listening' && typeof l.url === 'string').then((line) => ({
    proc,
    url: line.url as string,
    logged,
  }));
}

/** A server process once it has loaded the lists (it loads them in the background after it starts listening). */
async function startReadyServer(env: Record<string, string>): Promise<Child> {
  const child = await startServerProcess(env);
  await child.logged((l) => l.msg === 'lists loaded');
  return child;
}

async function call(child: Child, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(child.url + path, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { data?: Record<string, unknown> };
  return { status: res.status, data: json.data ?? {} };
}

/** The log line of a recorded delivery attempt that delivered `id` (any id when none is given). */
const delivered = (id?: string) => (l: LogLine) =>
  l.msg === 'webhook attempt' && l.state === 'delivered' && (id === undefined || l.delivery === id);

const processEnv = {
  LIST_RELOAD_INTERVAL: '200ms',
  WEBHOOK_TIMEOUT: '1s',
  WEBHOOK_POLL_INTERVAL: '100ms',
  WEBHOOK_RETRY_DELAYS: '100ms,200ms',
};

for (const { engine, skip } of ENGINES) {
  describe(`server processes (${engine})`, { skip }, () => {
    const children: ChildProcess[] = [];
    const receivers: Receiver[] = [];
    const cleanups: (() => Promise<void>)[] = [];
    // Each test tidies up at its end: Kysely's migrator looks for its own tables in every schema of
    // the database, so a second test schema must not be migrated while the first still exists.
    afterEach(async () => {
      for (const c of children.splice(0)) {
        if (c.exitCode === null && c.signalCode === null) {
          c.kill('SIGKILL');
          await new Promise((r) => c.once('exit', r));
        }
      }
      for (const r of receivers.splice(0)) await r.close();
      for (const c of cleanups.splice(0)) await c();
    });

    const prepare = async () => {
      const env = testEnv(engine, processEnv);
      const ctx = await createContext(env.config);
      cleanups.push(async () => {
        await ctx.close();
        await env.cleanup();
      });
      return { env, ctx };
    };
    const monitorVia = async (child: Child, org: SeededOrg, name: string) => {
      const s = await call(child, 'POST', '/v1/screen', org.key, { name });
      assert.equal(s.status, 200);
      const m = await call(child, 'POST', '/v1/monitors', org.key, { screeningId: s.data.screeningId });
      assert.equal(m.status, 201);
    };

    it('delivers after a restart when the server was killed between commit and a completed send', async () => {
      let killed = false;
      const receiver = await startReceiver(SECRET, () => (killed ? { status: 200 } : { hang: true }));
      receivers.push(receiver);
      const { env, ctx } = await prepare();
      const org = await seedOrg(ctx, { webhookUrl: receiver.url, webhookSecret: SECRET });
      const base = sampleRecords();
      await activateRecords(ctx, 'us_ofac', base.us_ofac);
      const first: Child = await startReadyServer(env.env);
      children.push(first.proc);
      await monitorVia(first, org, 'Ivan Petrovich Sidorov');
      await activateRecords(ctx, 'us_ofac', [...base.us_ofac, person('us_ofac', '2001', 'SIDOROV, Ivan Petrovich')]);
      const [got] = await receiver.waitFor(1, 15_000);
      first.proc.kill('SIGKILL');
      killed = true;
      await new Promise((r) => first.proc.once('exit', r));
      const row = await ctx.database.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
      assert.equal(row.state, 'pending', 'committed, not delivered');
      assert.equal(row.id, got!.deliveryId);

      const second = await startServerProcess(env.env);
      children.push(second.proc);
      const all = await receiver.waitFor(2, 15_000);
      assert.equal(all[1]!.deliveryId, got!.deliveryId, 'the same delivery id: the receiver can drop the duplicate');
      assert.ok(all.every((r) => r.signatureValid));
      assert.equal(all[1]!.body, all[0]!.body);
      // The receiver answered; the server records the attempt after that, and says so in its log.
      await second.logged(delivered(got!.deliveryId));
      assert.equal(
        (await ctx.database.db.selectFrom('webhook_deliveries').select('state').executeTakeFirstOrThrow()).state,
        'delivered',
      );
      const alerts = await ctx.database.db.selectFrom('alerts').select('id').execute();
      assert.equal(alerts.length, 1, 'the restarted server did not raise the alert again');
    });

    it(
      'two servers on one PostgreSQL database raise each alert once and never attempt a delivery twice at once',
      { skip: engine !== 'postgres' ? 'needs PostgreSQL (several nodes)' : false },
      async () => {
        const receiver = await startReceiver(SECRET, () => ({ status: 200, delayMs: 300 }));
        receivers.push(receiver);
        const { env, ctx } = await prepare();
        const org = await seedOrg(ctx, { webhookUrl: receiver.url, webhookSecret: SECRET });
        const base = sampleRecords();
        await activateRecords(ctx, 'us_ofac', base.us_ofac);
        // Started one after the other: two processes migrating one fresh schema at once race in Kysely's
        // migration lock (reported to the lead); the nodes then run side by side.
        const nodes = [await startReadyServer(env.env), await startReadyServer(env.env)];
        for (const n of nodes) children.push(n.proc);
        const names = [
          'Anna Kowalczyk',
          'Boris Lebedev',
          'Carla Mendes',
          'Dmitri Orlov',
          'Elena Vasquez',
          'Farid Haddad',
        ];
        for (const [i, name] of names.entries()) await monitorVia(nodes[i % 2]!, org, name);
        await activateRecords(ctx, 'us_ofac', [
          ...base.us_ofac,
          ...names.map((n, i) => person('us_ofac', `30${i}`, n)),
        ]);
        await receiver.waitFor(names.length, 20_000);
        // Every delivery recorded as delivered (by whichever node sent it): none is pending or claimed
        // any more, so no node can send one again and every attempt made is in the table.
        const ids = [...new Set(receiver.received.map((r) => r.deliveryId))];
        await Promise.all(ids.map((id) => Promise.any(nodes.map((n) => n.logged(delivered(id))))));
        assert.equal(receiver.maxConcurrentPerDelivery, 1);
        assert.equal(receiver.received.length, names.length, 'each delivery sent exactly once');
        assert.equal(new Set(receiver.received.map((r) => r.deliveryId)).size, names.length);
        assert.ok(receiver.received.every((r) => r.signatureValid));
        const alerts = await ctx.database.db.selectFrom('alerts').select('id').execute();
        assert.equal(alerts.length, names.length, 'each alert raised once by one of the two nodes');
        const claimedBy = await ctx.database.db.selectFrom('webhook_attempts').select('delivery_id').execute();
        assert.equal(claimedBy.length, names.length);
      },
    );
  });
}
