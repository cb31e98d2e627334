import type { AuditConfig } from '../infra/config.js';
import type { Call } from '../infra/context.js';
import type { Db } from '../infra/database.js';
import { AppError, validationError } from '../infra/errors.js';
import {
  type AuditRow,
  AuditStore,
  GENESIS_HASH,
  SYSTEM_CHAIN,
  appendAudit,
  contentHash,
  entryHash,
} from './audit-store.js';

/** `sanctions audit verify|export|prune` (issue 13, item 5). */

/**
 * Recomputes, for the subjects of some events, the hash of the stored row that the entry recorded
 * (`data.recordHash`): a stored screening or decision edited after the fact no longer matches its
 * entry. Given per event by the domain that owns the row (start/services.ts wires them).
 */
export type RecordHashes = (db: Db, ids: string[]) => Promise<Map<string, string>>;

export interface AuditDeps {
  config: AuditConfig;
  /** Event name -> the owner's record hashes (screening.created, decision.created). */
  records: Record<string, RecordHashes>;
  /** Organization slug -> id (the tenants domain answers). */
  orgId: (db: Db, slug: string) => Promise<string | undefined>;
}

export interface BrokenEntry {
  chain: string;
  seq: number;
  id: string | null;
  event: string | null;
  at: string | null;
  problem: string;
}

export interface VerifyReport {
  ok: boolean;
  chains: number;
  entries: number;
  /** The first broken entry of each broken chain (the first of all first). */
  broken: BrokenEntry[];
}

const PAGE = 2000;

/** The oldest moment whose entries must still be kept. */
function retentionCutoff(now: Date, years: number): string {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
  return cutoff.toISOString();
}

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

/** Parses a --from/--to date (YYYY-MM-DD or an ISO date-time); a bare --to date includes that day. */
function bound(field: string, value: string, endOfDay: boolean): string {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value))
    throw validationError(field, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time');
  if (dateOnly && endOfDay) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CSV_COLUMNS = [
  'chain',
  'seq',
  'at',
  'event',
  'actor',
  'subject',
  'data',
  'prev_hash',
  'content_hash',
  'entry_hash',
] as const;

function csvCell(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export type AuditService = ReturnType<typeof auditService>;

export function auditService(deps: AuditDeps) {
  async function chainOf(db: Db, slug: string): Promise<string> {
    const id = await deps.orgId(db, slug);
    if (!id) throw new AppError('NOT_FOUND', `organization "${slug}" not found`);
    return id;
  }

  /** Whether an `audit.pruned` entry of the chain says it was pruned through `seq`. */
  async function prunedThrough(db: Db, chain: string, seq: number): Promise<boolean> {
    for (const row of await new AuditStore(db).prunes(chain)) {
      const data = JSON.parse(row.data) as { throughSeq?: number };
      if (data.throughSeq === seq && row.seq > seq) return true;
    }
    return false;
  }

  /** Walks one chain; the first broken entry, if any, and how many entries were read. */
  async function verifyOne(db: Db, chain: string): Promise<{ entries: number; broken?: BrokenEntry }> {
    const store = new AuditStore(db);
    const head = await store.head(chain);
    let prevHash: string | undefined;
    let expected: number | undefined;
    let afterSeq = 0;
    let entries = 0;
    const fail = (row: AuditRow | undefined, seq: number, problem: string) => ({
      entries,
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
          } else if (await prunedThrough(db, chain, row.seq - 1)) {
            // Pruned under retention: the chain is checked from its first kept entry.
            prevHash = row.prev_hash;
          } else {
            return fail(row, row.seq, `the chain starts at entry ${row.seq}: earlier entries are missing, not pruned`);
          }
          expected = row.seq;
        }
        const problem = problemOf(row, prevHash, expected);
        if (problem) return fail(row, row.seq, problem);
        prevHash = row.entry_hash;
        expected = row.seq + 1;
        entries++;
      }
      const recordProblem = await checkRecords(db, rows);
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
    return { entries };
  }

  /** The stored rows that entries recorded, re-hashed: the first entry whose row changed. */
  async function checkRecords(db: Db, rows: AuditRow[]): Promise<{ row: AuditRow; problem: string } | undefined> {
    const wanted = new Map<string, AuditRow[]>();
    for (const row of rows) {
      if (!deps.records[row.event] || recordHashOf(row) === undefined) continue;
      const list = wanted.get(row.event) ?? [];
      list.push(row);
      wanted.set(row.event, list);
    }
    const problems: AuditRow[] = [];
    const why = new Map<AuditRow, string>();
    for (const [event, list] of wanted) {
      const hashes = await deps.records[event]!(
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

  return {
    /** Checks every chain, or one organization's; names the first broken entry of each broken chain. */
    async verify({ ctx, input }: Call<{ org?: string }>): Promise<VerifyReport> {
      const store = new AuditStore(ctx.db);
      const chains = input.org !== undefined ? [await chainOf(ctx.db, input.org)] : await store.chains();
      const report: VerifyReport = { ok: true, chains: chains.length, entries: 0, broken: [] };
      for (const chain of chains) {
        const one = await verifyOne(ctx.db, chain);
        report.entries += one.entries;
        if (one.broken) report.broken.push(one.broken);
      }
      report.ok = report.broken.length === 0;
      return report;
    },

    /**
     * An organization's entries between two dates, with the list activations of that time (from the
     * system chain), as CSV or JSON lines. Every screening entry names the list versions it ran against.
     */
    async export({ ctx, input }: Call<{ org: string; from: string; to: string; format: string }>) {
      if (!(EXPORT_FORMATS as readonly string[]).includes(input.format))
        throw validationError('format', `must be one of ${EXPORT_FORMATS.join(', ')}`);
      const from = bound('from', input.from, false);
      const to = bound('to', input.to, true);
      if (from >= to) throw validationError('from', 'must be before --to');
      const chain = await chainOf(ctx.db, input.org);
      const store = new AuditStore(ctx.db);
      const own = await store.between([chain], from, to);
      const lists = await store.between([SYSTEM_CHAIN], from, to, ['list.activated']);
      const rows = [...own, ...lists].sort((a, b) =>
        a.at < b.at ? -1 : a.at > b.at ? 1 : a.chain === b.chain ? a.seq - b.seq : a.chain === SYSTEM_CHAIN ? -1 : 1,
      );
      const format = input.format as ExportFormat;
      const lines =
        format === 'jsonl'
          ? rows.map((r) =>
              JSON.stringify({
                chain: r.chain === SYSTEM_CHAIN ? SYSTEM_CHAIN : input.org,
                seq: r.seq,
                at: r.at,
                event: r.event,
                actor: r.actor,
                subject: r.subject,
                data: JSON.parse(r.data) as unknown,
                prevHash: r.prev_hash,
                contentHash: r.content_hash,
                entryHash: r.entry_hash,
              }),
            )
          : [
              CSV_COLUMNS.join(','),
              ...rows.map((r) =>
                CSV_COLUMNS.map((c) =>
                  csvCell(c === 'chain' ? (r.chain === SYSTEM_CHAIN ? SYSTEM_CHAIN : input.org) : r[c]),
                ).join(','),
              ),
            ];
      return { format, from, to, entries: rows.length, text: lines.join('\n') + (lines.length ? '\n' : '') };
    },

    /**
     * Deletes entries older than the retention (AUDIT_RETENTION_YEARS, 10 years by default) and
     * nothing younger; each pruned chain records it in an `audit.pruned` entry, from which `verify`
     * accepts the chain starting after the pruned entries. `dryRun` only counts.
     */
    async prune({ ctx, input }: Call<{ dryRun?: boolean }>) {
      const now = ctx.clock.now();
      const cutoff = retentionCutoff(now, deps.config.retentionYears);
      const store = new AuditStore(ctx.db);
      let deleted = 0;
      for (const chain of await store.chains()) {
        const through = await store.lastSeqBefore(chain, cutoff);
        const first = (await store.first(chain))?.seq ?? through + 1;
        if (through === 0 || first > through) continue;
        if (input.dryRun) {
          deleted += through - first + 1;
          continue;
        }
        deleted += await ctx.db.transaction().execute(async (trx) => {
          const n = await store.deleteThrough(chain, through, trx);
          await appendAudit(ctx.db, trx, [
            {
              chain,
              event: 'audit.pruned',
              actor: 'operator',
              subject: chain,
              at: now.toISOString(),
              data: { throughSeq: through, before: cutoff, deleted: n, retentionYears: deps.config.retentionYears },
            },
          ]);
          return n;
        });
      }
      return { before: cutoff, retentionYears: deps.config.retentionYears, deleted, dryRun: input.dryRun ?? false };
    },
  };
}
