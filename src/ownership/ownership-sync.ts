import { createHash } from 'node:crypto';
import type { Context } from '../infra/context.js';
import { newId } from '../infra/ids.js';
import { type ListRecord, ListStore, type SyncOutcome } from '../lists/index.js';
import { deriveBlockedWithStats } from './derive.js';
import { loadOwnershipDir } from './loader.js';

/**
 * The derived source us_ofac_50: the OFAC 50 percent rule applied to the ownership data in
 * OWNERSHIP_DIR, starting from the SDN entries of the us_ofac version in force. It is stored as a
 * list version like the official sources (so every node screens against the same derivation), and
 * re-derived whenever the ownership files or the us_ofac version change.
 */

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

  const reject = async (reason: string): Promise<SyncOutcome> => {
    const tookMs = elapsed();
    await store.recordRejected('us_ofac_50', { id: newId('lv', now), fetchedAt, reason, tookMs });
    return { ...base, status: 'rejected', tookMs, message: reason, format: null };
  };

  let ownership;
  try {
    ownership = await loadOwnershipDir(ownershipDir);
  } catch (error) {
    return reject(`ownership data could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  // The derivation is a function of the ownership input and the OFAC version: hash both.
  const sha256 = createHash('sha256').update(`${ownership.sha256}\0${ofac.id}`).digest('hex');
  const files = JSON.stringify(ownership.files.map((f) => f.file));
  const format = 'OFAC 50% rule over ' + [...new Set(ownership.files.map((f) => f.format))].join(', ');
  if (current && current.sha256 === sha256) {
    const tookMs = elapsed();
    await store.recordAttempt({
      id: newId('lv', now),
      source: 'us_ofac_50',
      status: 'unchanged',
      fetched_at: fetchedAt,
      published_at: current.published_at,
      sha256,
      record_count: current.record_count,
      format,
      files,
      message: `same input as ${current.id}`,
      took_ms: tookMs,
      activated_at: null,
    });
    return { ...base, status: 'unchanged', tookMs, message: null, format };
  }

  const listed = (await store.records(ofac.id)).filter((r: ListRecord) => r.list === undefined || r.list === 'SDN');
  const { records } = deriveBlockedWithStats({ listed, ownership });
  const id = newId('lv', now);
  const publishedAt = ownership.asOf ?? null;
  // No sanity guard on record counts here: a derivation may legitimately shrink (a divestment) or be empty.
  await store.activate(
    {
      id,
      source: 'us_ofac_50',
      status: 'active',
      fetched_at: fetchedAt,
      published_at: publishedAt,
      sha256,
      record_count: records.length,
      format,
      files,
      message: ownership.warnings.length
        ? `${ownership.warnings.length} warning(s): ${ownership.warnings.slice(0, 3).join('; ')}`
        : null,
      took_ms: elapsed(),
      activated_at: ctx.clock.now().toISOString(),
    },
    records,
  );
  return {
    source: 'us_ofac_50',
    status: 'updated',
    version: id,
    records: records.length,
    publishedAt,
    tookMs: elapsed(),
    message: null,
    format,
  };
}
