import { sql } from 'kysely';
import type { Clock } from './clock.js';
import type { Db } from './database.js';

/**
 * A lease in the database that lets one node of a deployment run a scheduled job (daily refresh,
 * rescreens). It works the same on SQLite and PostgreSQL: the upsert only takes the row over when
 * the previous lease has expired or is the caller's own. A node that dies loses its lease at expiry.
 */
export async function tryAcquireLease(
  db: Db,
  clock: Clock,
  name: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  const now = clock.now();
  const expires = new Date(now.getTime() + ttlMs).toISOString();
  const result = await sql<{ holder: string }>`
    insert into job_locks (name, holder, expires_at) values (${name}, ${holder}, ${expires})
    on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
      where job_locks.expires_at < ${now.toISOString()} or job_locks.holder = excluded.holder
    returning holder`.execute(db);
  return result.rows[0]?.holder === holder;
}

export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('job_locks').where('name', '=', name).where('holder', '=', holder).execute();
}

/** Runs `job` only if this node gets the lease; returns undefined when another node holds it. */
export async function withLease<T>(
  db: Db,
  clock: Clock,
  name: string,
  holder: string,
  ttlMs: number,
  job: () => Promise<T>,
): Promise<T | undefined> {
  if (!(await tryAcquireLease(db, clock, name, holder, ttlMs))) return undefined;
  try {
    return await job();
  } finally {
    await releaseLease(db, name, holder);
  }
}

/** Gives up every lease `holder` has (a node shutting down: another node may take its jobs at once). */
export async function releaseLeasesOf(db: Db, holder: string): Promise<number> {
  const result = await db.deleteFrom('job_locks').where('holder', '=', holder).executeTakeFirst();
  return Number(result.numDeletedRows);
}
