import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { checkpointLog, RESET_AFTER_FRAMES } from '../../src/infra/sqlite-log-checkpoint.js';

/** A serving connection as infra/database.ts opens it, and the checkpointer's, on a new file. */
function connections() {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-log-'));
  const file = join(dir, 'db.sqlite');
  const writer = new SQLite(file);
  writer.pragma('journal_mode = WAL');
  writer.pragma('synchronous = NORMAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec('create table t (id integer primary key, v text)');
  const checkpointer = new SQLite(file);
  checkpointer.pragma('busy_timeout = 5');
  checkpointer.pragma('wal_autocheckpoint = 0');
  const insert = writer.prepare('insert into t (v) values (?)');
  /** `n` commits of a row of about a page each. */
  const write = (n: number) => {
    for (let i = 0; i < n; i++) insert.run('x'.repeat(3000));
  };
  /** Frames in the log now, as a PASSIVE pass reports them (it copies them too). */
  const logFrames = () => (checkpointer.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0]!.log;
  const close = () => {
    checkpointer.close();
    writer.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { file, writer, checkpointer, write, logFrames, close };
}

test('a short log is left as it is', () => {
  const { checkpointer, write, logFrames, close } = connections();
  try {
    write(10);
    assert.equal(checkpointLog(checkpointer), 'short');
    assert.ok(logFrames() >= 10);
  } finally {
    close();
  }
});

test('a long log whose every frame is copied starts again at the next write, with no RESTART', () => {
  const { checkpointer, write, logFrames, close } = connections();
  try {
    write(RESET_AFTER_FRAMES + 200);
    // The first pass copies the log; the second finds nothing new: no RESTART (no lock held).
    assert.equal(checkpointLog(checkpointer), 'caught up');
    // The writer's next transaction starts the log from its beginning by itself.
    write(1);
    assert.ok(logFrames() < 10, `the log holds ${logFrames()} frames after one more write`);
  } finally {
    close();
  }
});

test('when a reader keeps the passes from catching up, a RESTART finishes the log once it is gone', () => {
  const { file, checkpointer, write, logFrames, close } = connections();
  const reader = new SQLite(file, { readonly: true });
  try {
    write(RESET_AFTER_FRAMES + 200);
    // A read transaction open on this snapshot: the frames written after it cannot be copied yet.
    reader.exec('begin');
    reader.prepare('select count(*) from t').get();
    write(50);
    assert.equal(checkpointLog(checkpointer), 'restarted');
    // The RESTART could not finish (the reader was still there); the log is still long.
    assert.ok(logFrames() >= RESET_AFTER_FRAMES);
    reader.exec('commit');
    assert.equal(checkpointLog(checkpointer), 'caught up');
    write(1);
    assert.ok(logFrames() < 10, `the log holds ${logFrames()} frames after one more write`);
  } finally {
    reader.close();
    close();
  }
});
