import type { ListsConfig } from '../infra/config.js';
import type { Context } from '../infra/context.js';
import { ListStore } from './list-store.js';
import { SOURCE_IDS, type SourceId } from './model.js';
import { PollStateStore, pollIntervalOf } from './poll-state.js';

/**
 * The freshness of every source, for `lists status` and GET /health. Apart from the sync (and its
 * parsers) so that what only reads the status loads none of them.
 */

export interface SourceStatus {
  source: SourceId;
  records: number;
  version: string | null;
  publishedAt: string | null;
  fetchedAt: string | null;
  lastAttemptAt: string | null;
  lastAttemptStatus: string | null;
  lastError: string | null;
  stale: boolean;
  format: string | null;
  /** The last check of the publisher (or directory), whatever it found (issue 30). */
  lastCheckAt: string | null;
  /** not_modified, unchanged, updated, rejected or skipped. */
  lastCheckStatus: string | null;
  /** When a check last put a new version in force. */
  lastChangeAt: string | null;
  /** When the source is checked next (null: not polled and never checked). */
  nextCheckAt: string | null;
  /** Failed checks in a row; the next check backs off while it is above 0. */
  checkFailures: number;
}

const GOOD_CHECKS = new Set(['not_modified', 'unchanged', 'updated']);

/**
 * Per source: the version in force and its freshness. Stale: no good sync or check within
 * LIST_STALE_AFTER, or the last check (the last sync attempt where there is no check state) failed.
 */
export async function listStatus(ctx: Context, config: ListsConfig): Promise<SourceStatus[]> {
  const store = new ListStore(ctx.db);
  const [active, attempts, good, checks] = await Promise.all([
    store.activeVersions(),
    store.latestAttempts(),
    store.lastGoodSync(),
    new PollStateStore(ctx.db).all(),
  ]);
  const bySource = new Map(active.map((v) => [v.source, v]));
  const now = ctx.clock.now().getTime();
  // The derived source is reported once it has been attempted.
  const sources: SourceId[] = [...SOURCE_IDS, ...(attempts.has('us_ofac_50') ? ['us_ofac_50' as const] : [])];
  return sources.map((source) => {
    const version = bySource.get(source);
    const attempt = attempts.get(source);
    const check = checks.get(source);
    const goodCheck =
      check?.last_check_at && GOOD_CHECKS.has(check.last_check_status ?? '') ? check.last_check_at : undefined;
    const synced = good.get(source);
    const lastGood = goodCheck && (!synced || goodCheck > synced) ? goodCheck : synced;
    const failing = check ? check.failures > 0 : attempt?.status === 'rejected';
    const stale = !version || !lastGood || now - new Date(lastGood).getTime() > config.staleAfterMs || failing;
    return {
      source,
      records: version?.record_count ?? 0,
      version: version?.id ?? null,
      publishedAt: version?.published_at ?? null,
      fetchedAt: lastGood ?? null,
      lastAttemptAt: attempt?.fetched_at ?? null,
      lastAttemptStatus: attempt?.status ?? null,
      lastError: check ? check.last_error : attempt?.status === 'rejected' ? attempt.message : null,
      stale,
      format: version?.format ?? null,
      lastCheckAt: check?.last_check_at ?? null,
      lastCheckStatus: check?.last_check_status ?? null,
      lastChangeAt: check?.last_change_at ?? version?.activated_at ?? null,
      nextCheckAt: pollIntervalOf(config, source) > 0 ? (check?.next_check_at ?? null) : null,
      checkFailures: check?.failures ?? 0,
    };
  });
}
