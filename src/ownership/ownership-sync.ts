import { createHash } from 'node:crypto';
import type { Context } from '../infra/context.js';
import { newId } from '../infra/ids.js';
import { type ListRecord, ListStore, type SyncOutcome } from '../lists/index.js';
import { deriveBlockedWithStats } from './derive.js';
import { loadOwnershipDir, type OwnershipData } from './loader.js';

/**
 * The derived source us_ofac_50: the OFAC 50 percent rule applied to the ownership data in
 * OWNERSHIP_DIR, starting from the SDN entries of the us_ofac version in force. It is stored as a
 * list version like the official sources (so every node screens against the same derivation), and
 * re-derived whenever the ownership files or the us_ofac version change.
 */

type ListVersion = NonNullable<Awaited<ReturnType<ListStore['activeVersion']>>>;

/** One sync run: the store, the times it records, and the outcome fields of the version in force. */
interface SyncRun {
  ctx: Context;
  store: ListStore;
  now: Date;
  fetchedAt: string;
  elapsed: () => number;
  base: Pick<SyncOutcome, 'version' | 'records' | 'publishedAt'> & { source: 'us_ofac_50' };
}

/** What a derivation is made from, and the fields every recorded attempt carries. */
interface DerivationInput {
  ownership: OwnershipData;
  sha256: string;
  format: string;
  files: string;
}

async function recordUnchanged(run: SyncRun, current: ListVersion, input: DerivationInput): Promise<SyncOutcome> {
  const tookMs = run.elapsed();
  await run.store.recordAttempt({
    id: newId('lv', run.now),
    source: 'us_ofac_50',
    status: 'unchanged',
    fetched_at: run.fetchedAt,
    published_at: current.published_at,
    sha256: input.sha256,
    record_count: current.record_count,
    format: input.format,
    files: input.files,
    message: `same input as ${current.id}`,
    took_ms: tookMs,
    activated_at: null,
  });
  return { ...run.base, status: 'unchanged', tookMs, message: null, format: input.format };
}

async function activateDerivation(run: SyncRun, ofac: ListVersion, input: DerivationInput): Promise<SyncOutcome> {
  const { ownership, sha256, format, files } = input;
  const listed = (await run.store.records(ofac.id)).filter((r: ListRecord) => r.list === undefined || r.list === 'SDN');
  const { records } = deriveBlockedWithStats({ listed, ownership });
  const id = newId('lv', run.now);
  const publishedAt = ownership.asOf ?? null;
  // No sanity guard on record counts here: a derivation may legitimately shrink (a divestment) or be empty.
  await run.store.activate(
    {
      id,
      source: 'us_ofac_50',
      status: 'active',
      fetched_at: run.fetchedAt,
      published_at: publishedAt,
      sha256,
      record_count: records.length,
      format,
      files,
      message: ownership.warnings.length
        ? `${ownership.warnings.length} warning(s): ${ownership.warnings.slice(0, 3).join('; ')}`
        : null,
      took_ms: run.elapsed(),
      activated_at: run.ctx.clock.now().toISOString(),
    },
    records,
  );
  return {
    source: 'us_ofac_50',
    status: 'updated',
    version: id,
    records: records.length,
    publishedAt,
    tookMs: run.elapsed(),
    message: null,
    format,
  };
}

export async function syncDerived(ctx: Context, ownershipDir: string): Promise<SyncOutcome> {
  // Durations are measured on the monotonic timer; the clock gives the times that are recorded.
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const store = new ListStore(ctx.db);
  const current = await store.activeVersion('us_ofac_50');
  const now = ctx.clock.now();
  const fetchedAt = now.toISOString();
  const base = {
    source: 'us_ofac_50' as const,
    version: current?.id ?? null,
    records: current?.record_count ?? 0,
    publishedAt: current?.published_at ?? null,
  };
  const run: SyncRun = { ctx, store, now, fetchedAt, elapsed, base };
  const ofac = await store.activeVersion('us_ofac');
  if (!ofac) {
    return {
      ...base,
      status: 'skipped',
      tookMs: elapsed(),
      message: 'no us_ofac version in force to derive from',
      format: null,
    };
  }

  let ownership;
  try {
    ownership = await loadOwnershipDir(ownershipDir);
  } catch (error) {
    const reason = `ownership data could not be read: ${error instanceof Error ? error.message : String(error)}`;
    const tookMs = elapsed();
    await store.recordRejected('us_ofac_50', { id: newId('lv', now), fetchedAt, reason, tookMs });
    return { ...base, status: 'rejected', tookMs, message: reason, format: null };
  }
  // The derivation is a function of the ownership input and the OFAC version: hash both.
  const input: DerivationInput = {
    ownership,
    sha256: createHash('sha256').update(`${ownership.sha256}\0${ofac.id}`).digest('hex'),
    files: JSON.stringify(ownership.files.map((f) => f.file)),
    format: 'OFAC 50% rule over ' + [...new Set(ownership.files.map((f) => f.format))].join(', '),
  };
  if (current && current.sha256 === input.sha256) return recordUnchanged(run, current, input);
  return activateDerivation(run, ofac, input);
}
