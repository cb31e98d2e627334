import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/infra/database.js';
import { registry } from '../../src/infra/metrics.js';
import { DurableSqliteDialect, WalSyncer } from '../../src/infra/sqlite-driver.js';

interface TestDb {
  t: { id: number; v: string };
}

function open(dir: string) {
  const file = join(dir, 'test.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  const syncer = new WalSyncer(`${file}-wal`);
  const db = new Kysely<TestDb>({ dialect: new DurableSqliteDialect(sqlite, syncer) });
  return { file, sqlite, syncer, db };
}

test('the log syncer shares syncs, but never lets a caller ride on a sync that started before it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-driver-'));
  const { db, syncer } = open(dir);
  try {
    await sql`create table t (id integer primary key, v text)`.execute(db);
    const before = syncer.syncs;
    const seen: number[] = [];
    const first = syncer.durable().then(() => seen.push(syncer.syncs - before));
    // Arrive while the first sync runs: both must wait for a second one, and share it.
    const second = syncer.durable().then(() => seen.push(syncer.syncs - before));
    const third = syncer.durable().then(() => seen.push(syncer.syncs - before));
    await Promise.all([first, second, third]);
    assert.deepEqual(seen, [1, 2, 2]);
    assert.equal(syncer.syncs - before, 2);
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('writes settle after a log sync, reads cause none, and concurrent writes share syncs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-driver-'));
  const { db, syncer, file } = open(dir);
  try {
    await sql`create table t (id integer primary key, v text)`.execute(db);
    let syncs = syncer.syncs;
    for (let i = 0; i < 5; i++) await db.selectFrom('t').selectAll().execute();
    assert.equal(syncer.syncs, syncs, 'reads do not sync');

    await db.insertInto('t').values({ id: 1, v: 'one' }).execute();
    assert.equal(syncer.syncs, syncs + 1, 'an autocommitted write waited for one sync');
    syncs = syncer.syncs;

    await db.transaction().execute(async (trx) => {
      for (let i = 2; i <= 4; i++)
        await trx
          .insertInto('t')
          .values({ id: i, v: String(i) })
          .execute();
      assert.equal(syncer.syncs, syncs, 'nothing is synced inside a transaction');
    });
    assert.equal(syncer.syncs, syncs + 1, 'the commit waited for one sync');
    syncs = syncer.syncs;

    // A RETURNING statement is read by the driver like a select, but it writes.
    const returned = await sql<{ id: number }>`insert into t (id, v) values (5, 'five') returning id`.execute(db);
    assert.equal(returned.rows[0]?.id, 5);
    assert.equal(syncer.syncs, syncs + 1);
    syncs = syncer.syncs;

    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        db
          .insertInto('t')
          .values({ id: 100 + i, v: 'x' })
          .execute(),
      ),
    );
    const used = syncer.syncs - syncs;
    assert.ok(used >= 1 && used < 50, `50 concurrent writes used ${used} syncs`);

    // Everything acknowledged is in the file, read by another connection.
    const other = new SQLite(file, { readonly: true });
    assert.equal((other.prepare('select count(*) as n from t').get() as { n: number }).n, 55);
    other.close();
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('under steady writes the background checkpointer keeps the log from growing without end', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-checkpoint-'));
  const file = join(dir, 'db.sqlite');
  const handle = openDatabase(
    { engine: 'sqlite', url: file, sqliteSynchronous: 'FULL', poolSize: 1 },
    { backgroundCheckpoints: true, checkpointIntervalMs: 50 },
  );
  const db = handle.db as unknown as Kysely<TestDb>;
  try {
    await sql`create table t (id integer primary key, v text)`.execute(db);
    const row = 'x'.repeat(4000);
    let written = 0;
    let largest = 0;
    // A fixed amount of writing, not a fixed time: a loaded machine writes more slowly, not less. The
    // checkpointer brings the log back to its beginning once about 4 MiB of it are copied
    // (RESET_AFTER_FRAMES: by catching up, or here, where writes never pause, by a RESTART), so a
    // working one keeps it near that size, and a log that only grows ends near what was written. On a
    // loaded machine the checkpointer's thread may wait for a core while the writes go on: one CI run
    // saw a log of 11 MiB after 20 MiB written, so 40 MiB are written, and the gap stays clear.
    for (let id = 1; written <= 40 * 1024 * 1024; id++) {
      // Writes keep coming (no quiet moment for a PASSIVE checkpoint to catch up).
      await db.insertInto('t').values({ id, v: row }).execute();
      written += row.length;
      if (id % 50 === 0) largest = Math.max(largest, statSync(`${file}-wal`).size);
    }
    assert.ok(largest < written / 2, `the log reached ${largest} bytes for ${written} bytes written`);
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function lockWaitCount(): Promise<number> {
  const metric = await registry.getSingleMetric('sanctions_sqlite_lock_wait_seconds')!.get();
  const count = metric.values.find((v) => (v as { metricName?: string }).metricName?.endsWith('_count'));
  return count?.value ?? 0;
}

test('a write that meets another connection holding the lock waits on a timer, not on the event loop', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-lock-'));
  const file = join(dir, 'db.sqlite');
  const handle = openDatabase({ engine: 'sqlite', url: file, sqliteSynchronous: 'FULL', poolSize: 1 });
  const db = handle.db as unknown as Kysely<TestDb>;
  const other = new SQLite(file);
  try {
    await sql`create table t (id integer primary key, v text)`.execute(db);
    // Another connection (the checkpointer's RESTART, the admin command line) holds the write lock.
    other.exec('begin immediate');
    const holdMs = 120;
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec('commit');
        resolve();
      }, holdMs),
    );
    // The event loop keeps turning while the writes wait: a 5 ms timer is never held up for long.
    let lateness = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      lateness = Math.max(lateness, now - last - 5);
      last = now;
    }, 5);
    const waitsBefore = await lockWaitCount();
    const started = performance.now();
    const autocommitted = db.insertInto('t').values({ id: 1, v: 'one' }).execute();
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ id: 2, v: 'two' }).execute();
    });
    await Promise.all([autocommitted, transaction, released]);
    clearInterval(ticker);
    const waited = performance.now() - started;
    assert.ok(waited >= holdMs - 5, `the writes waited ${waited.toFixed(0)} ms for a lock held ${holdMs} ms`);
    // SQLite's busy handler would have slept the thread through the whole hold.
    assert.ok(lateness < holdMs / 2, `the event loop was held up ${lateness.toFixed(0)} ms`);
    // The wait is counted for /metrics (sanctions_sqlite_lock_wait_seconds): the insert's; the
    // transaction waited behind it for the connection, and found the lock free.
    assert.equal((await lockWaitCount()) - waitsBefore, 1);
    const rows = await db.selectFrom('t').select('id').orderBy('id').execute();
    assert.deepEqual(
      rows.map((r) => r.id),
      [1, 2],
    );
  } finally {
    other.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
