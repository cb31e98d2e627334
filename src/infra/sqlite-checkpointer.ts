/**
 * Checkpoints a SQLite database's write-ahead log from a thread of its own. The serving connection
 * turns automatic checkpoints off (they would run inside a COMMIT on the event loop: copy the log
 * into the database file and sync both, tens of milliseconds under load). Every interval this thread
 * runs a PASSIVE checkpoint, which never blocks readers or writers; under steady writes that never
 * catches up with the end of the log, so the log would grow without end (and every sync of it would
 * also have to record its new size). When a PASSIVE pass has copied most of the log, a RESTART
 * checkpoint finishes the rest and lets the next writer start the log from its beginning again; it
 * holds writers back for that short remainder only, and gives up at once if a reader is in the way.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

interface CheckpointerOptions {
  file: string;
  intervalMs: number;
}

const { file, intervalMs } = workerData as CheckpointerOptions;
const db = new SQLite(file);
// Never wait long for the lock: the writer waiting behind a pending checkpoint is the HTTP thread.
db.pragma('busy_timeout = 5');
db.pragma('wal_autocheckpoint = 0');

/** Frames left in the log after which a RESTART is tried (about 4 MiB of 4 KiB pages). */
const RESTART_AFTER_FRAMES = 1000;

const timer = setInterval(() => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    if (passive && passive.log >= RESTART_AFTER_FRAMES && passive.log - passive.checkpointed < passive.log / 4) {
      db.pragma('wal_checkpoint(RESTART)');
    }
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
