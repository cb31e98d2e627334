import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ListsConfig } from '../infra/config.js';
import type { Call, Context } from '../infra/context.js';
import { newId } from '../infra/ids.js';
import { ADAPTERS } from './adapters/index.js';
import { downloadSource } from './fetch.js';
import { type SourceStatus, listStatus } from './list-status.js';
import { type ListVersionRow, ListStore } from './list-store.js';
import { type OfficialSourceId, type ParsedList, SOURCE_IDS, type SourceId } from './model.js';
import {
  type CheckRecord,
  PollStateStore,
  type StoredValidators,
  nextCheckDelay,
  parseValidators,
} from './poll-state.js';

/** `not_modified`: a conditional check found the publisher's files (or the directory) as they were. */
export type SyncStatus = 'updated' | 'unchanged' | 'not_modified' | 'rejected' | 'skipped';

export interface SyncOutcome {
  source: SourceId;
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

export type SyncProgress = (source: OfficialSourceId, phase: SyncPhase, detail?: string) => void;

export interface SyncRequest {
  /** Read list files from this directory (one sub-folder per source) instead of downloading. */
  fromDir?: string;
  sources?: OfficialSourceId[];
  /** Input files of the derived sources (ownership data for us_ofac_50); default: their configured directory. */
  derivedInputDir?: string;
  onProgress?: SyncProgress;
  /**
   * A frequent check (issue 30) rather than a full sync: requests are conditional on the validators of
   * the last good check, a failure is not retried at once (the poll schedule backs off instead), and
   * an unchanged input updates the source's check state without writing a version row.
   */
  poll?: boolean;
}

/**
 * A source derived from an official one (us_ofac_50, from ownership data under the OFAC 50 percent
 * rule): synced after every sync of the source it follows. The lists domain knows it only by this
 * shape; the ownership domain provides it and the composition root (start/) wires it in.
 */
export interface DerivedSource {
  source: Exclude<SourceId, OfficialSourceId>;
  follows: OfficialSourceId;
  /** Undefined when it has nothing to derive from (no input directory configured or given). */
  sync(call: Call<{ inputDir?: string }>): Promise<SyncOutcome | undefined>;
}

export interface ListSyncDeps {
  config: ListsConfig;
  derived?: DerivedSource[];
  /** Jitter of the backoff after failed checks; tests fix it. */
  random?: () => number;
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

/** A cheap digest of a list directory: its files' names, sizes and modification times. */
async function directoryDigest(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  for (const name of entries.sort()) {
    const stats = await stat(join(dir, name));
    hash.update(`${name}\0${stats.size}\0${stats.mtimeMs}\0`);
  }
  return hash.digest('hex');
}

interface Obtained {
  dir: string;
  /** A download folder of this sync (removed when it brings no new version). */
  downloaded: boolean;
  notModified: boolean;
  validators: StoredValidators;
}

async function sourceDir(
  ctx: Context,
  config: ListsConfig,
  source: OfficialSourceId,
  request: SyncRequest,
  known: StoredValidators,
): Promise<Obtained | undefined> {
  const offline = request.fromDir ?? config.dir;
  if (offline) {
    const dir = join(offline, source);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
    const entries = await readdir(dir, { withFileTypes: true });
    if (!entries.some((e) => e.isFile())) return undefined;
    const digest = await directoryDigest(dir);
    return {
      dir,
      downloaded: false,
      notModified: request.poll === true && known.dir === digest,
      validators: { dir: digest },
    };
  }
  const stamp = ctx.clock.now().toISOString().replace(/[:.]/g, '-');
  const dir = join(config.downloadDir, source, stamp);
  request.onProgress?.(source, 'download');
  const result = await downloadSource(source, ADAPTERS[source].publisherFiles, dir, {
    timeoutMs: config.httpTimeoutMs,
    retries: request.poll ? 0 : config.httpRetries,
    overrides: config.urlOverrides,
    ...(request.poll && known.files ? { validators: known.files } : {}),
  });
  return { dir, downloaded: true, notModified: result.notModified, validators: { files: result.validators } };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** One source's sync (listSyncService().syncSource says what it does). */
async function syncOne(
  ctx: Context,
  deps: ListSyncDeps,
  source: OfficialSourceId,
  request: SyncRequest,
): Promise<SyncOutcome> {
  const pollState = new PollStateStore(ctx.db);
  const state = await pollState.get(source);
  let obtained: Obtained | undefined;
  const outcome = await checkOne(ctx, deps.config, source, request, parseValidators(state?.validators), (o) => {
    obtained = o;
  });
  // The source's check state: a good check resets the backoff and keeps the publisher's new
  // validators; a rejected one counts a failure and keeps the old validators, so the next check
  // downloads the file again instead of being told it has not changed since the bad copy.
  const failures = outcome.status === 'rejected' ? (state?.failures ?? 0) + 1 : 0;
  const now = ctx.clock.now();
  const check: CheckRecord = {
    at: now.toISOString(),
    status: outcome.status,
    error: outcome.status === 'rejected' ? outcome.message : null,
    failures,
    nextCheckAt: new Date(
      now.getTime() + nextCheckDelay(deps.config, source, failures, deps.random ?? Math.random),
    ).toISOString(),
    ...(outcome.status !== 'rejected' && obtained ? { validators: obtained.validators } : {}),
  };
  await pollState.record(source, check);
  if (obtained?.downloaded && outcome.status !== 'updated') await rm(obtained.dir, { recursive: true, force: true });
  return outcome;
}

/** What the steps of one check share: the source, its version in force and the check's times. */
interface Check {
  store: ListStore;
  source: OfficialSourceId;
  request: SyncRequest;
  current: ListVersionRow | undefined;
  now: Date;
  fetchedAt: string;
  /** The outcome's fields that stay those of the version in force unless a new one is activated. */
  base: Pick<SyncOutcome, 'source' | 'version' | 'records' | 'publishedAt'>;
  /** ms since the check started (the monotonic timer; the clock gives the recorded times). */
  elapsed: () => number;
}

async function reject(check: Check, reason: string, extra: Partial<ListVersionRow> = {}): Promise<SyncOutcome> {
  const tookMs = check.elapsed();
  await check.store.recordRejected(
    check.source,
    { id: newId('lv', check.now), fetchedAt: check.fetchedAt, reason, tookMs },
    extra,
  );
  check.request.onProgress?.(check.source, 'done', 'rejected');
  return { ...check.base, status: 'rejected', tookMs, message: reason, format: extra.format ?? null };
}

async function checkOne(
  ctx: Context,
  config: ListsConfig,
  source: OfficialSourceId,
  request: SyncRequest,
  known: StoredValidators,
  onObtained: (o: Obtained) => void,
): Promise<SyncOutcome> {
  const started = performance.now();
  const store = new ListStore(ctx.db);
  const current = await store.activeVersion(source);
  const now = ctx.clock.now();
  const check: Check = {
    store,
    source,
    request,
    current,
    now,
    fetchedAt: now.toISOString(),
    base: {
      source,
      version: current?.id ?? null,
      records: current?.record_count ?? 0,
      publishedAt: current?.published_at ?? null,
    },
    elapsed: () => Math.round(performance.now() - started),
  };
  let obtained: Obtained | undefined;
  try {
    obtained = await sourceDir(ctx, config, source, request, known);
  } catch (error) {
    return reject(check, `download failed: ${message(error)}`);
  }
  if (obtained) onObtained(obtained);
  if (obtained?.notModified && current) {
    request.onProgress?.(source, 'done', 'not_modified');
    return { ...check.base, status: 'not_modified', tookMs: check.elapsed(), message: null, format: current.format };
  }
  if (!obtained) {
    request.onProgress?.(source, 'done', 'skipped');
    const note = 'no files for this source in the directory';
    return { ...check.base, status: 'skipped', tookMs: check.elapsed(), message: note, format: null };
  }
  request.onProgress?.(source, 'parse');
  let parsed: ParsedList;
  try {
    parsed = await ADAPTERS[source].parse(obtained.dir);
  } catch (error) {
    return reject(check, `parse failed: ${message(error)}`);
  }
  return storeParsed(ctx, config, check, { parsed, sha256: await digestFiles(obtained.dir, parsed.files) });
}

/**
 * A parsed input: rejected by the sanity guards, recorded as unchanged when it is the version in
 * force again, or activated as the new version.
 */
async function storeParsed(
  ctx: Context,
  config: ListsConfig,
  check: Check,
  input: { parsed: ParsedList; sha256: string },
): Promise<SyncOutcome> {
  const { store, source, request, current, now } = check;
  const { parsed, sha256 } = input;
  const files = JSON.stringify(parsed.files);
  const count = parsed.records.length;
  if (count === 0) return reject(check, 'the file(s) yielded no records', { sha256, files, format: parsed.format });
  if (current && count < current.record_count * config.minRecordRatio) {
    return reject(
      check,
      `sanity guard: ${count} records is fewer than ${Math.round(config.minRecordRatio * 100)}% of the current version's ${current.record_count}`,
      { sha256, files, format: parsed.format, record_count: count, published_at: parsed.publishedAt ?? null },
    );
  }
  const row = {
    source,
    fetched_at: check.fetchedAt,
    published_at: parsed.publishedAt ?? null,
    sha256,
    record_count: count,
    format: parsed.format,
    files,
  };
  if (current && current.sha256 === sha256) {
    const tookMs = check.elapsed();
    request.onProgress?.(source, 'done', 'unchanged');
    const outcome: SyncOutcome = { ...check.base, status: 'unchanged', tookMs, message: null, format: parsed.format };
    // A frequent check that found the same content leaves its trace in the check state only.
    if (request.poll) return outcome;
    const message = `same input as ${current.id}`;
    await store.recordAttempt({
      ...row,
      id: newId('lv', now),
      status: 'unchanged',
      message,
      took_ms: tookMs,
      activated_at: null,
    });
    return outcome;
  }
  request.onProgress?.(source, 'store', `${count} records`);
  const id = newId('lv', now);
  const warnings = parsed.warnings.length
    ? `${parsed.warnings.length} warning(s): ${parsed.warnings.slice(0, 5).join('; ')}`
    : null;
  const activatedAt = ctx.clock.now().toISOString();
  await store.activate(
    { ...row, id, status: 'active', message: warnings, took_ms: check.elapsed(), activated_at: activatedAt },
    parsed.records,
  );
  await store.pruneRecords(3);
  request.onProgress?.(source, 'done', 'updated');
  const publishedAt = parsed.publishedAt ?? null;
  const tookMs = check.elapsed();
  return {
    source,
    status: 'updated',
    version: id,
    records: count,
    publishedAt,
    tookMs,
    message: warnings,
    format: parsed.format,
  };
}

export type ListSyncService = ReturnType<typeof listSyncService>;

/** `lists sync` and `lists status`, the daily refresh and the start-up sync (start/list-jobs.ts). */
export function listSyncService(deps: ListSyncDeps) {
  return {
    /**
     * Syncs one source: obtain the files, parse them in full, apply the sanity guard, and store a new
     * version when the input changed. A failed download, a file that does not parse, or one that yields
     * fewer than LIST_MIN_RECORD_RATIO (80%) of the current version's records is recorded as rejected;
     * the current version stays in force.
     */
    syncSource({ ctx, input }: Call<SyncRequest & { source: OfficialSourceId }>): Promise<SyncOutcome> {
      return syncOne(ctx, deps, input.source, input);
    },

    /** Syncs the sources one at a time, then the derived sources that follow any of them. */
    async syncSources({ ctx, input }: Call<SyncRequest>): Promise<SyncOutcome[]> {
      const sources = input.sources ?? [...SOURCE_IDS];
      const out: SyncOutcome[] = [];
      // One at a time: parsing is CPU-bound and memory is bounded per source.
      for (const source of sources) out.push(await syncOne(ctx, deps, source, input));
      for (const derived of deps.derived ?? []) {
        if (!sources.includes(derived.follows)) continue;
        const outcome = await derived.sync({
          ctx,
          input: input.derivedInputDir !== undefined ? { inputDir: input.derivedInputDir } : {},
        });
        if (outcome) out.push(outcome);
      }
      return out;
    },

    status({ ctx }: Call): Promise<SourceStatus[]> {
      return listStatus(ctx, deps.config);
    },
  };
}
