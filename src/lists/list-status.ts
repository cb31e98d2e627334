import type { ListsConfig } from '../infra/config.js';
import type { Context } from '../infra/context.js';
import { ListStore } from './list-store.js';
import { SOURCE_IDS, type SourceId } from './model.js';

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
}

/** Per source: the version in force and its freshness. Stale: no good sync within LIST_STALE_AFTER, or the last attempt was rejected. */
export async function listStatus(ctx: Context, config: ListsConfig): Promise<SourceStatus[]> {
  const store = new ListStore(ctx.db);
  const [active, attempts, good] = await Promise.all([
    store.activeVersions(),
    store.latestAttempts(),
    store.lastGoodSync(),
  ]);
  const bySource = new Map(active.map((v) => [v.source, v]));
  const now = ctx.clock.now().getTime();
  // The derived source is reported once it has been attempted.
  const sources: SourceId[] = [...SOURCE_IDS, ...(attempts.has('us_ofac_50') ? ['us_ofac_50' as const] : [])];
  return sources.map((source) => {
    const version = bySource.get(source);
    const attempt = attempts.get(source);
    const lastGood = good.get(source);
    const stale =
      !version ||
      !lastGood ||
      now - new Date(lastGood).getTime() > config.staleAfterMs ||
      attempt?.status === 'rejected';
    return {
      source,
      records: version?.record_count ?? 0,
      version: version?.id ?? null,
      publishedAt: version?.published_at ?? null,
      fetchedAt: lastGood ?? null,
      lastAttemptAt: attempt?.fetched_at ?? null,
      lastAttemptStatus: attempt?.status ?? null,
      lastError: attempt?.status === 'rejected' ? attempt.message : null,
      stale,
      format: version?.format ?? null,
    };
  });
}
