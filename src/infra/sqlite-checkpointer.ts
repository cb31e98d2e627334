/**
 * Checkpoints a SQLite database's write-ahead log from a thread of its own. The serving connection
 * turns automatic checkpoints off (they would run inside a COMMIT on the event loop: copy the log
 * into the database file and sync both, tens of milliseconds under load); this thread runs PASSIVE
 * checkpoints, which never block readers or writers, on a short interval.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

interface CheckpointerOptions {
  file: string;
  intervalMs: number;
}

const { file, intervalMs } = workerData as CheckpointerOptions;
const db = new SQLite(file);
db.pragma('busy_timeout = 1000');
db.pragma('wal_autocheckpoint = 0');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
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
