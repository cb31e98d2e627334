import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { appendAuditPending, auditPendingInsert } from '../audit/index.js';
import { BatchWriter } from '../infra/batch-writer.js';
import type { MatchingConfig } from '../infra/config.js';
import type { Call } from '../infra/context.js';
import { type Db, isPostgres } from '../infra/database.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { observeScreening } from '../infra/metrics.js';
import type { ListSnapshot } from '../lists/index.js';
import type { StageTimings } from '../infra/stage-timings.js';
import {
  addUsage,
  assertQuotaLeft,
  assertTicketFresh,
  type Caller,
  type CallerContext,
  consumeQuota,
  noteQuotaUsedUp,
  quotaMonth,
  type QuotaTicket,
  type RedisQuota,
  type UsageAddition,
  usageInsert,
} from '../tenants/index.js';
import {
  checkIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from './idempotency.js';
import { canonicalIdentifiers, storedIdentifiers, storedWarnings } from './identifiers-input.js';
import { BUILT_IN_PROFILE, type ProfileResolver } from './applied-profile.js';
import {
  annotateMatches,
  customerKeyOf,
  entityIdsOf,
  type Lapse,
  latestDecisions,
  newLapses,
  recordLapses,
  type Suppressions,
  suppressionsFor,
} from '../decisions/index.js';
import { engineVersion } from './engine-version.js';
import { type ScreeningRequest, validateScreeningRequest } from './screen-input.js';
import { parseDateBound } from '../infra/request-dates.js';
import { screeningAuditEvent } from './screening-audit.js';
import type { Screener, ScreenHints } from './screener.js';
import { matchSubject, type ReplayedScreening, type ScreeningOutcome } from './screening-pipeline.js';
import type { ScreenRequestBody } from './screening-schemas.js';
import { screeningRecord, screeningResultJson, screeningSummary } from './screening-response.js';
import { type ScreeningRow, ScreeningStore, screeningsInsert } from './screening-store.js';
import { searchKey } from './search-key.js';

/** Which searches an organization monitors: the monitoring domain answers (start/services.ts wires it). */
export interface MonitoredSearches {
  isMonitored(orgId: string, searchKey: string): Promise<boolean>;
  monitoredAmong(orgId: string, searchKeys: string[]): Promise<Set<string>>;
}

export interface ScreeningDeps {
  matching: MatchingConfig;
  /** The lists in force on this node; undefined until they are loaded. */
  lists: () => ListSnapshot<Screener> | undefined;
  monitored: (db: Db) => MonitoredSearches;
  /** The monthly quota counted in Redis (REDIS_URL); without it, in the usage row of each screening's transaction. */
  quota?: RedisQuota;
  /** The screening profile of a caller (src/profiles/); left out, every screening runs under the built-in default. */
  profileOf?: ProfileResolver;
}

/**
 * A write that commits with the screening, in its transaction (batches mark their row done with it):
 * it runs after the quota unit is taken and before the screening is inserted. It must check before it
 * writes, as every job of the group commit does (a throw keeps what the job wrote before it).
 */
export type AlongsideWrite = (trx: Db, screening: ScreeningRow) => Promise<void>;

/** What POST /screen, the console and a batch row hand the pipeline. */
export interface ScreenCallInput {
  body: ScreenRequestBody;
  idempotencyKey?: string | undefined;
  /** Batch rows (src/batches/): written in the screening's own transaction. */
  alongside?: AlongsideWrite;
  /**
   * Batch rows: no one waits on this one screening, so its commit may wait a few milliseconds to be
   * shared with others (infra/batch-writer.ts), and without an idempotency key neither the response
   * body nor `isMonitored` is made. It is stored exactly as any other.
   */
  background?: boolean;
}

export interface ListScreeningsInput {
  page: number;
  pageSize: number;
  riskLevel?: string;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
  externalId?: string;
}

/**
 * What a replay must repeat: the validated body. Identifiers enter normalized and in one order (two
 * writings of one number are one body), and only when there are some, so a body without them hashes
 * as it always has.
 */
function requestHash(input: ScreeningRequest): string {
  const ids = input.identifiers.length ? [canonicalIdentifiers(input.identifiers)] : [];
  return createHash('sha256')
    .update(
      JSON.stringify([
        input.name,
        input.entityType,
        input.country,
        input.birthDate,
        input.groupByCluster,
        input.externalId,
        ...ids,
      ]),
    )
    .digest('hex');
}

function listsNotReady(): AppError {
  return new AppError(
    'LISTS_NOT_READY',
    'the sanctions lists are not loaded yet; retry shortly (GET /health shows progress)',
    { headers: { 'Retry-After': '30' } },
  );
}

/** A snapshot's sources and versions as stored with each screening: the same text for every screening against it. */
const storedForms = new WeakMap<ListSnapshot<Screener>, { usedSources: string; listVersions: string }>();

function storedLists(lists: ListSnapshot<Screener>): { usedSources: string; listVersions: string } {
  let stored = storedForms.get(lists);
  if (!stored) {
    stored = { usedSources: JSON.stringify(lists.sources), listVersions: JSON.stringify(lists.versions) };
    storedForms.set(lists, stored);
  }
  return stored;
}

interface ScreeningWrite {
  caller: Caller;
  row: ScreeningRow;
  now: Date;
  idempotencyKey: string | undefined;
  responseJson: string;
  suppressions: Suppressions;
  /** Suppressions found lapsed by this screening: written into their decisions with it. */
  lapses: Lapse[];
  alongside: AlongsideWrite | undefined;
  /** The quota is counted in Redis: the usage table is added to once per batch, not per screening. */
  countedInRedis: boolean;
  /** The unit taken in Redis, for a limited quota. */
  ticket: QuotaTicket | undefined;
}

/**
 * The quota unit, the stored screening and the idempotency record of each POST /screen commit
 * together or not at all, in group commits (infra/batch-writer.ts): one per database.
 */
const writers = new WeakMap<Db, BatchWriter<ScreeningWrite>>();

/** What a batch adds to the usage table: one row per organization and month, for quotas counted in Redis. */
function usageOf(jobs: ScreeningWrite[]): UsageAddition[] {
  const usage = new Map<string, UsageAddition>();
  for (const job of jobs) {
    if (!job.countedInRedis) continue;
    const month = quotaMonth(job.now);
    const key = `${job.caller.orgId} ${month}`;
    const entry = usage.get(key);
    if (entry) entry.count++;
    else usage.set(key, { orgId: job.caller.orgId, month, count: 1 });
  }
  // The usage row of each organization is locked in one order by every batch.
  return [...usage.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
}

/**
 * A screening that writes nothing but its record, its audit entry and its usage: the quota counted
 * in Redis, no idempotency record, no batch row, no lapsed suppression. On PostgreSQL a batch of
 * these is one statement: a round trip instead of five (BEGIN, the inserts, COMMIT).
 */
function plain(job: ScreeningWrite): boolean {
  return (
    job.countedInRedis && job.idempotencyKey === undefined && job.alongside === undefined && job.lapses.length === 0
  );
}

function writerFor(db: Db): BatchWriter<ScreeningWrite> {
  let writer = writers.get(db);
  if (!writer) {
    const store = new ScreeningStore(db);
    writer = new BatchWriter<ScreeningWrite>(db, {
      apply: async (trx, job) => {
        // consumeQuota checks before it writes, so a refused job leaves nothing behind in the batch.
        if (!job.countedInRedis) await consumeQuota(db, trx, job.caller, job.now);
        else if (job.ticket) assertTicketFresh(job.ticket);
        await job.alongside?.(trx, job.row);
        // The screening itself is stored by `finish`, with the batch's others in one statement.
        if (job.idempotencyKey !== undefined) {
          await completeIdempotencyKey(db, trx, {
            orgId: job.caller.orgId,
            key: job.idempotencyKey,
            body: job.responseJson,
            screeningId: job.row.id,
          });
        }
      },
      // The usage row of each organization is locked in one order by every batch.
      lockKey: (job) => job.caller.orgId,
      // The batch's screenings, its usage and its audit entries, after the jobs' checks and writes.
      finish: async (trx, jobs) => {
        await store.insertMany(
          jobs.map((job) => job.row),
          trx,
        );
        // Quotas counted in Redis: the durable usage, one addition per organization and month.
        for (const added of usageOf(jobs)) await addUsage(db, trx, added);
        const events = [];
        for (const job of jobs) {
          if (job.lapses.length > 0)
            events.push(
              ...(await recordLapses(db, trx, job.lapses, {
                orgId: job.caller.orgId,
                actor: job.caller.userId,
                screeningId: job.row.id,
              })),
            );
          events.push(screeningAuditEvent(job.row, job.caller.userId, job.suppressions, job.lapses));
        }
        // Without the chain's head: the sealer places and seals them (audit/audit-seal.ts).
        await appendAuditPending(db, trx, events);
      },
      ...(isPostgres(db)
        ? {
            direct: {
              accepts: plain,
              check: (job: ScreeningWrite) => {
                if (job.ticket) assertTicketFresh(job.ticket);
              },
              // PostgreSQL runs every part of a WITH, and commits the one statement whole or not at all.
              write: async (jobs: ScreeningWrite[]) => {
                const usage = usageOf(jobs);
                const events = jobs.map((job) => screeningAuditEvent(job.row, job.caller.userId, job.suppressions, []));
                const screened = screeningsInsert(
                  db,
                  jobs.map((job) => job.row),
                );
                const audited = auditPendingInsert(db, events);
                const counted = usage.length > 0 ? usageInsert(db, usage) : sql`select 1`;
                await sql`with screened as (${screened}), audited as (${audited}) ${counted}`.execute(db);
              },
            },
          }
        : {}),
    });
    writers.set(db, writer);
  }
  return writer;
}

/** What `screenAndStore` works on: the call, its validated request, the snapshot, the quota unit taken. */
interface ScreeningStep {
  ctx: CallerContext;
  input: ScreenCallInput;
  request: ScreeningRequest;
  lists: ListSnapshot<Screener>;
  now: Date;
  idempotencyKey: string | undefined;
  ticket: QuotaTicket | undefined;
}

/**
 * The hints of a screening's matching step, and the Server-Timing marks of its round trip to the
 * matching thread (its wait in the queue, and the matching itself) once it is back.
 */
function matchTimings(timings: StageTimings | undefined, background: boolean) {
  let matchMs: number | undefined;
  let hints: ScreenHints | undefined;
  if (background || timings) {
    hints = {};
    if (background) hints.background = true;
    if (timings) hints.matched = (ms: number) => (matchMs = ms);
  }
  return {
    hints,
    record: () => {
      if (!timings) return;
      timings.mark('queue');
      if (matchMs !== undefined) timings.split('queue', 'match', matchMs);
    },
  };
}

/** The stored record of a screening (the screenings table's row). */
function screeningRow(parts: {
  outcome: ScreeningOutcome;
  request: ScreeningRequest;
  caller: Caller;
  searchKey: string;
  groupByCluster: boolean;
  lists: ListSnapshot<Screener>;
}): ScreeningRow {
  const { outcome, request, caller } = parts;
  const stored = storedLists(parts.lists);
  return {
    id: outcome.screeningId,
    org_id: caller.orgId,
    key_id: caller.keyId,
    query: request.name,
    search_key: parts.searchKey,
    entity_type: request.entityType,
    country: request.country,
    birth_date: request.birthDate,
    group_by_cluster: parts.groupByCluster ? 1 : 0,
    risk_score: outcome.riskScore,
    risk_level: outcome.riskLevel,
    confidence: outcome.confidence,
    entity_id: outcome.entityId,
    entity_name: outcome.entityName,
    matched_sources: JSON.stringify(outcome.matchedSources),
    used_sources: stored.usedSources,
    list_versions: stored.listVersions,
    match_details: outcome.matchesJson,
    external_id: request.externalId,
    engine_version: engineVersion(),
    created_at: outcome.createdAt,
    identifiers: storedIdentifiers(request.identifiers),
    warnings: storedWarnings(request.warnings),
    profile_id: outcome.profileId,
    profile_version: outcome.profileVersion,
  };
}

export type ScreeningService = ReturnType<typeof screeningService>;

/** POST /screen, GET /screenings, GET /screenings/{id} (api-v1.md 2.2-2.3a, 4.1-4.3; DECISIONS.md). */
export function screeningService(deps: ScreeningDeps) {
  /** Suppressions, matching, the outcome and its record, then the group commit (quota, record, idempotency, audit). */
  async function screenAndStore(step: ScreeningStep): Promise<ScreeningOutcome> {
    const { ctx, input, request, lists, now, idempotencyKey } = step;
    const { db, clock, caller, timings } = ctx;
    const key = searchKey(request);
    // Cleared matches of this customer (suppression.ts): one indexed read, nothing more when there are none.
    const suppressions = await suppressionsFor(db, clock, {
      orgId: caller.orgId,
      customerKey: customerKeyOf(request.externalId, key),
      searchKey: key,
      lists,
    });
    timings?.mark('prep');
    const timed = matchTimings(timings, input.background === true);
    const profile = deps.profileOf ? await deps.profileOf(db, caller.orgId, caller.keyId) : BUILT_IN_PROFILE;
    const groupByCluster = request.groupByClusterGiven ? request.groupByCluster : profile.groupByCluster;
    const matchingStarted = performance.now();
    const matches = await matchSubject(lists, request, {
      matching: deps.matching,
      profile,
      suppressed: [...suppressions.suppressed.keys()],
      groupByCluster,
      ...(timed.hints ? { hints: timed.hints } : {}),
    });
    timed.record();
    // A background screening (a batch row) has no one to answer: no isMonitored read unless an
    // idempotency record keeps the response; its caller reads what it stored.
    const answered = input.background !== true || idempotencyKey !== undefined;
    // Written out, not spread from `matches`: see HOT_PATH in eslint.config.js.
    const outcome: ScreeningOutcome = {
      riskScore: matches.riskScore,
      riskLevel: matches.riskLevel,
      confidence: matches.confidence,
      entityId: matches.entityId,
      entityName: matches.entityName,
      matchedSources: matches.matchedSources,
      matchCount: matches.matchCount,
      suppressedCount: matches.suppressedCount,
      countedEntityIds: matches.countedEntityIds,
      profileId: matches.profileId,
      profileVersion: matches.profileVersion,
      replayed: false,
      screeningId: newId('scr', now),
      matchesJson: annotateMatches(matches.matchesJson, suppressions),
      suppressions,
      warnings: request.warnings,
      listVersions: lists.versions,
      isMonitored: answered ? await deps.monitored(db).isMonitored(caller.orgId, key) : null,
      createdAt: now.toISOString(),
    };
    const row = screeningRow({ outcome, request, caller, searchKey: key, groupByCluster, lists });
    timings?.mark('build');
    // The response is sent only once the screening, its quota unit and its idempotency record are committed.
    await writerFor(db).submit(
      {
        caller,
        row,
        now,
        idempotencyKey,
        responseJson: idempotencyKey !== undefined ? screeningResultJson(outcome) : '',
        suppressions,
        lapses: newLapses(suppressions),
        alongside: input.alongside,
        countedInRedis: deps.quota !== undefined,
        ticket: step.ticket,
      },
      { background: input.background === true },
    );
    timings?.mark('write');
    observeScreening(outcome.riskLevel, outcome.matchedSources, (performance.now() - matchingStarted) / 1000);
    return outcome;
  }

  return {
    /**
     * The one screening pipeline: validate, replay or claim the idempotency key, take the quota
     * unit, then screen and store (`screenAndStore`). A replay answers the stored body as it was.
     */
    async screen({ ctx, input }: Call<ScreenCallInput, CallerContext>): Promise<ScreeningOutcome | ReplayedScreening> {
      const { db, clock, caller } = ctx;
      const now = clock.now();
      const idempotencyKey = checkIdempotencyKey(input.idempotencyKey);
      const request = validateScreeningRequest(input.body, now);
      // The one lists-ready check: this snapshot is screened against and named by the record.
      const lists = deps.lists();
      if (!lists) throw listsNotReady();

      if (idempotencyKey !== undefined) {
        // A replay costs nothing, even with the quota used up: check it before the quota.
        const claim = await claimIdempotencyKey(db, clock, {
          orgId: caller.orgId,
          key: idempotencyKey,
          hash: requestHash(request),
        });
        if (claim.kind === 'replay')
          return { replayed: true, status: claim.status, json: claim.json, screeningId: claim.screeningId };
      }

      let ticket: QuotaTicket | undefined;
      try {
        if (deps.quota) ticket = await deps.quota.take(db, caller, now);
        else assertQuotaLeft(db, caller, now);
        return await screenAndStore({ ctx, input, request, lists, now, idempotencyKey, ticket });
      } catch (error) {
        // Refused by the take of a committed batch: the next request of this month is refused before matching.
        if (!deps.quota && error instanceof AppError && error.code === 'TIER_LIMIT_EXCEEDED')
          noteQuotaUsedUp(db, caller, now);
        // Nothing was stored: the unit goes back (a failure to give it back leaves it counted, the safe side).
        await ticket?.release().catch(() => undefined);
        if (idempotencyKey !== undefined) await releaseIdempotencyKey(db, caller.orgId, idempotencyKey);
        throw error;
      }
    },

    /** The full record; another organization's screening is a 404. */
    async getScreening({ ctx, input }: Call<{ id: string }, CallerContext>) {
      const row = await new ScreeningStore(ctx.db).byId(ctx.caller.orgId, input.id);
      if (!row) throw notFound(`screening "${input.id}"`);
      const record = screeningRecord(row, await deps.monitored(ctx.db).isMonitored(ctx.caller.orgId, row.search_key));
      // Each match's latest decision about this customer.
      const latest = await latestDecisions(ctx.db, ctx.caller.orgId, customerKeyOf(row.external_id, row.search_key));
      if (latest.size > 0) {
        for (const match of record.matchDetails) {
          const decision = entityIdsOf(match)
            .map((id) => latest.get(id))
            .find((d) => d !== undefined);
          if (decision) match.decision = decision;
        }
      }
      return record;
    },

    /** Newest first, filtered, paginated. */
    async listScreenings({ ctx, input }: Call<ListScreeningsInput, CallerContext>) {
      const from = input.dateFrom !== undefined ? parseDateBound('dateFrom', input.dateFrom, false) : undefined;
      const to = input.dateTo !== undefined ? parseDateBound('dateTo', input.dateTo, true) : undefined;
      if (from && to && from > to) throw validationError('dateFrom', 'must not be after dateTo');
      const { rows, total } = await new ScreeningStore(ctx.db).page(ctx.caller.orgId, {
        page: input.page,
        pageSize: input.pageSize,
        ...(input.riskLevel ? { riskLevel: input.riskLevel } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to, toInclusive: !/^\d{4}-\d{2}-\d{2}$/.test(input.dateTo ?? '') } : {}),
        ...(input.search !== undefined ? { search: input.search } : {}),
        ...(input.externalId !== undefined ? { externalId: input.externalId.trim() } : {}),
      });
      const monitored = await deps
        .monitored(ctx.db)
        .monitoredAmong(ctx.caller.orgId, [...new Set(rows.map((r) => r.search_key))]);
      return { items: rows.map((r) => screeningSummary(r, monitored.has(r.search_key))), total };
    },
  };
}
