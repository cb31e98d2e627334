import type { AuditConfig } from '../infra/config.js';
import type { Call } from '../infra/context.js';
import type { Db } from '../infra/database.js';
import { AppError, validationError } from '../infra/errors.js';
import { pendingCount, sealPending } from './audit-seal.js';
import { AuditStore, SYSTEM_CHAIN, appendAudit } from './audit-store.js';
import { type BrokenEntry, type RecordHashes, verifyChain } from './audit-verify.js';

/** `sanctions audit verify|export|prune` (issue 13, item 5; sealed chains: issue 34). */

export type { BrokenEntry, RecordHashes };

export interface AuditDeps {
  config: AuditConfig;
  /** Event name -> the owner's record hashes (screening.created, decision.created). */
  records: Record<string, RecordHashes>;
  /** Organization slug -> id (the tenants domain answers). */
  orgId: (db: Db, slug: string) => Promise<string | undefined>;
}

export interface VerifyReport {
  ok: boolean;
  chains: number;
  entries: number;
  /** The first broken entry of each broken chain (the first of all first). */
  broken: BrokenEntry[];
  /**
   * Entries not sealed yet (issue 34): waiting to be placed in their chain, or placed after its last
   * seal. Not a fault: the sealer seals them within AUDIT_SEAL_INTERVAL on a running deployment.
   */
  unsealed: number;
}

/** The oldest moment whose entries must still be kept. */
function retentionCutoff(now: Date, years: number): string {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
  return cutoff.toISOString();
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

  return {
    /** Checks every chain, or one organization's; names the first broken entry of each broken chain. */
    async verify({ ctx, input }: Call<{ org?: string }>): Promise<VerifyReport> {
      const store = new AuditStore(ctx.db);
      const chains = input.org !== undefined ? [await chainOf(ctx.db, input.org)] : await store.chains();
      const report: VerifyReport = { ok: true, chains: chains.length, entries: 0, broken: [], unsealed: 0 };
      for (const chain of chains) {
        const one = await verifyChain(ctx.db, chain, { records: deps.records, prunedThrough });
        report.entries += one.entries;
        report.unsealed += one.unsealedPlaced;
        if (one.broken) report.broken.push(one.broken);
      }
      report.unsealed += await pendingCount(ctx.db, input.org !== undefined ? chains[0] : undefined);
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
      // What waits to be placed in its chain is sealed first: the export holds every entry up to now.
      await sealPending(ctx.db, { now: () => ctx.clock.now() });
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
          const removed = await store.deleteThrough(chain, through, trx);
          await store.deleteSealsThrough(chain, through, trx);
          await appendAudit(ctx.db, trx, [
            {
              chain,
              event: 'audit.pruned',
              actor: 'operator',
              subject: chain,
              at: now.toISOString(),
              data: {
                throughSeq: through,
                before: cutoff,
                deleted: removed,
                retentionYears: deps.config.retentionYears,
              },
            },
          ]);
          return removed;
        });
      }
      return { before: cutoff, retentionYears: deps.config.retentionYears, deleted, dryRun: input.dryRun ?? false };
    },
  };
}
