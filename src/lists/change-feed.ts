import type { Call } from '../infra/context.js';
import type { Db } from '../infra/database.js';
import type { ListChangesTable } from '../infra/db-schema.js';
import { validationError } from '../infra/errors.js';
import type { ChangeField, ChangeKind, FieldDelta } from './list-changes.js';
import { SOURCE_LABELS, type SourceId } from './model.js';

/**
 * GET /v1/lists/changes, `sanctions lists changes` and the console's "Latest changes" (issue 30):
 * the per-entity changes of every activated version, oldest first. Rows are appended in the
 * activation's transaction and never edited, so a cursor (the position of the last change read)
 * names the same place for good: a reader that keeps it misses nothing and reads nothing twice.
 */

export interface ChangeItem {
  id: string;
  source: string;
  sourceLabel: string;
  versionId: string;
  activatedAt: string;
  entityId: string;
  name: string;
  entityType: string;
  kind: ChangeKind;
  major: boolean;
  fields: ChangeField[];
  changes: Partial<Record<ChangeField, FieldDelta>>;
}

export interface ChangeQuery {
  /** A list version id (changes of the versions activated after it) or an ISO 8601 time. */
  since?: string;
  source?: string;
  kind?: ChangeKind;
  /** `meta.next` of an earlier page. */
  cursor?: string;
  pageSize: number;
}

export interface ChangePage {
  items: ChangeItem[];
  /** The cursor to ask with for the changes after this page (the one given when the page is empty). */
  next: string | null;
  hasMore: boolean;
}

type Position = [activatedAt: string, versionId: string, seq: number];

function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify(p)).toString('base64url');
}

function decodeCursor(raw: string): Position {
  try {
    const payload = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(payload) &&
      payload.length === 3 &&
      typeof payload[0] === 'string' &&
      typeof payload[1] === 'string' &&
      Number.isInteger(payload[2])
    )
      return payload as Position;
  } catch {
    // reported below
  }
  throw validationError('cursor', 'is not a cursor this service gave (use meta.next of an earlier page)');
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Where `since` starts the feed: after a version's activation, or after a time. */
async function sinceBound(db: Db, since: string): Promise<{ at: string; versionId?: string }> {
  if (/^lv_/.test(since)) {
    const version = await db
      .selectFrom('list_versions')
      .select(['id', 'activated_at'])
      .where('id', '=', since)
      .executeTakeFirst();
    if (!version?.activated_at) throw validationError('since', `no list version ${since} was ever put in force`);
    return { at: version.activated_at, versionId: version.id };
  }
  const time = ISO_TIME.test(since) ? new Date(since) : undefined;
  if (!time || Number.isNaN(time.getTime()))
    throw validationError('since', 'must be a list version id (lv_...) or an ISO 8601 date or time');
  return { at: time.toISOString() };
}

function toItem(r: ListChangesTable): ChangeItem {
  return {
    id: `${r.version_id}.${r.seq}`,
    source: r.source,
    sourceLabel: SOURCE_LABELS[r.source as SourceId] ?? r.source,
    versionId: r.version_id,
    activatedAt: r.activated_at,
    entityId: `${r.source}:${r.record_id}`,
    name: r.name,
    entityType: r.entity_type,
    kind: r.kind as ChangeKind,
    major: r.major === 1,
    fields: JSON.parse(r.fields) as ChangeField[],
    changes: JSON.parse(r.detail) as Partial<Record<ChangeField, FieldDelta>>,
  };
}

/** One page of the feed, oldest first. */
export async function changePage({ ctx, input }: Call<ChangeQuery>): Promise<ChangePage> {
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const since = input.since ? await sinceBound(ctx.db, input.since) : undefined;
  let query = ctx.db.selectFrom('list_changes').selectAll();
  if (input.source) query = query.where('source', '=', input.source);
  if (input.kind) query = query.where('kind', '=', input.kind);
  if (since?.versionId !== undefined) {
    const { at, versionId } = since as { at: string; versionId: string };
    query = query.where((eb) =>
      eb.or([eb('activated_at', '>', at), eb.and([eb('activated_at', '=', at), eb('version_id', '>', versionId)])]),
    );
  } else if (since) query = query.where('activated_at', '>', since.at);
  if (after) {
    const [at, versionId, seq] = after;
    query = query.where((eb) =>
      eb.or([
        eb('activated_at', '>', at),
        eb.and([eb('activated_at', '=', at), eb('version_id', '>', versionId)]),
        eb.and([eb('activated_at', '=', at), eb('version_id', '=', versionId), eb('seq', '>', seq)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('activated_at')
    .orderBy('version_id')
    .orderBy('seq')
    .limit(input.pageSize + 1)
    .execute();
  const page = rows.slice(0, input.pageSize);
  const last = page.at(-1);
  return {
    items: page.map(toItem),
    next: last ? encodeCursor([last.activated_at, last.version_id, last.seq]) : (input.cursor ?? null),
    hasMore: rows.length > input.pageSize,
  };
}

/** The newest changes, newest first (the console's "Latest changes"). */
export async function latestChanges({ ctx, input }: Call<{ limit: number }>): Promise<ChangeItem[]> {
  const rows = await ctx.db
    .selectFrom('list_changes')
    .selectAll()
    .orderBy('activated_at', 'desc')
    .orderBy('version_id', 'desc')
    .orderBy('seq', 'asc')
    .limit(input.limit)
    .execute();
  return rows.map(toItem);
}

/** The changes of some versions (the delta rescreen reads the entities they touch). */
export async function changesOfVersions(db: Db, versionIds: string[]): Promise<{ source: string; recordId: string }[]> {
  if (versionIds.length === 0) return [];
  const rows = await db
    .selectFrom('list_changes')
    .select(['source', 'record_id'])
    .where('version_id', 'in', versionIds)
    .execute();
  return rows.map((r) => ({ source: r.source, recordId: r.record_id }));
}

/** What one activated version changed, in numbers (the `lists.changed` webhook). */
export interface VersionSummary {
  source: string;
  versionId: string;
  /** The version of the source in force before it; null for a source's first version. */
  previousVersionId: string | null;
  activatedAt: string;
  added: number;
  removed: number;
  changed: number;
  /** Of those, changes that lapse a suppression (added and removed entities count too). */
  major: number;
}

/** The counts of the changes of some versions; versions that changed no entity are left out. */
export async function versionSummaries(db: Db, versionIds: string[]): Promise<VersionSummary[]> {
  if (versionIds.length === 0) return [];
  const rows = await db
    .selectFrom('list_changes')
    .select(['version_id', 'source', 'kind', 'major', 'activated_at', (eb) => eb.fn.countAll<number>().as('n')])
    .where('version_id', 'in', versionIds)
    .groupBy(['version_id', 'source', 'kind', 'major', 'activated_at'])
    .execute();
  const out = new Map<string, VersionSummary>();
  for (const row of rows) {
    let summary = out.get(row.version_id);
    if (!summary) {
      const previous = await db
        .selectFrom('list_versions')
        .select('id')
        .where('source', '=', row.source)
        .where('status', 'in', ['active', 'superseded'])
        .where('id', '<', row.version_id)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      summary = {
        source: row.source,
        versionId: row.version_id,
        previousVersionId: previous?.id ?? null,
        activatedAt: row.activated_at,
        added: 0,
        removed: 0,
        changed: 0,
        major: 0,
      };
      out.set(row.version_id, summary);
    }
    const count = Number(row.n);
    if (row.kind === 'added' || row.kind === 'removed' || row.kind === 'changed') summary[row.kind] += count;
    if (row.major === 1) summary.major += count;
  }
  return [...out.values()].sort((a, b) => a.versionId.localeCompare(b.versionId));
}
