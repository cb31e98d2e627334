/**
 * Checkpoints a SQLite database's write-ahead log from a thread of its own. The serving connection
 * turns automatic checkpoints off (they would run inside a COMMIT on the event loop: copy the log
 * into the database file and sync both, tens of milliseconds under load). Every interval this thread
 * runs a PASSIVE checkpoint, which never blocks readers or writers; under steady writes that never
 * catches up with the end of the log, so the log would grow without end (and every sync of it would
 * also have to record its new size): checkpointLog (sqlite-log-checkpoint.ts) brings it back to its
 * beginning.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { checkpointLog } from './sqlite-log-checkpoint.js';

interface CheckpointerOptions {
  file: string;
  intervalMs: number;
}

const { file, intervalMs } = workerData as CheckpointerOptions;
const db = new SQLite(file);
// Never wait long for the lock: the writer waiting behind a pending checkpoint is the HTTP thread.
db.pragma('busy_timeout = 5');
db.pragma('wal_autocheckpoint = 0');

const timer = setInterval(() => {
  try {
    checkpointLog(db);
  } catch (error) {
    parentPort?.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}, intervalMs);

parentPort?.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  clearInterval(timer);
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } finally {
    db.close();
    parentPort?.postMessage({ type: 'stopped' });
  }
});
