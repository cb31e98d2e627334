import { sql } from 'kysely';
import type { Log } from '../infra/context.js';
import { type Db, isPostgres } from '../infra/database.js';
import { PollingJob } from '../infra/polling-job.js';
import { type ChainHead, lockHead, moveHead, placeEntries, sha256Hex } from './audit-store.js';

/**
 * The sealer (issue 34): places the entries waiting in audit_pending in their chains and seals each
 * chain's new entries, one node at a time.
 *
 * A pass is one transaction. On PostgreSQL it first takes a transaction-scoped advisory lock (the
 * lease: one sealer at a time per schema; another node finding it taken skips its pass, and a node
 * killed while sealing loses it with its connection, at once). On SQLite the transaction begins by
 * writing, so it holds the database's one write lock from its first statement. Per chain (in the
 * order of their names): lock the head, place the chain's pending entries after it (each keeps its
 * id), delete them from audit_pending, then write a seal over every entry placed since the last
 * seal (these, and any placed at once by `appendAudit`) and move the head. All of it commits
 * together, so an entry is either pending or placed, never both nor neither. A pass cut short by its
 * budget moves the head without a seal; the pass that places the chain's last pending entry seals
 * everything placed since the last seal.
 *
 * A seal holds the chain's entry hash at its last entry (a sequential hash: each entry's hash is
 * computed over the one before it, back to the previous seal's last entry) and the hash of the
 * previous seal; `sanctions audit verify` checks every entry against its seal and every seal against
 * the one before it.
 */

/**
 * Entries one pass places at most; more are left for the next pass, which follows once this one's
 * commit is on disk. On SQLite a pass runs on the HTTP thread and holds the one connection the
 * screenings' commits need: 64 entries keep it to a few milliseconds (a second of 250 screenings in
 * one pass held every request for 30 to 60 ms, the open-loop benchmark's p99).
 */
function passEntries(db: Db): number {
  return isPostgres(db) ? 5000 : 64;
}

/** A chain is sealed when its pending entries are all placed, or once this many wait unsealed. */
const SEAL_AFTER_ENTRIES = 5000;

export interface SealReport {
  /** Chains sealed. */
  chains: number;
  /** Pending entries placed in their chains. */
  placed: number;
  /** Another node held the lease: nothing was done. */
  skipped: boolean;
}

/** The hash of a seal: what it covers and the seal before it. */
export function sealHash(seal: {
  chain: string;
  first_seq: number;
  last_seq: number;
  entries_hash: string;
  prev_hash: string;
  sealed_at: string;
}): string {
  return sha256Hex(
    JSON.stringify([seal.chain, seal.first_seq, seal.last_seq, seal.entries_hash, seal.prev_hash, seal.sealed_at]),
  );
}

/** Takes the pass's lease: true when this transaction may seal. */
async function takeLease(db: Db, trx: Db): Promise<boolean> {
  // SQLite: the transaction began IMMEDIATE (infra/sqlite-driver.ts), so it holds the write lock
  // before it reads a head, and it is the only writer.
  if (!isPostgres(db)) return true;
  const result = await sql<{ ok: boolean }>`
    select pg_try_advisory_xact_lock(hashtext(current_schema() || ':audit-seal')) as ok`.execute(trx);
  return result.rows[0]?.ok === true;
}

/** The chains with entries to place or to seal. */
async function chainsToSeal(trx: Db): Promise<string[]> {
  const pending = await trx.selectFrom('audit_pending').select('chain').distinct().execute();
  const unsealed = await trx
    .selectFrom('audit_heads')
    .select('chain')
    .where((eb) => eb('seq', '>', eb.ref('sealed_seq')))
    .execute();
  return [...new Set([...pending.map((r) => r.chain), ...unsealed.map((r) => r.chain)])].sort();
}

/** Places a chain's pending entries (at most `limit`) and seals it; how many were placed. */
async function sealChain(db: Db, trx: Db, chain: string, options: { limit: number; now: Date }): Promise<number> {
  const head: ChainHead = await lockHead(db, trx, chain);
  const pending = await trx
    .selectFrom('audit_pending')
    .selectAll()
    .where('chain', '=', chain)
    .orderBy('id')
    .limit(options.limit)
    .execute();
  let last = { seq: head.seq, hash: head.entry_hash };
  if (pending.length > 0) {
    last = await placeEntries(db, trx, { chain, head, events: pending });
    const ids = pending.map((p) => p.id);
    for (let i = 0; i < ids.length; i += 500)
      await trx
        .deleteFrom('audit_pending')
        .where('chain', '=', chain)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
  }
  // Cut short by the pass's budget: the next pass places the rest, and seals them all at once.
  const drained = pending.length < options.limit;
  if (last.seq <= head.sealed_seq) return pending.length;
  if (!drained && last.seq - head.sealed_seq < SEAL_AFTER_ENTRIES) {
    await moveHead(trx, chain, last);
    return pending.length;
  }
  const seal = {
    chain,
    first_seq: head.sealed_seq + 1,
    last_seq: last.seq,
    entries_hash: last.hash,
    prev_hash: head.seal_hash,
    sealed_at: options.now.toISOString(),
  };
  const hash = sealHash(seal);
  await trx
    .insertInto('audit_seals')
    .values(Object.assign({ seal_hash: hash }, seal))
    .execute();
  await moveHead(trx, chain, { seq: last.seq, hash: last.hash, seal: { seq: last.seq, hash } });
  return pending.length;
}

/** One pass of the sealer; `more` when entries were left for another pass. */
export async function sealAudit(db: Db, now: Date): Promise<SealReport & { more: boolean }> {
  return db.transaction().execute(async (trx) => {
    if (!(await takeLease(db, trx))) return { chains: 0, placed: 0, skipped: true, more: false };
    let budget = passEntries(db);
    let chains = 0;
    let placed = 0;
    for (const chain of await chainsToSeal(trx)) {
      if (budget <= 0) return { chains, placed, skipped: false, more: true };
      const count = await sealChain(db, trx, chain, { limit: budget, now });
      budget -= count;
      placed += count;
      chains++;
    }
    return { chains, placed, skipped: false, more: budget <= 0 };
  });
}

/** Entries waiting in audit_pending to be placed in their chain (all chains, or one). */
export async function pendingCount(db: Db, chain?: string): Promise<number> {
  let query = db.selectFrom('audit_pending').select((eb) => eb.fn.countAll().as('n'));
  if (chain !== undefined) query = query.where('chain', '=', chain);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

/**
 * Seals everything written before the call (`audit export`, a draining node): passes until none is
 * left; while another node holds the lease, waits for it (it seals the same entries) up to `waitMs`.
 */
export async function sealPending(db: Db, options: { now: () => Date; waitMs?: number }): Promise<void> {
  const deadline = Date.now() + (options.waitMs ?? 5000);
  for (;;) {
    const pass = await sealAudit(db, options.now());
    if (pass.more) continue;
    if (!pass.skipped || (await pendingCount(db)) === 0 || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The sealer as a background job of every node (start/services.ts); tests run its rounds themselves. */
export class AuditSealer {
  readonly job: PollingJob<SealReport>;

  constructor(private readonly options: { db: Db; now: () => Date; intervalMs: number; log?: Log }) {
    this.job = new PollingJob<SealReport>({
      name: 'audit seal',
      intervalMs: options.intervalMs,
      round: async () => {
        const { more, ...report } = await sealAudit(options.db, options.now());
        return { more, report };
      },
      combine: (previous, next) =>
        previous && next
          ? { chains: previous.chains + next.chains, placed: previous.placed + next.placed, skipped: next.skipped }
          : (next ?? previous),
      ...(options.log ? { log: options.log } : {}),
    });
  }

  /** Seals everything pending now (a node draining, `audit export`); undefined report when nothing ran. */
  sealNow(): Promise<SealReport | undefined> {
    return this.job.runUntilIdle();
  }
}
