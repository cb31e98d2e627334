import { createHash } from 'node:crypto';
import { type Db, type InsertPart, isPostgres } from '../infra/database.js';
import type { AuditLogTable, AuditPendingTable } from '../infra/db-schema.js';
import { newId } from '../infra/ids.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';

/**
 * The audit log (issue 13): append-only, one hash chain per organization, plus the chain `system`
 * for what belongs to no organization (list activations). Each entry holds the SHA-256 of its own
 * content and of the previous entry of its chain, so an edited, removed or inserted entry breaks the
 * chain from there on (`verifyChain`).
 *
 * Two ways in (issue 34). Screenings, the hot path, write their entries into audit_pending in their
 * own transaction without touching the chain (`appendAuditPending`); the sealer (audit-seal.ts), one
 * node at a time, places them in their chains and seals them every AUDIT_SEAL_INTERVAL. Rare events
 * are placed at once (`appendAudit`): the transaction locks the chain's head row (audit_heads),
 * reads the last sequence number and hash from it, writes the entries and moves the head. On
 * PostgreSQL the row lock (SELECT ... FOR UPDATE) makes those writers and the sealer take turns;
 * SQLite has one writer at a time anyway. The unique (chain, seq) index is the last guard: two
 * entries can never share a place in a chain, so the chain cannot fork. Several chains are locked in
 * the order of their names, so two transactions cannot deadlock on heads. A chain's order (seq) is
 * the order entries were placed in it, not strictly the order of their `at`.
 *
 * No other module writes SQL against the audit tables, and nothing updates or deletes an
 * entry; retention (`sanctions audit prune`) deletes the oldest entries of a chain, never younger than
 * the configured retention, and records that it did as an `audit.pruned` entry of the same chain.
 */

export type AuditRow = AuditLogTable;

/** The chain of entries that belong to no organization (list activations). */
export const SYSTEM_CHAIN = 'system';
/** prev_hash of the first entry of every chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** One thing that happened, as a caller describes it; `appendAudit` places it in its chain. */
export interface AuditEvent {
  /** An organization id, or SYSTEM_CHAIN. */
  chain: string;
  /** e.g. `screening.created`, `decision.approved`, `key.revoked`. */
  event: string;
  /** Who did it: a user id, `operator` (the command line), `system` (a background job). */
  actor: string;
  /** What it is about: the id of the screening, decision, alert, monitor, key, organization or list version. */
  subject: string;
  at: string;
  /** What an examiner needs to know about it; JSON-serializable. */
  data: Record<string, unknown>;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash of an entry's content: every column but the hashes, in a fixed order. */
export function contentHash(row: Pick<AuditRow, 'chain' | 'seq' | 'at' | 'event' | 'actor' | 'subject' | 'data'>) {
  return sha256Hex(JSON.stringify([row.chain, row.seq, row.at, row.event, row.actor, row.subject, row.data]));
}

/** The hash that links an entry to the one before it. */
export function entryHash(prevHash: string, content: string): string {
  return sha256Hex(`${prevHash}:${content}`);
}

const queries = preparedFor((db) => ({
  seedHead: prepareQuery(db, (db, p: { chain: string; hash: string }) =>
    db
      .insertInto('audit_heads')
      .values({ chain: p.chain, seq: 0, entry_hash: p.hash, sealed_seq: 0, seal_hash: p.hash })
      .onConflict((oc) => oc.column('chain').doNothing()),
  ),
  head: prepareQuery(db, (db, p: { chain: string }) =>
    db.selectFrom('audit_heads').select(['seq', 'entry_hash', 'sealed_seq', 'seal_hash']).where('chain', '=', p.chain),
  ),
  headForUpdate: prepareQuery(db, (db, p: { chain: string }) =>
    db
      .selectFrom('audit_heads')
      .select(['seq', 'entry_hash', 'sealed_seq', 'seal_hash'])
      .where('chain', '=', p.chain)
      .forUpdate(),
  ),
  insert: prepareQuery(db, (db, p: AuditRow) =>
    db.insertInto('audit_log').values({
      id: p.id,
      chain: p.chain,
      seq: p.seq,
      at: p.at,
      event: p.event,
      actor: p.actor,
      subject: p.subject,
      data: p.data,
      prev_hash: p.prev_hash,
      content_hash: p.content_hash,
      entry_hash: p.entry_hash,
    }),
  ),
  insertPending: prepareQuery(db, (db, p: AuditPendingTable) =>
    db.insertInto('audit_pending').values({
      id: p.id,
      chain: p.chain,
      at: p.at,
      event: p.event,
      actor: p.actor,
      subject: p.subject,
      data: p.data,
    }),
  ),
}));

/** Rows per INSERT statement: far below both engines' parameter limits (11 columns each). */
const INSERT_ROWS = 80;

/** A chain's head, locked for the transaction that read it. */
export interface ChainHead {
  seq: number;
  entry_hash: string;
  sealed_seq: number;
  seal_hash: string;
}

/** Creates the chain's head if it is new and locks it (a row lock on PostgreSQL; SQLite has one writer). */
export async function lockHead(db: Db, trx: Db, chain: string): Promise<ChainHead> {
  const sql = queries(db);
  await sql.seedHead.execute({ chain, hash: GENESIS_HASH }, trx);
  const head = await (isPostgres(db) ? sql.headForUpdate : sql.head).first({ chain }, trx);
  if (!head) throw new Error(`audit chain ${chain} has no head`);
  return {
    seq: Number(head.seq),
    entry_hash: head.entry_hash,
    sealed_seq: Number(head.sealed_seq),
    seal_hash: head.seal_hash,
  };
}

/** An event to place in a chain; `id` is kept when given (an entry that waited in audit_pending). */
export type PlacedEvent = Omit<AuditEvent, 'chain' | 'data'> & { id?: string; data: string };

/**
 * Writes events as the next entries of `chain` after `head` (locked by the caller), in order;
 * returns the new last sequence number and hash. The head itself is moved by the caller.
 */
export async function placeEntries(
  db: Db,
  trx: Db,
  placement: { chain: string; head: ChainHead; events: PlacedEvent[] },
): Promise<{ seq: number; hash: string }> {
  const { chain, head, events } = placement;
  let seq = head.seq;
  let prev = head.entry_hash;
  const rows: AuditRow[] = [];
  for (const event of events) {
    seq++;
    const base = {
      chain,
      seq,
      at: event.at,
      event: event.event,
      actor: event.actor,
      subject: event.subject,
      data: event.data,
    };
    const content = contentHash(base);
    const hash = entryHash(prev, content);
    rows.push({
      id: event.id ?? newId('aud', new Date(event.at)),
      ...base,
      prev_hash: prev,
      content_hash: content,
      entry_hash: hash,
    });
    prev = hash;
  }
  if (isPostgres(db)) {
    // One round trip for many rows.
    for (let i = 0; i < rows.length; i += INSERT_ROWS) {
      await trx
        .insertInto('audit_log')
        .values(rows.slice(i, i + INSERT_ROWS))
        .execute();
    }
  } else {
    // SQLite runs in process: a statement prepared once costs less than building a long one per batch.
    const sql = queries(db);
    for (const row of rows) await sql.insert.execute(row, trx);
  }
  return { seq, hash: prev };
}

/** Moves a chain's head to its new last entry (and, when `seal` is given, its last seal). */
export async function moveHead(
  trx: Db,
  chain: string,
  to: { seq: number; hash: string; seal?: { seq: number; hash: string } },
): Promise<void> {
  await trx
    .updateTable('audit_heads')
    .set({
      seq: to.seq,
      entry_hash: to.hash,
      ...(to.seal ? { sealed_seq: to.seal.seq, seal_hash: to.seal.hash } : {}),
    })
    .where('chain', '=', chain)
    .execute();
}

/** The events grouped by chain, chains in the order of their names (the order heads are locked in). */
function byChain(events: AuditEvent[]): [string, AuditEvent[]][] {
  const chains = new Map<string, AuditEvent[]>();
  for (const event of events) {
    const list = chains.get(event.chain);
    if (list) list.push(event);
    else chains.set(event.chain, [event]);
  }
  return [...chains.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Appends events to their chains inside `trx`, the transaction that writes what they record: it
 * takes each chain's head, so it is for rare events (decisions, keys, profiles, list activations).
 * Entries are sealed by the next seal (audit-seal.ts). `db` is the database `trx` belongs to (the
 * statements are prepared on it).
 */
export async function appendAudit(db: Db, trx: Db, events: AuditEvent[]): Promise<void> {
  for (const [chain, list] of byChain(events)) {
    const head = await lockHead(db, trx, chain);
    const placed = await placeEntries(db, trx, {
      chain,
      head,
      events: list.map((e) => Object.assign({}, e, { data: JSON.stringify(e.data) })),
    });
    await moveHead(trx, chain, placed);
  }
}

/**
 * Writes events inside `trx` without taking their chains' heads (the POST /screen path, issue 34):
 * they wait in audit_pending, each under the id its entry will have, until the sealer places them
 * in their chains and seals them (within AUDIT_SEAL_INTERVAL). Committed with what they record, so
 * nothing acknowledged goes unrecorded; no row here is one that another request waits for.
 */
export async function appendAuditPending(db: Db, trx: Db, events: AuditEvent[]): Promise<void> {
  const rows = pendingRows(events);
  if (isPostgres(db)) {
    for (let i = 0; i < rows.length; i += INSERT_ROWS)
      await trx
        .insertInto('audit_pending')
        .values(rows.slice(i, i + INSERT_ROWS))
        .execute();
    return;
  }
  const sql = queries(db);
  for (const row of rows) await sql.insertPending.execute(row, trx);
}

/** The audit_pending rows of events, each under the id its entry will have. */
function pendingRows(events: AuditEvent[]): AuditPendingTable[] {
  return events.map((e) => ({
    id: newId('aud', new Date(e.at)),
    chain: e.chain,
    at: e.at,
    event: e.event,
    actor: e.actor,
    subject: e.subject,
    data: JSON.stringify(e.data),
  }));
}

/**
 * Events as one insert into audit_pending of a statement made of several (infra/database.ts
 * `InsertPart`): as `appendAuditPending`, committed with what the rest of the statement writes.
 */
export function auditPendingInsert(db: Db, events: AuditEvent[]): InsertPart<'audit_pending'> {
  return db.insertInto('audit_pending').values(pendingRows(events));
}

/** Appends events in a transaction of their own (for work that writes nothing else). */
export async function appendAuditNow(db: Db, events: AuditEvent[]): Promise<void> {
  await db.transaction().execute((trx) => appendAudit(db, trx, events));
}

export class AuditStore {
  constructor(private readonly db: Db) {}

  async chains(): Promise<string[]> {
    const rows = await this.db.selectFrom('audit_heads').select('chain').orderBy('chain').execute();
    return rows.map((r) => r.chain);
  }

  head(chain: string) {
    return this.db.selectFrom('audit_heads').selectAll().where('chain', '=', chain).executeTakeFirst();
  }

  /** Entries of a chain after `afterSeq`, in order. */
  page(chain: string, afterSeq: number, limit: number): Promise<AuditRow[]> {
    return this.db
      .selectFrom('audit_log')
      .selectAll()
      .where('chain', '=', chain)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** The first (kept) entry of a chain. */
  first(chain: string): Promise<AuditRow | undefined> {
    return this.db.selectFrom('audit_log').selectAll().where('chain', '=', chain).orderBy('seq').executeTakeFirst();
  }

  /** Entries of these chains with `from <= at < to`, in chain and sequence order. */
  between(chains: string[], from: string, to: string, events?: string[]): Promise<AuditRow[]> {
    let query = this.db
      .selectFrom('audit_log')
      .selectAll()
      .where('chain', 'in', chains)
      .where('at', '>=', from)
      .where('at', '<', to);
    if (events) query = query.where('event', 'in', events);
    return query.orderBy('at').orderBy('chain').orderBy('seq').execute();
  }

  /** The last sequence number of a chain's entries older than `before` (0 when there is none). */
  async lastSeqBefore(chain: string, before: string): Promise<number> {
    const row = await this.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('chain', '=', chain)
      .where('at', '<', before)
      .executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /** Deletes a chain's entries up to `seq` (retention, inside `trx`); returns how many. */
  async deleteThrough(chain: string, seq: number, trx: Db = this.db): Promise<number> {
    const result = await trx
      .deleteFrom('audit_log')
      .where('chain', '=', chain)
      .where('seq', '<=', seq)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes the seals that cover only entries up to `seq` (retention, inside `trx`). */
  async deleteSealsThrough(chain: string, seq: number, trx: Db = this.db): Promise<void> {
    await trx.deleteFrom('audit_seals').where('chain', '=', chain).where('last_seq', '<=', seq).execute();
  }

  /** The `audit.pruned` entries of a chain: each says up to which entry the chain was pruned. */
  prunes(chain: string): Promise<AuditRow[]> {
    return this.db
      .selectFrom('audit_log')
      .selectAll()
      .where('chain', '=', chain)
      .where('event', '=', 'audit.pruned')
      .execute();
  }
}
