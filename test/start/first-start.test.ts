/**
 * Starting from nothing (issue 26): the server and the admin commands create the data directory they
 * use and say which it is; the SQLite server lock is taken atomically, so processes starting at the same
 * instant (on a free lock, or on one left by a dead process) end with exactly one holder.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type ServerProcess, spawnServer } from '../../bench/child-server.js';
import { serverLockPath } from '../../src/start/operations.js';
import { ENGINES, testEnv } from '../helpers/harness.js';

const scratch: string[] = [];
after(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A folder that does not exist yet, two levels below a fresh temporary one. */
function missingDataDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'sanctions-fresh-'));
  scratch.push(root);
  return join(root, 'clone', 'data');
}

for (const { engine, skip } of ENGINES) {
  describe(`a fresh machine: the data directory is created (${engine})`, { skip }, () => {
    it('an admin command creates DATA_DIR and names it', async () => {
      const base = testEnv(engine);
      try {
        const dataDir = missingDataDir();
        const result = spawnSync(process.execPath, ['dist/src/cli/main.js', 'migrate', '--json'], {
          env: { PATH: process.env.PATH ?? '', ...base.env, DATA_DIR: dataDir },
          encoding: 'utf8',
        });
        assert.equal(result.status, 0, result.stderr);
        assert.ok(existsSync(dataDir), 'DATA_DIR exists after the command');
        assert.match(result.stderr, new RegExp(`created the data directory ${dataDir.replace(/[/.]/g, '\\$&')}`));
        assert.ok(Array.isArray((JSON.parse(result.stdout) as { applied: unknown }).applied));
        if (engine === 'sqlite') assert.ok(existsSync(join(dataDir, 'sanctions.db')), 'the database is in DATA_DIR');
        // A second run finds the folder and says nothing about it.
        const again = spawnSync(process.execPath, ['dist/src/cli/main.js', 'migrate', '--json'], {
          env: { PATH: process.env.PATH ?? '', ...base.env, DATA_DIR: dataDir },
          encoding: 'utf8',
        });
        assert.equal(again.status, 0, again.stderr);
        assert.doesNotMatch(again.stderr, /created the data directory/);
      } finally {
        await base.cleanup();
      }
    });

    it('the server creates DATA_DIR, logs it, and serves', async () => {
      const base = testEnv(engine);
      const dataDir = missingDataDir();
      let server: ServerProcess | undefined;
      try {
        server = await spawnServer({ ...base.env, DATA_DIR: dataDir });
        assert.ok(existsSync(dataDir));
        const listening = server.lines.find((l) => l.msg === 'sanctions screening service listening');
        assert.equal(listening?.dataDir, dataDir);
        assert.ok(server.lines.some((l) => l.msg === 'created the data directory' && l.folder === dataDir));
        const health = await fetch(`${server.url}/health`);
        assert.equal(health.status, 200);
        if (engine === 'sqlite') assert.ok(existsSync(serverLockPath(join(dataDir, 'sanctions.db'))));
      } finally {
        await server?.kill9();
        await base.cleanup();
      }
    });
  });
}

/**
 * `count` processes that load the lock code, say so, then on one signal (a line on their stdin, sent
 * to all once all are loaded) try to take the lock on `databaseFile`, print whether they got it, and
 * keep it (alive) until their stdin ends.
 */
async function race(databaseFile: string, count: number): Promise<string[]> {
  const operations = pathToFileURL(join(process.cwd(), 'dist/src/start/operations.js')).href;
  const script = `
    const { acquireServerLock } = await import(${JSON.stringify(operations)});
    process.stdout.write('ready\\n');
    process.stdin.once('data', () => {
      let answer;
      try { acquireServerLock(${JSON.stringify(databaseFile)}, new Date()); answer = 'held'; }
      catch (error) { answer = /another server/.test(error.message) ? 'refused' : 'error: ' + error.message; }
      process.stdout.write(answer + '\\n');
    });
    process.stdin.on('end', () => process.exit(0));
  `;
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const lines = children.map((child) => {
    const waiting: ((line: string) => void)[] = [];
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let cut;
      while ((cut = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 1);
        waiting.shift()?.(line);
      }
    });
    child.on('exit', () => waiting.splice(0).forEach((w) => w('exited')));
    return () => new Promise<string>((resolve) => waiting.push(resolve));
  });
  const ready = await Promise.all(lines.map((next) => next()));
  assert.deepEqual(ready, Array<string>(count).fill('ready'));
  const answered = Promise.all(lines.map((next) => next()));
  for (const child of children) child.stdin.write('go\n');
  const answers = await answered;
  await Promise.all(
    children.map((child) => {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.stdin.end();
      return exited;
    }),
  );
  return answers;
}

/** The pid of a process that has exited (its lock is stale). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the SQLite server lock is taken atomically', () => {
  it('processes starting at the same instant on a free lock: exactly one holds it', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = missingDataDir();
      const answers = await race(join(dir, 'sanctions.db'), 4);
      assert.deepEqual([...answers].sort(), ['held', 'refused', 'refused', 'refused'], `round ${round}`);
    }
  });

  it('processes starting at the same instant on a lock left by a dead process: exactly one takes it over', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = missingDataDir();
      const databaseFile = join(dir, 'sanctions.db');
      mkdirSync(dir, { recursive: true });
      const stale = { pid: deadPid(), host: hostname(), startedAt: '2020-01-01T00:00:00.000Z' };
      writeFileSync(serverLockPath(databaseFile), JSON.stringify(stale));
      const answers = await race(databaseFile, 4);
      assert.deepEqual([...answers].sort(), ['held', 'refused', 'refused', 'refused'], `round ${round}`);
      assert.ok(!existsSync(`${serverLockPath(databaseFile)}.takeover`), 'no takeover guard is left behind');
    }
  });

  it('two servers started at once on one SQLite file: one serves, the other stops and names the holder', async () => {
    const base = testEnv('sqlite');
    const dataDir = missingDataDir();
    const env = { ...base.env, DATA_DIR: dataDir };
    const started = await Promise.allSettled([spawnServer(env), spawnServer(env)]);
    try {
      const serving = started.filter((s): s is PromiseFulfilledResult<ServerProcess> => s.status === 'fulfilled');
      const stopped = started.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
      assert.equal(serving.length, 1, 'exactly one server serves');
      assert.equal(stopped.length, 1);
      const holder = JSON.parse(readFileSync(serverLockPath(join(dataDir, 'sanctions.db')), 'utf8')) as { pid: number };
      assert.equal(holder.pid, serving[0]?.value.proc.pid);
      assert.match(String((stopped[0]?.reason as Error).message), new RegExp(`another server \\(pid ${holder.pid}`));
    } finally {
      for (const s of started) if (s.status === 'fulfilled') await s.value.kill9();
      await base.cleanup();
    }
  });
});
