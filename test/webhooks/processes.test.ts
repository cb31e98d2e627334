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

interface Child {
  proc: ChildProcess;
  url: string;
}

function startServerProcess(env: Record<string, string>): Promise<Child> {
  const args = runningFromSource ? ['--import', 'tsx', 'src/start/server.ts'] : ['dist/src/start/server.js'];
  const proc = spawn(process.execPath, args, {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '', ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server process did not start')), 20_000);
    proc.on('exit', (code) => reject(new Error(`server process exited with ${code}`)));
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'sanctions screening service listening' && entry.url) {
          clearTimeout(timer);
          resolve({ proc, url: entry.url });
        }
      } catch {
        // not a log line
      }
    });
    proc.stderr!.resume();
  });
}

async function call(child: Child, method: string, path: string, key: string, body?: unknown) {
  for (let i = 0; i < 100; i++) {
    const res = await fetch(child.url + path, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await res.json()) as { data?: Record<string, unknown> };
    // The new process loads its lists in the background: wait for them.
    if (res.status === 503) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    return { status: res.status, data: json.data ?? {} };
  }
  throw new Error('lists never loaded in the server process');
}

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
      const first: Child = await startServerProcess(env.env);
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
      for (let i = 0; i < 50; i++) {
        const d = await ctx.database.db.selectFrom('webhook_deliveries').select('state').executeTakeFirstOrThrow();
        if (d.state === 'delivered') break;
        await new Promise((r) => setTimeout(r, 100));
      }
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
        const nodes = [await startServerProcess(env.env), await startServerProcess(env.env)];
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
        // Give a duplicate the chance to show up.
        await new Promise((r) => setTimeout(r, 1000));
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
