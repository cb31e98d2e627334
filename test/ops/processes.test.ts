/**
 * Operating real server processes on SQLite (issue 17): SIGTERM drains (a request under way when the
 * signal comes is answered, new connections are refused, leases and the server lock are given back,
 * exit 0); a backup taken while screening restores to a working server; restore refuses a database a
 * server is using.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callJson, spawnReadyServer } from '../../bench/child-server.js';
import { createContext } from '../../src/start/context.js';
import { serverLockPath } from '../../src/start/operations.js';
import { type TestEnv, seedOrg, testEnv } from '../helpers/harness.js';
import { loadSampleLists } from '../helpers/http-assert.js';

function cli(env: Record<string, string>, args: string[]) {
  const result = spawnSync(process.execPath, ['dist/src/cli/main.js', ...args, '--json'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { status: result.status, json: result.stdout ? (JSON.parse(result.stdout) as Record<string, unknown>) : {} };
}

describe('server processes: drain, backup, restore (sqlite)', () => {
  let env: TestEnv;
  let key: string;
  const extraDirs: string[] = [];
  before(async () => {
    env = testEnv('sqlite', { RATE_LIMIT_PER_MINUTE: '10000000', SHUTDOWN_TIMEOUT: '20s' });
    const ctx = await createContext(env.config);
    key = (await seedOrg(ctx, { tier: 'enterprise' })).key;
    await loadSampleLists(ctx);
    await ctx.close();
  });
  after(async () => {
    for (const d of extraDirs) rmSync(d, { recursive: true, force: true });
    await env?.cleanup();
  });

  it('SIGTERM: the request under way is answered, new connections are refused, leases and lock given back, exit 0', async () => {
    const server = await spawnReadyServer(env.env);
    const { hostname, port } = new URL(server.url);
    assert.ok(existsSync(serverLockPath(env.config.database.url)), 'the server holds its lock');
    // A request whose body is still arriving when SIGTERM comes.
    const body = JSON.stringify({ name: 'Rustam Karimov' });
    const socket = connect(Number(port), hostname);
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let answer = '';
    socket.on('data', (c: Buffer) => (answer += c.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.write(
      `POST /v1/screen HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    server.proc.kill('SIGTERM');
    await server.logged((l) => l.msg === 'shutting down');
    const refused = await callJson(server.url, 'GET', '/health/live');
    assert.equal(refused.status, 0, 'a new connection is not accepted while draining');
    socket.write(body.slice(5));
    await closed;
    assert.match(answer, /^HTTP\/1\.1 200 /, answer.slice(0, 200));
    assert.match(answer, /"screeningId":"scr_/);
    const exit = await server.exited;
    if (exit.code !== 0) console.log(server.lines.map((l) => `${String(l.time)} ${String(l.msg)}`).join('\n'));
    assert.deepEqual(exit, { code: 0, signal: null });
    const drained = await server.logged((l) => l.msg === 'drained');
    assert.equal(typeof drained.leases, 'number');
    assert.ok(!existsSync(serverLockPath(env.config.database.url)), 'the lock is removed');
    const ctx = await createContext(env.config, { command: true });
    try {
      assert.deepEqual(
        await ctx.database.db.selectFrom('job_locks').selectAll().execute(),
        [],
        'no lease is left held',
      );
    } finally {
      await ctx.close();
    }
  });

  it('a backup taken while screening restores to a working server; restore refuses a database in use', async () => {
    const server = await spawnReadyServer(env.env);
    const acked: string[] = [];
    let running = true;
    const load = Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; running; i++) {
          const res = await callJson(server.url, 'POST', '/v1/screen', { key, body: { name: `Person ${w} ${i}` } });
          assert.equal(res.status, 200);
          acked.push(res.body.data.screeningId as string);
        }
      }),
    );
    while (acked.length < 50) await new Promise((r) => setImmediate(r));
    const ackedBefore = [...acked];
    const dir = mkdtempSync(join(tmpdir(), 'sanctions-backup-'));
    extraDirs.push(dir);
    const file = join(dir, 'backup.db');
    const backup = cli(env.env, ['backup', '--to', file]);
    const ackedAfterBackup = acked.length;
    running = false;
    await load;
    assert.equal(backup.status, 0, JSON.stringify(backup.json));
    assert.ok(Number(backup.json.bytes) > 0);
    assert.ok(
      ackedAfterBackup > ackedBefore.length || acked.length > ackedBefore.length,
      'screening went on during the backup',
    );

    const refused = cli(env.env, ['restore', '--from', file]);
    assert.equal(refused.status, 1);
    assert.equal((refused.json.error as { code: string }).code, 'CONFLICT');
    server.proc.kill('SIGTERM');
    assert.equal((await server.exited).code, 0);

    // Restored into a fresh data directory, as on a new machine.
    const restoredDir = mkdtempSync(join(tmpdir(), 'sanctions-restored-'));
    extraDirs.push(restoredDir);
    const restoredEnv = { ...env.env, DATA_DIR: restoredDir };
    const restore = cli(restoredEnv, ['restore', '--from', file]);
    assert.equal(restore.status, 0, JSON.stringify(restore.json));
    assert.ok((restore.json.migrations as string[]).includes('0008_operations'));
    const restored = await spawnReadyServer(restoredEnv);
    try {
      for (const id of ackedBefore) {
        const res = await callJson(restored.url, 'GET', `/v1/screenings/${id}`, { key });
        assert.equal(res.status, 200, `screening ${id} acknowledged before the backup is in it`);
      }
      const fresh = await callJson(restored.url, 'POST', '/v1/screen', { key, body: { name: 'Rustam Karimov' } });
      assert.equal(fresh.status, 200);
      assert.equal(fresh.body.data.riskLevel, 'high', 'the lists came with the backup');
      const ready = await callJson(restored.url, 'GET', '/health/ready');
      assert.equal(ready.status, 200);
    } finally {
      restored.proc.kill('SIGTERM');
      await restored.exited;
    }
  });
});
