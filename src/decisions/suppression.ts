import { createHash } from 'node:crypto';
import type { AuditEvent } from '../audit/index.js';
import type { Clock } from '../infra/clock.js';
import type { Db } from '../infra/database.js';
import { type TableWatch, watchTables } from '../infra/table-watch.js';
import type { ListRecord } from '../lists/index.js';
import { type DecisionRow, DecisionsStore } from './decisions-store.js';

/**
 * Suppression of cleared matches (issue 13, item 3), after OFAC's False Hit Lists Guidance (2015):
 * a false_positive decision keeps its listed entity from raising the risk of the same customer in
 * later screenings, rescreens and batches, only while neither the listing nor the customer changes,
 * and only until its review date. This module is the one place that decides it; every path that
 * screens (POST /screen, monitor rescreens, batches) calls `suppressionsFor` before matching and
 * `annotateMatches` after it.
 */

/** Why a suppression stopped applying. */
export type LapseReason = 'listing_changed' | 'delisted_and_relisted' | 'customer_data_changed' | 'review_date_passed';

export interface Lapse {
  decisionId: string;
  entityId: string;
  reason: LapseReason;
  /** When it lapsed (for a lapse found now, now). */
  at: string;
  /** Found in this screening: not yet written to the decision. */
  isNew: boolean;
}

export interface Suppressions {
  /** Entity id -> the decision that suppresses it. */
  suppressed: Map<string, string>;
  /** False positives on this customer that no longer apply, and why. */
  lapsed: Lapse[];
}

export const NO_SUPPRESSIONS: Suppressions = { suppressed: new Map(), lapsed: [] };

/**
 * Whom a decision is about: the caller's customer reference when the screening had one, else the
 * search itself (DECISIONS.md's "same search": name and filters, ignoring case and spacing).
 */
export function customerKeyOf(externalId: string | null, searchKey: string): string {
  return externalId !== null ? `ext:${externalId}` : `search:${searchKey}`;
}

function sortedUnique(values: string[]): string[] {
  return [...new Set(values)].sort();
}

/**
 * SHA-256 of a listing's major fields: every name (primary and aliases), birth dates, nationalities
 * and citizenships, identifiers and programs. A change to any of them lapses a suppression; remarks,
 * addresses, titles, positions and the like are minor and do not.
 */
export function listingFingerprint(record: ListRecord): string {
  const major = {
    entityType: record.entityType,
    names: sortedUnique([record.name, ...record.aliases.map((a) => a.name)].map((n) => n.normalize('NFC').trim())),
    birthDates: sortedUnique(record.birthDates.map((d) => JSON.stringify(d))),
    nationalities: sortedUnique([...record.nationalities, ...record.citizenships]),
    identifiers: sortedUnique(
      record.identifiers.map((i) => JSON.stringify([i.type, i.value, (i as { country?: string }).country ?? ''])),
    ),
    programs: sortedUnique(record.programs),
  };
  return createHash('sha256').update(JSON.stringify(major)).digest('hex');
}

/** The last effective decision per entity (rows oldest first). */
function latestPerEntity(rows: DecisionRow[]): Map<string, DecisionRow> {
  const latest = new Map<string, DecisionRow>();
  for (const row of rows) if (row.status === 'effective') latest.set(row.entity_id, row);
  return latest;
}

/**
 * What the effective decisions about one customer (oldest first) do to a screening of `searchKey`
 * now, against lists in which `record` finds a listing by entity id.
 */
export function evaluateSuppressions(
  decisions: DecisionRow[],
  at: { searchKey: string; now: Date; record: (entityId: string) => ListRecord | undefined },
): Suppressions {
  if (decisions.length === 0) return NO_SUPPRESSIONS;
  const now = at.now.toISOString();
  const out: Suppressions = { suppressed: new Map(), lapsed: [] };
  for (const decision of latestPerEntity(decisions).values()) {
    if (decision.decision !== 'false_positive') continue;
    if (decision.lapsed_at !== null) {
      out.lapsed.push({
        decisionId: decision.id,
        entityId: decision.entity_id,
        reason: decision.lapse_reason as LapseReason,
        at: decision.lapsed_at,
        isNew: false,
      });
      continue;
    }
    const record = at.record(decision.entity_id);
    let reason: LapseReason | undefined;
    if (decision.delisted_at !== null && record) reason = 'delisted_and_relisted';
    else if (record && decision.fingerprint !== null && listingFingerprint(record) !== decision.fingerprint)
      reason = 'listing_changed';
    else if (decision.customer_data !== at.searchKey) reason = 'customer_data_changed';
    else if (decision.review_at !== null && decision.review_at <= now) reason = 'review_date_passed';
    if (reason)
      out.lapsed.push({ decisionId: decision.id, entityId: decision.entity_id, reason, at: now, isNew: true });
    else out.suppressed.set(decision.entity_id, decision.id);
  }
  return out;
}

interface MatchLike {
  entity?: { id?: string };
  listings?: { entityId?: string }[];
  suppressed?: boolean;
  decisionId?: string;
  suppressionLapsed?: { decisionId: string; reason: string; lapsedAt: string };
}

/** Entity ids a match stands for: its row and, grouped, every listing's. */
export function entityIdsOf(match: MatchLike): string[] {
  const ids = match.entity?.id ? [match.entity.id] : [];
  for (const listing of match.listings ?? [])
    if (listing.entityId && !ids.includes(listing.entityId)) ids.push(listing.entityId);
  return ids;
}

/**
 * The matches JSON with each suppressed match's decision id, and each match whose suppression lapsed
 * marked with the decision and the reason. Unchanged (the same text) when nothing applies.
 */
export function annotateMatches(matchesJson: string, suppressions: Suppressions): string {
  if (suppressions.suppressed.size === 0 && suppressions.lapsed.length === 0) return matchesJson;
  const matches = JSON.parse(matchesJson) as MatchLike[];
  const lapsedBy = new Map(suppressions.lapsed.map((lapse) => [lapse.entityId, lapse]));
  for (const match of matches) {
    const ids = entityIdsOf(match);
    if (match.suppressed) {
      const decisionId = ids.map((id) => suppressions.suppressed.get(id)).find((found) => found !== undefined);
      if (decisionId) match.decisionId = decisionId;
      continue;
    }
    const lapse = ids.map((id) => lapsedBy.get(id)).find((found) => found !== undefined);
    if (lapse) match.suppressionLapsed = { decisionId: lapse.decisionId, reason: lapse.reason, lapsedAt: lapse.at };
  }
  return JSON.stringify(matches);
}

/** Lapses found now, for the matched entities only: what a screening records (the decision and the audit log). */
export function newLapses(suppressions: Suppressions): Lapse[] {
  return suppressions.lapsed.filter((lapse) => lapse.isNew);
}

/** Writes lapses found by a screening into their decisions, with their audit entries (inside `trx`). */
export async function recordLapses(
  db: Db,
  trx: Db,
  lapses: Lapse[],
  audit: { orgId: string; actor: string; screeningId?: string },
): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  const store = new DecisionsStore(db);
  for (const lapse of lapses) {
    if (!(await store.lapse(lapse.decisionId, lapse.at, lapse.reason, trx))) continue;
    events.push({
      chain: audit.orgId,
      event: 'decision.lapsed',
      actor: audit.actor,
      subject: lapse.decisionId,
      at: lapse.at,
      data: {
        entityId: lapse.entityId,
        reason: lapse.reason,
        ...(audit.screeningId ? { screeningId: audit.screeningId } : {}),
      },
    });
  }
  return events;
}

/** The list-version fingerprint each database's review has reached on this node. */
const reviewedUpTo = new WeakMap<Db, string>();
const running = new WeakMap<Db, Promise<number>>();

/**
 * The suppression review: looks at every activated list version not reviewed yet, oldest first, and
 * marks the live false positives on entities its source no longer lists (`delisted_at`), so that the
 * listing alerts again once it is listed again, even when no screening ran while it was away.
 * Versions whose records were pruned before the review are passed over. Returns the decisions marked.
 */
export function reviewListVersions(db: Db, clock: Clock): Promise<number> {
  let run = running.get(db);
  if (!run) {
    run = doReview(db, clock).finally(() => running.delete(db));
    running.set(db, run);
  }
  return run;
}

async function doReview(db: Db, clock: Clock): Promise<number> {
  const store = new DecisionsStore(db);
  let marked = 0;
  for (const version of await store.unreviewedVersions()) {
    const at = clock.now().toISOString();
    const live = await store.liveOnSource(version.source, version.activated_at!);
    if (live.length > 0) {
      const recordIds = live.map((d) => d.entity_id.slice(version.source.length + 1));
      const present = await store.recordsPresent(version.id, recordIds, version.record_count);
      if (present) {
        const gone = live.filter((d, i) => !present.has(recordIds[i]!)).map((d) => d.id);
        await store.markDelisted(gone, version.activated_at!);
        marked += gone.length;
      }
    }
    await store.markReviewed(version.id, at);
  }
  return marked;
}

/** Runs the review unless this node already reviewed up to the lists `fingerprint` names. */
export async function ensureReviewed(db: Db, clock: Clock, fingerprint: string): Promise<void> {
  if (reviewedUpTo.get(db) === fingerprint) return;
  await reviewListVersions(db, clock);
  reviewedUpTo.set(db, fingerprint);
}

/**
 * Which organizations have any effective decision, kept in memory while the decisions table does not
 * change (infra/table-watch.ts; on PostgreSQL the table's trigger tells every node, migration 0023):
 * most screenings then skip the read of their customer's decisions. Without a working watch
 * (PostgreSQL while its listening connection is down) every screening reads.
 */
const decidingOrgs = new WeakMap<Db, { watch: TableWatch | undefined; version?: number; orgs?: Set<string> }>();

async function mayHaveDecisions(db: Db, orgId: string): Promise<boolean> {
  let cache = decidingOrgs.get(db);
  if (!cache) {
    cache = { watch: watchTables(db, ['decisions']) };
    decidingOrgs.set(db, cache);
  }
  const version = cache.watch?.version();
  if (version === undefined) return true;
  if (cache.version !== version || !cache.orgs) {
    cache.orgs = await new DecisionsStore(db).orgsWithEffective();
    // A change while reading: read again next time.
    cache.version = cache.watch?.version() === version ? version : undefined;
  }
  return cache.orgs.has(orgId);
}

/**
 * The suppressions of one customer for a screening about to run: reads its effective decisions
 * (one indexed query; nothing more when there are none), brings the review up to the lists in use,
 * and evaluates them.
 */
export async function suppressionsFor(
  db: Db,
  clock: Clock,
  q: {
    orgId: string;
    customerKey: string;
    searchKey: string;
    lists: { fingerprint: string; record: (entityId: string) => ListRecord | undefined };
  },
): Promise<Suppressions> {
  if (!(await mayHaveDecisions(db, q.orgId))) return NO_SUPPRESSIONS;
  const store = new DecisionsStore(db);
  let rows = await store.forCustomer(q.orgId, q.customerKey);
  if (rows.length === 0) return NO_SUPPRESSIONS;
  if (reviewedUpTo.get(db) !== q.lists.fingerprint) {
    await ensureReviewed(db, clock, q.lists.fingerprint);
    rows = await store.forCustomer(q.orgId, q.customerKey);
  }
  return evaluateSuppressions(rows, { searchKey: q.searchKey, now: clock.now(), record: q.lists.record });
}

/** Effective decisions of many customers at once (a rescreen batch), by `customerGroupKey`, oldest first. */
export async function decisionsByCustomer(db: Db, customerKeys: string[]): Promise<Map<string, DecisionRow[]>> {
  const rows = await new DecisionsStore(db).effectiveForCustomers([...new Set(customerKeys)]);
  const out = new Map<string, DecisionRow[]>();
  for (const row of rows) {
    const key = customerGroupKey(row.org_id, row.customer_key);
    const list = out.get(key);
    if (list) list.push(row);
    else out.set(key, [row]);
  }
  return out;
}

export function customerGroupKey(orgId: string, customerKey: string): string {
  return `${orgId}\u0000${customerKey}`;
}
