import type SQLite from 'better-sqlite3';

/** What one PASSIVE checkpoint reports: frames in the log (as the pass began) and frames copied. */
interface Pass {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * Frames in the log (about 4 MiB of 4 KiB pages) from which the checkpointer works to have the log
 * start again from its beginning.
 */
export const RESET_AFTER_FRAMES = 1000;
/** PASSIVE passes in a row, at most, to catch up with the end of the log. */
export const CATCH_UP_PASSES = 16;

/** What checkpointLog did: nothing more to do, the log caught up with, or a RESTART run. */
export type CheckpointOutcome = 'short' | 'caught up' | 'restarted';

/**
 * One turn of the background checkpointer on its own connection `db` (sqlite-checkpointer.ts).
 *
 * A log whose every frame is in the database file starts again from its beginning at the next write,
 * with no lock held for it: SQLite does that inside the writer's next transaction. A PASSIVE pass
 * never holds a writer back, but copies only the frames committed before it began (the `log` it
 * reports), not those committed while it ran. So when the log is long, passes follow one another,
 * each copying what was committed during the previous one (the first a second's worth, the next a few
 * milliseconds' worth), until a pass finds no frame added since the previous one began: the whole log
 * is then in the database file. Only when CATCH_UP_PASSES passes did not get there (commits during
 * every pass, or a reader keeping frames from being copied) does a RESTART finish the log. A RESTART
 * holds every writer back while it copies and syncs what is left, here what the last pass did not
 * see, a few pages; run after a single pass, as before, it had to copy everything committed while
 * that pass ran (hundreds of pages at 1,000 screenings a second), and writes stalled for 10 to 25 ms
 * once a second.
 */
export function checkpointLog(db: SQLite.Database): CheckpointOutcome {
  const passive = () => (db.pragma('wal_checkpoint(PASSIVE)') as Pass[])[0];
  let pass = passive();
  if (!pass || pass.log < RESET_AFTER_FRAMES) return 'short';
  for (let passes = 1; passes < CATCH_UP_PASSES; passes++) {
    const next = passive();
    if (!next || (next.log <= pass.log && next.checkpointed === next.log)) return 'caught up';
    pass = next;
  }
  db.pragma('wal_checkpoint(RESTART)');
  return 'restarted';
}
