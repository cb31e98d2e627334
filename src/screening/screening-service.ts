import { createHash } from 'node:crypto';
import { appendAuditPending } from '../audit/index.js';
import { BatchWriter } from '../infra/batch-writer.js';
import type { MatchingConfig } from '../infra/config.js';
import type { Call } from '../infra/context.js';
import type { Db } from '../infra/database.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { observeScreening } from '../infra/metrics.js';
import type { ListSnapshot } from '../lists/index.js';
import {
  addUsage,
  assertQuotaLeft,
  assertTicketFresh,
  type Caller,
  type CallerContext,
  consumeQuota,
  quotaMonth,
  type QuotaTicket,
  type RedisQuota,
} from '../tenants/index.js';
import {
  checkIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
} from './idempotency.js';
import { canonicalIdentifiers, matchIdentifiers, storedIdentifiers, storedWarnings } from './identifiers-input.js';
import { BUILT_IN_PROFILE, profileLevel, type ProfileResolver } from './applied-profile.js';
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
import { type ScreenInput, validateScreenInput } from './screen-input.js';
import { parseDateBound } from '../infra/request-dates.js';
import { screeningAuditEvent } from './screening-audit.js';
import type { Screener } from './screener.js';
import type { ScreenRequestBody } from './screening-schemas.js';
import { screeningRecord, screeningResultJson, screeningSummary } from './screening-response.js';
import { type ScreeningRow, ScreeningStore } from './screening-store.js';
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

export interface ScreenRequest {
  body: ScreenRequestBody;
  idempotencyKey?: string | undefined;
  /** Batch rows (src/batches/): written in the screening's own transaction. */
  alongside?: AlongsideWrite;
  /**
   * Batch rows: no one waits on this one screening, so its commit may wait a few milliseconds to be
   * shared with others (infra/batch-writer.ts), and without an idempotency key no response body is
   * made (`json` is empty). It is stored exactly as any other.
   */
  background?: boolean;
}

export interface ScreenResponse {
  status: number;
  /** The response body, serialized (screening-response.ts says why). */
  json: string;
  replayed: boolean;
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
function requestHash(input: ScreenInput): string {
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

function writerFor(db: Db): BatchWriter<ScreeningWrite> {
  let writer = writers.get(db);
  if (!writer) {
    const store = new ScreeningStore(db);
    writer = new BatchWriter<ScreeningWrite>(
      db,
      async (trx, w) => {
        // consumeQuota checks before it writes, so a refused job leaves nothing behind in the batch.
        if (!w.countedInRedis) await consumeQuota(db, trx, w.caller, w.now);
        else if (w.ticket) assertTicketFresh(w.ticket);
        await w.alongside?.(trx, w.row);
        await store.insert(w.row, trx);
        if (w.idempotencyKey !== undefined) {
          await completeIdempotencyKey(db, trx, {
            orgId: w.caller.orgId,
            key: w.idempotencyKey,
            body: w.responseJson,
            screeningId: w.row.id,
          });
        }
      },
      // The usage row of each organization is locked in one order by every batch.
      (w) => w.caller.orgId,
      undefined,
      undefined,
      // The batch's audit entries, after its other writes.
      async (trx, jobs) => {
        // Quotas counted in Redis: the durable usage, one addition per organization and month.
        const usage = new Map<string, { orgId: string; month: string; count: number }>();
        for (const w of jobs) {
          if (!w.countedInRedis) continue;
          const month = quotaMonth(w.now);
          const key = `${w.caller.orgId} ${month}`;
          const entry = usage.get(key);
          if (entry) entry.count++;
          else usage.set(key, { orgId: w.caller.orgId, month, count: 1 });
        }
        for (const key of [...usage.keys()].sort()) {
          const u = usage.get(key)!;
          await addUsage(db, trx, u.orgId, u.month, u.count);
        }
        const events = [];
        for (const w of jobs) {
          if (w.lapses.length > 0)
            events.push(
              ...(await recordLapses(db, trx, w.lapses, {
                orgId: w.caller.orgId,
                actor: w.caller.userId,
                screeningId: w.row.id,
              })),
            );
          events.push(screeningAuditEvent(w.row, w.caller.userId, w.suppressions, w.lapses));
        }
        // Without the chain's head: the sealer places and seals them (audit/audit-seal.ts).
        await appendAuditPending(db, trx, events);
      },
    );
    writers.set(db, writer);
  }
  return writer;
}

export type ScreeningService = ReturnType<typeof screeningService>;

/** POST /screen, GET /screenings, GET /screenings/{id} (api-v1.md 2.2-2.3a, 4.1-4.3; DECISIONS.md). */
export function screeningService(deps: ScreeningDeps) {
  return {
    async screen({ ctx, input }: Call<ScreenRequest, CallerContext>): Promise<ScreenResponse> {
      const { db, clock, caller } = ctx;
      const now = clock.now();
      const idempotencyKey = checkIdempotencyKey(input.idempotencyKey);
      const request = validateScreenInput(input.body, now);
      if (!deps.lists()) throw listsNotReady();

      if (idempotencyKey !== undefined) {
        // A replay costs nothing, even with the quota used up: check it before the quota.
        const claim = await claimIdempotencyKey(db, clock, {
          orgId: caller.orgId,
          key: idempotencyKey,
          hash: requestHash(request),
        });
        if (claim.kind === 'replay') return { status: claim.status, json: claim.json, replayed: true };
      }

      let ticket: QuotaTicket | undefined;
      try {
        if (deps.quota) ticket = await deps.quota.take(db, caller, now);
        else await assertQuotaLeft(db, caller, now);
        // The snapshot is taken right where it is used: the screening and its record name the same lists.
        const lists = deps.lists();
        if (!lists) throw listsNotReady();
        const key = searchKey(request);
        // Cleared matches of this customer (suppression.ts): one indexed read, nothing more when there are none.
        const suppressions = await suppressionsFor(db, clock, {
          orgId: caller.orgId,
          customerKey: customerKeyOf(request.externalId, key),
          searchKey: key,
          lists,
        });
        const timings = ctx.timings;
        timings?.mark('prep');
        let matchMs: number | undefined;
        const hints =
          input.background === true || timings
            ? {
                ...(input.background === true ? { background: true } : {}),
                ...(timings ? { matched: (ms: number) => (matchMs = ms) } : {}),
              }
            : undefined;
        const profile = deps.profileOf ? await deps.profileOf(db, caller.orgId, caller.keyId) : BUILT_IN_PROFILE;
        const groupByCluster = request.groupByClusterGiven ? request.groupByCluster : profile.groupByCluster;
        const matchingStarted = performance.now();
        const outcome = await lists.index.screen(
          {
            name: request.name,
            ...(request.entityType ? { entityType: request.entityType } : {}),
            ...(request.country ? { country: request.country } : {}),
            ...(request.birthDate ? { birthDate: request.birthDate } : {}),
            ...(request.identifiers.length ? { identifiers: matchIdentifiers(request.identifiers) } : {}),
          },
          {
            floor: deps.matching.floor,
            maxMatches: deps.matching.maxMatches,
            groupByCluster,
            ...profile.options,
            ...(suppressions.suppressed.size > 0 ? { suppressed: [...suppressions.suppressed.keys()] } : {}),
          },
          hints,
        );
        if (timings) {
          // The round trip to the matching thread: its wait in the queue, and the matching itself.
          timings.mark('queue');
          if (matchMs !== undefined) timings.split('queue', 'match', matchMs);
        }
        const matchesJson = annotateMatches(outcome.matchesJson, suppressions);
        const riskLevel = profileLevel(profile, outcome);
        const stored = storedLists(lists);
        const id = newId('scr', now);
        const matchedSources = JSON.stringify(outcome.matchedSources);
        // A background screening (a batch row) has no one to answer: no response body (nor its
        // isMonitored read) unless an idempotency record keeps it; its caller reads what it stored.
        const json =
          input.background === true && idempotencyKey === undefined
            ? ''
            : screeningResultJson({
                screeningId: id,
                entityId: outcome.entityId,
                entityName: outcome.entityName,
                riskScore: outcome.riskScore,
                riskLevel,
                confidence: outcome.confidence,
                matchedSourcesJson: matchedSources,
                matchDetailsJson: matchesJson,
                isMonitored: await deps.monitored(db).isMonitored(caller.orgId, key),
                warningsJson: JSON.stringify(request.warnings),
              });
        const row: ScreeningRow = {
          id,
          org_id: caller.orgId,
          key_id: caller.keyId,
          query: request.name,
          search_key: key,
          entity_type: request.entityType,
          country: request.country,
          birth_date: request.birthDate,
          group_by_cluster: groupByCluster ? 1 : 0,
          risk_score: outcome.riskScore,
          risk_level: riskLevel,
          confidence: outcome.confidence,
          entity_id: outcome.entityId,
          entity_name: outcome.entityName,
          matched_sources: matchedSources,
          used_sources: stored.usedSources,
          list_versions: stored.listVersions,
          match_details: matchesJson,
          external_id: request.externalId,
          engine_version: engineVersion(),
          created_at: now.toISOString(),
          identifiers: storedIdentifiers(request.identifiers),
          warnings: storedWarnings(request.warnings),
          profile_id: profile.id,
          profile_version: profile.version,
        };
        timings?.mark('build');
        // The response is sent only once the screening, its quota unit and its idempotency record are committed.
        await writerFor(db).submit(
          {
            caller,
            row,
            now,
            idempotencyKey,
            responseJson: json,
            suppressions,
            lapses: newLapses(suppressions),
            alongside: input.alongside,
            countedInRedis: deps.quota !== undefined,
            ticket,
          },
          input.background === true,
        );
        timings?.mark('write');
        observeScreening(riskLevel, outcome.matchedSources, (performance.now() - matchingStarted) / 1000);
        return { status: 200, json, replayed: false };
      } catch (error) {
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
        for (const m of record.matchDetails) {
          const decision = entityIdsOf(m)
            .map((id) => latest.get(id))
            .find((d) => d !== undefined);
          if (decision) m.decision = decision;
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
