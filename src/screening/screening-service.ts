import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../infra/clock.js';
import type { MatchingConfig } from '../infra/config.js';
import type { Db } from '../infra/database.js';
import type { IdempotencyKeysTable, ScreeningsTable } from '../infra/db-schema.js';
import { AppError, notFound, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { BatchWriter } from '../infra/batch-writer.js';
import { parseJsonArray } from '../infra/json.js';
import { prepareQuery, preparedFor } from '../infra/prepared-query.js';
import type { ListSnapshot } from '../lists/list-runtime.js';
import type { EntityType } from '../lists/model.js';
import type { ScreenSummary } from '../matching/outcome.js';
import type { MatchOptions, MatchQuery } from '../matching/types.js';
import type { Caller } from '../tenants/auth.js';
import { assertQuotaLeft, consumeQuota } from '../tenants/quota.js';
import type { ScreenRequestBody } from './screening-schemas.js';
import { isRequestCountryCode } from './request-country.js';
import { searchKey } from './search-key.js';

/** What screening needs from the matching engine. */
export interface Screener {
  screen(query: MatchQuery, options?: MatchOptions): Promise<ScreenSummary>;
}

export interface ScreeningContext {
  db: Db;
  clock: Clock;
  matching: MatchingConfig;
  lists: () => ListSnapshot<Screener> | undefined;
}

/** DECISIONS.md: replays within 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A request still marked running after this long died with its process; its key may be used again. */
const ABANDONED_AFTER_MS = 5 * 60 * 1000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
export const MAX_NAME_LENGTH = 500;

export interface ScreenInput {
  name: string;
  entityType: EntityType | null;
  country: string | null;
  birthDate: string | null;
  groupByCluster: boolean;
}

export interface ScreenResponse {
  status: number;
  /** The response body, serialized: the matches arrive as JSON from the matching thread. */
  json: string;
  replayed: boolean;
}

function isRealDate(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Validation of DECISIONS.md beyond what the schema checks; every error names its field. */
export function validateScreenInput(body: ScreenRequestBody, now: Date): ScreenInput {
  const name = body.name.trim();
  if (name.length === 0) throw validationError('name', 'must not be empty');
  if ([...name].length > MAX_NAME_LENGTH)
    throw validationError('name', `must be at most ${MAX_NAME_LENGTH} characters`);
  let country: string | null = null;
  if (body.country !== undefined) {
    country = body.country.toUpperCase();
    if (!isRequestCountryCode(country)) {
      const hint = country === 'UK' ? ' (the United Kingdom is GB)' : '';
      throw validationError('country', `"${body.country}" is not an assigned ISO 3166-1 alpha-2 country code${hint}`);
    }
  }
  let birthDate: string | null = null;
  if (body.birthDate !== undefined) {
    if (!isRealDate(body.birthDate))
      throw validationError('birthDate', `"${body.birthDate}" is not a calendar date (YYYY-MM-DD)`);
    if (body.birthDate > now.toISOString().slice(0, 10))
      throw validationError('birthDate', 'must not be in the future');
    birthDate = body.birthDate;
  }
  const entityType =
    body.entityType === undefined ? null : body.entityType === 'business' ? 'organization' : body.entityType;
  return {
    name,
    entityType: entityType as EntityType | null,
    country,
    birthDate,
    groupByCluster: body.groupByCluster ?? false,
  };
}

function requestHash(input: ScreenInput): string {
  return createHash('sha256')
    .update(JSON.stringify([input.name, input.entityType, input.country, input.birthDate, input.groupByCluster]))
    .digest('hex');
}

// The statements of POST /screen: built and compiled once per database.
const queries = preparedFor((db) => ({
  monitored: prepareQuery(db, (db, p: { orgId: string; key: string }) =>
    db
      .selectFrom('monitors')
      .select('id')
      .where('org_id', '=', p.orgId)
      .where('search_key', '=', p.key)
      .where('removed_at', 'is', null),
  ),
  claimKey: prepareQuery(db, (db, p: IdempotencyKeysTable) =>
    db
      .insertInto('idempotency_keys')
      .values({
        org_id: p.org_id,
        key: p.key,
        request_hash: p.request_hash,
        state: p.state,
        response_status: p.response_status,
        response_body: p.response_body,
        screening_id: p.screening_id,
        created_at: p.created_at,
      })
      .onConflict((oc) => oc.columns(['org_id', 'key']).doNothing()),
  ),
  claimedKey: prepareQuery(db, (db, p: { orgId: string; key: string }) =>
    db.selectFrom('idempotency_keys').selectAll().where('org_id', '=', p.orgId).where('key', '=', p.key),
  ),
  takeOverKey: prepareQuery(
    db,
    (db, p: { orgId: string; key: string; hash: string; createdAt: string; previousCreatedAt: string }) =>
      db
        .updateTable('idempotency_keys')
        .set({
          request_hash: p.hash,
          state: 'running',
          response_status: null,
          response_body: null,
          screening_id: null,
          created_at: p.createdAt,
        })
        .where('org_id', '=', p.orgId)
        .where('key', '=', p.key)
        .where('created_at', '=', p.previousCreatedAt),
  ),
  releaseKey: prepareQuery(db, (db, p: { orgId: string; key: string }) =>
    db
      .deleteFrom('idempotency_keys')
      .where('org_id', '=', p.orgId)
      .where('key', '=', p.key)
      .where('state', '=', 'running'),
  ),
  completeKey: prepareQuery(db, (db, p: { orgId: string; key: string; body: string; screeningId: string }) =>
    db
      .updateTable('idempotency_keys')
      .set({ state: 'done', response_status: 200, response_body: p.body, screening_id: p.screeningId })
      .where('org_id', '=', p.orgId)
      .where('key', '=', p.key),
  ),
  insertScreening: prepareQuery(db, (db, p: ScreeningsTable) =>
    db.insertInto('screenings').values({
      id: p.id,
      org_id: p.org_id,
      key_id: p.key_id,
      query: p.query,
      search_key: p.search_key,
      entity_type: p.entity_type,
      country: p.country,
      birth_date: p.birth_date,
      group_by_cluster: p.group_by_cluster,
      risk_score: p.risk_score,
      risk_level: p.risk_level,
      confidence: p.confidence,
      entity_id: p.entity_id,
      entity_name: p.entity_name,
      matched_sources: p.matched_sources,
      used_sources: p.used_sources,
      list_versions: p.list_versions,
      match_details: p.match_details,
      created_at: p.created_at,
    }),
  ),
}));

async function isMonitored(db: Db, orgId: string, key: string): Promise<boolean> {
  return (await queries(db).monitored.first({ orgId, key })) !== undefined;
}

function listsNotReady(): AppError {
  return new AppError(
    'LISTS_NOT_READY',
    'the sanctions lists are not loaded yet; retry shortly (GET /health shows progress)',
    {
      headers: { 'Retry-After': '30' },
    },
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

type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; status: number; json: string };

/** Claims an Idempotency-Key for this request, or says how to answer a repeat of it. */
async function claimIdempotencyKey(
  ctx: ScreeningContext,
  caller: Caller,
  key: string,
  hash: string,
): Promise<IdempotencyClaim> {
  const now = ctx.clock.now();
  const q = queries(ctx.db);
  const inserted = await q.claimKey.affectedRows({
    org_id: caller.orgId,
    key,
    request_hash: hash,
    state: 'running',
    response_status: null,
    response_body: null,
    screening_id: null,
    created_at: now.toISOString(),
  });
  if (inserted > 0) return { kind: 'claimed' };

  const existing = await q.claimedKey.first({ orgId: caller.orgId, key });
  if (!existing) return claimIdempotencyKey(ctx, caller, key, hash);
  const age = now.getTime() - new Date(existing.created_at).getTime();
  const expired = age >= IDEMPOTENCY_WINDOW_MS;
  const abandoned = existing.state === 'running' && age >= ABANDONED_AFTER_MS;
  if (expired || abandoned) {
    // Take the key over, but only if nobody else did in the meantime (compare-and-set on created_at).
    const taken = await q.takeOverKey.affectedRows({
      orgId: caller.orgId,
      key,
      hash,
      createdAt: now.toISOString(),
      previousCreatedAt: existing.created_at,
    });
    if (taken > 0) return { kind: 'claimed' };
    return claimIdempotencyKey(ctx, caller, key, hash);
  }
  if (existing.request_hash !== hash) {
    throw new AppError('IDEMPOTENCY_KEY_MISMATCH', 'this Idempotency-Key was used with a different request body');
  }
  if (existing.state === 'running') {
    throw new AppError('CONFLICT', 'a request with this Idempotency-Key is still being processed');
  }
  return { kind: 'replay', status: existing.response_status ?? 200, json: existing.response_body ?? 'null' };
}

async function releaseIdempotencyKey(db: Db, orgId: string, key: string): Promise<void> {
  await queries(db).releaseKey.execute({ orgId, key });
}

/** POST /screen (api-v1.md 4.1 and DECISIONS.md). */
export async function screen(
  ctx: ScreeningContext,
  caller: Caller,
  body: ScreenRequestBody,
  idempotencyKey: string | undefined,
): Promise<ScreenResponse> {
  const now = ctx.clock.now();
  if (
    idempotencyKey !== undefined &&
    (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)
  ) {
    throw validationError('Idempotency-Key', `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  const input = validateScreenInput(body, now);
  if (!ctx.lists()) throw listsNotReady();

  if (idempotencyKey !== undefined) {
    // A replay costs nothing, even with the quota used up: check it before the quota.
    const claim = await claimIdempotencyKey(ctx, caller, idempotencyKey, requestHash(input));
    if (claim.kind === 'replay') return { status: claim.status, json: claim.json, replayed: true };
  }

  try {
    await assertQuotaLeft(ctx.db, caller, now);
    // The snapshot is taken right where it is used: the screening and its record name the same lists.
    const lists = ctx.lists();
    if (!lists) throw listsNotReady();
    const outcome = await lists.index.screen(
      {
        name: input.name,
        ...(input.entityType ? { entityType: input.entityType } : {}),
        ...(input.country ? { country: input.country } : {}),
        ...(input.birthDate ? { birthDate: input.birthDate } : {}),
      },
      { floor: ctx.matching.floor, maxMatches: ctx.matching.maxMatches, groupByCluster: input.groupByCluster },
    );
    const stored = storedLists(lists);
    const key = searchKey(input);
    const monitored = await isMonitored(ctx.db, caller.orgId, key);
    const id = newId('scr', now.getTime());
    const matchedSources = JSON.stringify(outcome.matchedSources);
    // The envelope around the matches' JSON, in the order of the ScreeningResult schema.
    const json =
      `{"success":true,"data":{"screeningId":${JSON.stringify(id)},"entityId":${JSON.stringify(outcome.entityId)},` +
      `"entityName":${JSON.stringify(outcome.entityName)},"riskScore":${outcome.riskScore},"riskLevel":${JSON.stringify(outcome.riskLevel)},` +
      `"confidence":${outcome.confidence},"matchedSources":${matchedSources},"matchDetails":${outcome.matchesJson},"isMonitored":${monitored}}}`;
    const row: ScreeningsTable = {
      id,
      org_id: caller.orgId,
      key_id: caller.keyId,
      query: input.name,
      search_key: key,
      entity_type: input.entityType,
      country: input.country,
      birth_date: input.birthDate,
      group_by_cluster: input.groupByCluster ? 1 : 0,
      risk_score: outcome.riskScore,
      risk_level: outcome.riskLevel,
      confidence: outcome.confidence,
      entity_id: outcome.entityId,
      entity_name: outcome.entityName,
      matched_sources: matchedSources,
      used_sources: stored.usedSources,
      list_versions: stored.listVersions,
      match_details: outcome.matchesJson,
      created_at: now.toISOString(),
    };
    // The quota unit, the stored screening and the idempotency record commit together or not at all,
    // and the response is sent only once they are committed.
    await writerFor(ctx.db).submit({ caller, row, now, idempotencyKey, responseJson: json });
    return { status: 200, json, replayed: false };
  } catch (error) {
    if (idempotencyKey !== undefined) await releaseIdempotencyKey(ctx.db, caller.orgId, idempotencyKey);
    throw error;
  }
}

interface ScreeningWrite {
  caller: Caller;
  row: ScreeningsTable;
  now: Date;
  idempotencyKey: string | undefined;
  responseJson: string;
}

const writers = new WeakMap<Db, BatchWriter<ScreeningWrite>>();

function writerFor(db: Db): BatchWriter<ScreeningWrite> {
  let writer = writers.get(db);
  if (!writer) {
    const q = queries(db);
    writer = new BatchWriter<ScreeningWrite>(
      db,
      async (trx, w) => {
        // consumeQuota checks before it writes, so a refused job leaves nothing behind in the batch.
        await consumeQuota(db, trx, w.caller, w.now);
        await q.insertScreening.execute(w.row, trx);
        if (w.idempotencyKey !== undefined) {
          await q.completeKey.execute(
            { orgId: w.caller.orgId, key: w.idempotencyKey, body: w.responseJson, screeningId: w.row.id },
            trx,
          );
        }
        // The usage row of each organization is locked in one order by every batch.
      },
      (w) => w.caller.orgId,
    );
    writers.set(db, writer);
  }
  return writer;
}

/** GET /screenings/{id}: the full record, with the list versions it ran against. Another organization's screening is a 404. */
export async function getScreening(ctx: { db: Db }, caller: Caller, id: string) {
  const row = await ctx.db
    .selectFrom('screenings')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', caller.orgId)
    .executeTakeFirst();
  if (!row) throw notFound(`screening "${id}"`);
  const versions = parseJsonArray<{ source: string; version: string; publishedAt: string | null; records: number }>(
    row.list_versions,
  );
  return {
    id: row.id,
    entityId: row.entity_id,
    entityName: row.entity_name,
    query: row.query,
    riskScore: row.risk_score,
    riskLevel: row.risk_level,
    confidence: row.confidence,
    matchedSources: parseJsonArray<string>(row.matched_sources),
    matchDetails: parseJsonArray<unknown>(row.match_details),
    usedSources: parseJsonArray<string>(row.used_sources),
    listVersions: versions,
    isMonitored: await isMonitored(ctx.db, caller.orgId, row.search_key),
    entityType: row.entity_type,
    country: row.country,
    birthDate: row.birth_date,
    groupByCluster: row.group_by_cluster === 1,
    timestamp: row.created_at,
  };
}

export interface ListScreeningsFilter {
  page: number;
  pageSize: number;
  riskLevel?: string;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
}

/** Parses an ISO 8601 date or date-time; a bare date at the end of a range includes that whole day. */
export function parseDateBound(field: string, value: string, endOfDay: boolean): string {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (!dateOnly && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    throw validationError(field, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone');
  }
  if (dateOnly && !isRealDate(value)) throw validationError(field, `"${value}" is not a calendar date`);
  const date = new Date(dateOnly ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) throw validationError(field, 'is not a valid date');
  if (dateOnly && endOfDay) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

/** GET /screenings: newest first, filtered, paginated. */
export async function listScreenings(ctx: { db: Db }, caller: Caller, filter: ListScreeningsFilter) {
  const from = filter.dateFrom !== undefined ? parseDateBound('dateFrom', filter.dateFrom, false) : undefined;
  const toBound = filter.dateTo !== undefined ? parseDateBound('dateTo', filter.dateTo, true) : undefined;
  const toInclusive = filter.dateTo !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(filter.dateTo);
  if (from && toBound && from > toBound) throw validationError('dateFrom', 'must not be after dateTo');
  let query = ctx.db.selectFrom('screenings').where('org_id', '=', caller.orgId);
  if (filter.riskLevel) query = query.where('risk_level', '=', filter.riskLevel);
  if (from) query = query.where('created_at', '>=', from);
  if (toBound) query = query.where('created_at', toInclusive ? '<=' : '<', toBound);
  const search = filter.search?.trim();
  if (search) {
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(query)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(coalesce(entity_name, ''))`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  const totalRow = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const total = Number(totalRow?.n ?? 0);
  const rows = await query
    .select([
      'id',
      'entity_id',
      'entity_name',
      'query',
      'risk_score',
      'risk_level',
      'matched_sources',
      'search_key',
      'created_at',
    ])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize)
    .execute();
  const keys = [...new Set(rows.map((r) => r.search_key))];
  const monitored = new Set<string>();
  if (keys.length > 0) {
    const found = await ctx.db
      .selectFrom('monitors')
      .select('search_key')
      .where('org_id', '=', caller.orgId)
      .where('removed_at', 'is', null)
      .where('search_key', 'in', keys)
      .execute();
    for (const f of found) monitored.add(f.search_key);
  }
  return {
    items: rows.map((r) => ({
      id: r.id,
      entityId: r.entity_id,
      entityName: r.entity_name,
      query: r.query,
      riskScore: r.risk_score,
      riskLevel: r.risk_level,
      matchedSources: parseJsonArray<string>(r.matched_sources),
      isMonitored: monitored.has(r.search_key),
      timestamp: r.created_at,
    })),
    total,
  };
}
