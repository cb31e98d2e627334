import type { Db } from '../infra/database.js';
import type { AuditSealsTable } from '../infra/db-schema.js';
import { sealHash } from './audit-seal.js';
import { type AuditRow, AuditStore, GENESIS_HASH, contentHash, entryHash } from './audit-store.js';

/**
 * `sanctions audit verify` for one chain: every entry against the one before it and against its
 * seal, every seal against the one before it, the rows entries recorded against their hashes. Names
 * the first broken entry; counts the entries placed after the last seal (not sealed yet).
 */

/**
 * Recomputes, for the subjects of some events, the hash of the stored row that the entry recorded
 * (`data.recordHash`): a stored screening or decision edited after the fact no longer matches its
 * entry. Given per event by the domain that owns the row (start/services.ts wires them).
 */
export type RecordHashes = (db: Db, ids: string[]) => Promise<Map<string, string>>;

export interface BrokenEntry {
  chain: string;
  seq: number;
  id: string | null;
  event: string | null;
  at: string | null;
  problem: string;
}

export interface ChainReport {
  entries: number;
  /** Entries placed after the chain's last seal. */
  unsealedPlaced: number;
  broken?: BrokenEntry;
}

const PAGE = 2000;

function problemOf(row: AuditRow, prevHash: string | undefined, expectedSeq: number | undefined): string | undefined {
  if (expectedSeq !== undefined && row.seq !== expectedSeq)
    return `sequence jumps from ${expectedSeq - 1} to ${row.seq}: entries are missing`;
  if (prevHash !== undefined && row.prev_hash !== prevHash)
    return 'prev_hash does not match the hash of the entry before it';
  if (contentHash(row) !== row.content_hash) return 'content does not match content_hash: the entry was altered';
  if (entryHash(row.prev_hash, row.content_hash) !== row.entry_hash)
    return 'entry_hash does not match prev_hash and content_hash';
  return undefined;
}

function recordHashOf(row: AuditRow): string | undefined {
  try {
    const data = JSON.parse(row.data) as { recordHash?: unknown };
    return typeof data.recordHash === 'string' ? data.recordHash : undefined;
  } catch {
    return undefined;
  }
}

/** A chain's seals in order, read a page at a time, each checked against the one before it. */
class SealWalk {
  private page: AuditSealsTable[] = [];
  private index = 0;
  private afterSeq = 0;
  private done = false;
  /** The last seal checked. */
  previous: AuditSealsTable | undefined;
  /** Seals checked. */
  count = 0;

  constructor(
    private readonly db: Db,
    private readonly chain: string,
  ) {}

  /** The next seal not checked yet. */
  async next(): Promise<AuditSealsTable | undefined> {
    if (this.index < this.page.length) return this.page[this.index];
    if (this.done) return undefined;
    this.page = await this.db
      .selectFrom('audit_seals')
      .selectAll()
      .where('chain', '=', this.chain)
      .where('last_seq', '>', this.afterSeq)
      .orderBy('last_seq')
      .limit(PAGE)
      .execute();
    this.index = 0;
    if (this.page.length < PAGE) this.done = true;
    if (this.page.length > 0) this.afterSeq = this.page.at(-1)!.last_seq;
    return this.page[0];
  }

  /** Skips a seal of entries pruned under retention (it is never checked). */
  skip(): void {
    this.index++;
  }

  /** The seal over entries up to `row`, whose hash ends there: the problem with it, if any. */
  check(seal: AuditSealsTable, row: AuditRow, chainStartsAtOne: boolean): string | undefined {
    const range = `the seal of entries ${seal.first_seq}..${seal.last_seq}`;
    const before = this.previous;
    this.previous = seal;
    this.index++;
    this.count++;
    if (seal.entries_hash !== row.entry_hash) return `the entries do not match ${range} (sealed ${seal.sealed_at})`;
    if (sealHash(seal) !== seal.seal_hash) return `${range} was altered`;
    if (before) {
      if (seal.first_seq !== before.last_seq + 1) return `${range} does not follow the seal before it`;
      if (seal.prev_hash !== before.seal_hash) return `${range} does not link to the seal before it`;
    } else if (chainStartsAtOne && (seal.first_seq !== 1 || seal.prev_hash !== GENESIS_HASH)) {
      return `${range} is not the chain's first seal: earlier seals are missing`;
    }
    return undefined;
  }
}

export interface VerifyDeps {
  records: Record<string, RecordHashes>;
  /** Whether an `audit.pruned` entry of the chain says it was pruned through `seq`. */
  prunedThrough: (db: Db, chain: string, seq: number) => Promise<boolean>;
}

/** Walks one chain; the first broken entry, if any, how many entries were read and how many are unsealed. */
export async function verifyChain(db: Db, chain: string, deps: VerifyDeps): Promise<ChainReport> {
  const store = new AuditStore(db);
  const head = await store.head(chain);
  const seals = new SealWalk(db, chain);
  let prevHash: string | undefined;
  let expected: number | undefined;
  let startsAtOne = true;
  let afterSeq = 0;
  let entries = 0;
  const fail = (row: AuditRow | undefined, seq: number, problem: string): ChainReport => ({
    entries,
    unsealedPlaced: 0,
    broken: {
      chain,
      seq: row?.seq ?? seq,
      id: row?.id ?? null,
      event: row?.event ?? null,
      at: row?.at ?? null,
      problem,
    },
  });
  for (;;) {
    const rows = await store.page(chain, afterSeq, PAGE);
    for (const row of rows) {
      if (prevHash === undefined) {
        // The first entry: seq 1 from the genesis hash, or the first kept after a prune under retention.
        if (row.seq === 1) {
          prevHash = GENESIS_HASH;
        } else if (await deps.prunedThrough(db, chain, row.seq - 1)) {
          prevHash = row.prev_hash;
          startsAtOne = false;
        } else {
          return fail(row, row.seq, `the chain starts at entry ${row.seq}: earlier entries are missing, not pruned`);
        }
        expected = row.seq;
      }
      const problem = problemOf(row, prevHash, expected);
      if (problem) return fail(row, row.seq, problem);
      let seal = await seals.next();
      while (seal && seal.last_seq < row.seq && !startsAtOne && !seals.previous) {
        seals.skip();
        seal = await seals.next();
      }
      if (seal && seal.last_seq === row.seq) {
        const sealProblem = seals.check(seal, row, startsAtOne);
        if (sealProblem) return fail(row, row.seq, sealProblem);
      }
      prevHash = row.entry_hash;
      expected = row.seq + 1;
      entries++;
    }
    const recordProblem = await checkRecords(db, rows, deps.records);
    if (recordProblem) return fail(recordProblem.row, recordProblem.row.seq, recordProblem.problem);
    if (rows.length < PAGE) break;
    afterSeq = rows.at(-1)!.seq;
  }
  const last = (expected ?? 1) - 1;
  if (head && head.seq !== last) {
    return fail(
      undefined,
      last + 1,
      `the head says ${head.seq} entries but the chain ends at ${last}: entries are missing at its end`,
    );
  }
  if (head && entries > 0 && head.entry_hash !== prevHash)
    return fail(undefined, last, 'the head hash does not match the last entry');
  const extra = await seals.next();
  if (extra)
    return fail(undefined, extra.last_seq, `a seal covers entries through ${extra.last_seq}: they are missing`);
  const sealed = seals.previous?.last_seq ?? 0;
  if (head && Number(head.sealed_seq) !== sealed && seals.count > 0)
    return fail(
      undefined,
      sealed + 1,
      `the head says sealed through ${head.sealed_seq} but the last seal ends at ${sealed}`,
    );
  // The walk read entries last - entries + 1 .. last; those after the last seal are not sealed yet.
  return { entries, unsealedPlaced: last - Math.max(sealed, last - entries) };
}

/** The stored rows that entries recorded, re-hashed: the first entry whose row changed. */
async function checkRecords(
  db: Db,
  rows: AuditRow[],
  records: Record<string, RecordHashes>,
): Promise<{ row: AuditRow; problem: string } | undefined> {
  const wanted = new Map<string, AuditRow[]>();
  for (const row of rows) {
    if (!records[row.event] || recordHashOf(row) === undefined) continue;
    const list = wanted.get(row.event) ?? [];
    list.push(row);
    wanted.set(row.event, list);
  }
  const problems: AuditRow[] = [];
  const why = new Map<AuditRow, string>();
  for (const [event, list] of wanted) {
    const hashes = await records[event]!(
      db,
      list.map((r) => r.subject),
    );
    for (const row of list) {
      const now = hashes.get(row.subject);
      if (now === recordHashOf(row)) continue;
      problems.push(row);
      why.set(
        row,
        now === undefined
          ? `the ${event.split('.')[0]} ${row.subject} it records is missing`
          : `the stored ${event.split('.')[0]} ${row.subject} was altered after this entry recorded it`,
      );
    }
  }
  problems.sort((a, b) => a.seq - b.seq);
  const first = problems[0];
  return first ? { row: first, problem: why.get(first)! } : undefined;
}
