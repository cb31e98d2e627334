import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../infra/clock.js';
import type { ListsConfig, OwnershipConfig } from '../infra/config.js';
import { syncDerived } from '../ownership/ownership-sync.js';
import type { Db } from '../infra/database.js';
import { newId } from '../infra/ids.js';
import { ADAPTERS } from './adapters/index.js';
import { downloadSource } from './fetch.js';
import { type ListVersionRow, ListStore } from './list-store.js';
import { type OfficialSourceId, type ParsedList, SOURCE_IDS } from './model.js';

export type SyncStatus = 'updated' | 'unchanged' | 'rejected' | 'skipped';

export interface SyncOutcome {
  source: OfficialSourceId | 'us_ofac_50';
  status: SyncStatus;
  /** The version in force after the sync (the new one when updated). */
  version: string | null;
  records: number;
  publishedAt: string | null;
  tookMs: number;
  message: string | null;
  format: string | null;
}

export type SyncPhase = 'download' | 'parse' | 'store' | 'done';

export interface SyncContext {
  db: Db;
  clock: Clock;
  lists: ListsConfig;
  ownership?: OwnershipConfig;
  onProgress?: (source: OfficialSourceId, phase: SyncPhase, detail?: string) => void;
}

export interface SyncRequest {
  /** Read list files from this directory (one sub-folder per source) instead of downloading. */
  fromDir?: string;
  sources?: OfficialSourceId[];
  /** Ownership data for the derived us_ofac_50 source (default: OWNERSHIP_DIR). */
  ownershipDir?: string;
}

/** SHA-256 over the files that were read, in name order, so the same input always has the same digest. */
async function digestFiles(dir: string, files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    hash.update(`${file}\0`);
    for await (const chunk of createReadStream(join(dir, file))) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

async function sourceDir(
  ctx: SyncContext,
  source: OfficialSourceId,
  request: SyncRequest,
): Promise<string | undefined> {
  const offline = request.fromDir ?? ctx.lists.dir;
  if (offline) {
    const dir = join(offline, source);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.some((e) => e.isFile()) ? dir : undefined;
  }
  const stamp = ctx.clock.now().toISOString().replace(/[:.]/g, '-');
  const dir = join(ctx.lists.downloadDir, source, stamp);
  ctx.onProgress?.(source, 'download');
  await downloadSource(source, ADAPTERS[source].publisherFiles, dir, {
    timeoutMs: ctx.lists.httpTimeoutMs,
    retries: ctx.lists.httpRetries,
    overrides: ctx.lists.urlOverrides,
  });
  return dir;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Syncs one source: obtain the files, parse them in full, apply the sanity guard, and store a new
 * version when the input changed. A failed download, a file that does not parse, or one that yields
 * fewer than LIST_MIN_RECORD_RATIO (80%) of the current version's records is recorded as rejected; the
 * current version stays in force.
 */
export async function syncSource(
  ctx: SyncContext,
  source: OfficialSourceId,
  request: SyncRequest = {},
): Promise<SyncOutcome> {
  const started = Date.now();
  const store = new ListStore(ctx.db);
  const current = await store.activeVersion(source);
  const fetchedAt = ctx.clock.now().toISOString();
  const base = {
    source,
    version: current?.id ?? null,
    records: current?.record_count ?? 0,
    publishedAt: current?.published_at ?? null,
  };

  const reject = async (reason: string, extra: Partial<ListVersionRow> = {}): Promise<SyncOutcome> => {
    const tookMs = Date.now() - started;
    await store.recordRejected(source, { id: newId('lv'), fetchedAt, reason, tookMs }, extra);
    ctx.onProgress?.(source, 'done', 'rejected');
    return { ...base, status: 'rejected', tookMs, message: reason, format: extra.format ?? null };
  };

  let dir: string | undefined;
  try {
    dir = await sourceDir(ctx, source, request);
  } catch (error) {
    return reject(`download failed: ${message(error)}`);
  }
  if (!dir) {
    ctx.onProgress?.(source, 'done', 'skipped');
    return {
      ...base,
      status: 'skipped',
      tookMs: Date.now() - started,
      message: 'no files for this source in the directory',
      format: null,
    };
  }

  ctx.onProgress?.(source, 'parse');
  let parsed: ParsedList;
  try {
    parsed = await ADAPTERS[source].parse(dir);
  } catch (error) {
    return reject(`parse failed: ${message(error)}`);
  }
  const sha256 = await digestFiles(dir, parsed.files);
  const files = JSON.stringify(parsed.files);
  const count = parsed.records.length;
  if (count === 0) return reject('the file(s) yielded no records', { sha256, files, format: parsed.format });
  if (current && count < current.record_count * ctx.lists.minRecordRatio) {
    return reject(
      `sanity guard: ${count} records is fewer than ${Math.round(ctx.lists.minRecordRatio * 100)}% of the current version's ${current.record_count}`,
      { sha256, files, format: parsed.format, record_count: count, published_at: parsed.publishedAt ?? null },
    );
  }
  if (current && current.sha256 === sha256) {
    const tookMs = Date.now() - started;
    await store.recordAttempt({
      id: newId('lv'),
      source,
      status: 'unchanged',
      fetched_at: fetchedAt,
      published_at: parsed.publishedAt ?? null,
      sha256,
      record_count: count,
      format: parsed.format,
      files,
      message: `same input as ${current.id}`,
      took_ms: tookMs,
      activated_at: null,
    });
    ctx.onProgress?.(source, 'done', 'unchanged');
    return { ...base, status: 'unchanged', tookMs, message: null, format: parsed.format };
  }

  ctx.onProgress?.(source, 'store', `${count} records`);
  const id = newId('lv');
  const tookMs = Date.now() - started;
  const warnings = parsed.warnings.length
    ? `${parsed.warnings.length} warning(s): ${parsed.warnings.slice(0, 5).join('; ')}`
    : null;
  await store.activate(
    {
      id,
      source,
      status: 'active',
      fetched_at: fetchedAt,
      published_at: parsed.publishedAt ?? null,
      sha256,
      record_count: count,
      format: parsed.format,
      files,
      message: warnings,
      took_ms: tookMs,
      activated_at: ctx.clock.now().toISOString(),
    },
    parsed.records,
  );
  await store.pruneRecords(3);
  ctx.onProgress?.(source, 'done', 'updated');
  return {
    source,
    status: 'updated',
    version: id,
    records: count,
    publishedAt: parsed.publishedAt ?? null,
    tookMs: Date.now() - started,
    message: warnings,
    format: parsed.format,
  };
}

export async function syncSources(ctx: SyncContext, request: SyncRequest = {}): Promise<SyncOutcome[]> {
  const sources = request.sources ?? [...SOURCE_IDS];
  const out: SyncOutcome[] = [];
  // One at a time: parsing is CPU-bound and memory is bounded per source.
  for (const source of sources) out.push(await syncSource(ctx, source, request));
  // The derived source follows the OFAC list and the ownership data.
  const ownershipDir = request.ownershipDir ?? ctx.ownership?.dir;
  if (ownershipDir && sources.includes('us_ofac')) out.push(await syncDerived(ctx, ownershipDir));
  return out;
}

export interface SourceStatus {
  source: OfficialSourceId | 'us_ofac_50';
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
export async function listStatus(ctx: { db: Db; clock: Clock; lists: ListsConfig }): Promise<SourceStatus[]> {
  const store = new ListStore(ctx.db);
  const [active, attempts, good] = await Promise.all([
    store.activeVersions(),
    store.latestAttempts(),
    store.lastGoodSync(),
  ]);
  const bySource = new Map(active.map((v) => [v.source, v]));
  const now = ctx.clock.now().getTime();
  // The derived source is reported once it has been attempted.
  const sources: (OfficialSourceId | 'us_ofac_50')[] = [
    ...SOURCE_IDS,
    ...(attempts.has('us_ofac_50') ? ['us_ofac_50' as const] : []),
  ];
  return sources.map((source) => {
    const version = bySource.get(source);
    const attempt = attempts.get(source);
    const lastGood = good.get(source);
    const stale =
      !version ||
      !lastGood ||
      now - new Date(lastGood).getTime() > ctx.lists.staleAfterMs ||
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
