import type { Context } from '../infra/context.js';
import type { EntityType, ListSnapshot } from '../lists/index.js';
import type { RiskLevel } from '../matching/index.js';
import {
  type AppliedProfile,
  matchIdentifiers,
  parseStoredIdentifiers,
  profileLevel,
  type Screener,
  ScreeningStore,
} from '../screening/index.js';
import { customerKeyOf, DECISIONS, DecisionsStore, entityIdsOf } from '../decisions/index.js';

/**
 * The backtest of a draft (issue 29, item 3): an organization's stored screenings of a window,
 * replayed under the active profile and under the draft against the lists in force now, compared.
 * It reads the searches and the analysts' decisions; it writes nothing (the service keeps the
 * summary with the draft and in the audit chain). Suppressions are not applied in the replay: a
 * match an analyst cleared is reported by both sides and counted under `falsePositivesCleared`
 * when the draft no longer raises it.
 */

export const DEFAULT_WINDOW_DAYS = 90;
export const MAX_WINDOW_DAYS = 3660;
export const DEFAULT_LIMIT = 100_000;
export const MAX_LIMIT = 250_000;
/** Listed entries per list of the report; the counts are always complete. */
export const REPORT_ROWS = 1000;

const PAGE = 2000;
/** Screenings replayed at a time: the matching threads answer the API's requests between them. */
const SLICE = 16;

export interface BacktestInput {
  orgId: string;
  current: AppliedProfile;
  draft: AppliedProfile;
  lists: ListSnapshot<Screener>;
  floor: number;
  maxMatches: number;
  windowDays: number;
  limit: number;
}

export interface Side {
  riskLevel: RiskLevel;
  riskScore: number;
  entityId: string | null;
  entityName: string | null;
  /** The top match's explanation, one sentence. */
  explanation: string | null;
}

export interface LevelChange {
  screeningId: string;
  query: string;
  timestamp: string;
  current: Side;
  draft: Side;
}

export interface LostMatch {
  screeningId: string;
  query: string;
  entityId: string;
  entityName: string | null;
  decisionId: string;
  currentScore: number | null;
}

export type Levels = Record<RiskLevel, number>;

export interface BacktestReport {
  window: { from: string; to: string; days: number };
  /** Screenings replayed (the newest first, at most `limit`). */
  screenings: number;
  /** True when the window held more than `limit` screenings (the oldest were left out). */
  truncated: boolean;
  listVersions: { source: string; version: string }[];
  alerts: {
    current: Levels;
    draft: Levels;
    /** Screenings at medium or high under the current profile and low under the draft. */
    removed: number;
    /** Low under the current profile, medium or high under the draft. */
    added: number;
  };
  levelChanges: { total: number; items: LevelChange[] };
  /** Matches an analyst confirmed that the draft would no longer report (below its medium cut-off). */
  confirmedLost: { total: number; items: LostMatch[] };
  /** Matches an analyst found false positive that the draft would no longer raise. */
  falsePositivesCleared: { total: number; items: LostMatch[] };
  tookMs: number;
}

/** What a replay keeps of one side's outcome. */
interface Outcome extends Side {
  /** Every reported entity id (listings too) with its match's score and listed name. */
  scores: Map<string, { score: number; name: string | null }>;
}

function emptyLevels(): Levels {
  return { low: 0, medium: 0, high: 0 };
}

interface MatchJson {
  matchScore: number;
  entity: { id: string; name?: string };
  listings?: { entityId?: string }[];
  explanation?: { summary?: string };
}

function outcomeOf(profile: AppliedProfile, s: Awaited<ReturnType<Screener['screen']>>): Outcome {
  const matches = JSON.parse(s.matchesJson) as MatchJson[];
  const scores: Outcome['scores'] = new Map();
  for (const m of matches)
    for (const id of entityIdsOf(m))
      if (!scores.has(id))
        scores.set(id, { score: m.matchScore, name: id === m.entity.id ? (m.entity.name ?? null) : null });
  const top = matches.find((m) => m.entity.id === s.entityId);
  return {
    riskLevel: profileLevel(profile, s),
    riskScore: s.riskScore,
    entityId: s.entityId,
    entityName: s.entityName,
    explanation: top?.explanation?.summary ?? null,
    scores,
  };
}

function side(o: Outcome): Side {
  return {
    riskLevel: o.riskLevel,
    riskScore: o.riskScore,
    entityId: o.entityId,
    entityName: o.entityName,
    explanation: o.explanation,
  };
}

export async function runBacktest(ctx: Context, input: BacktestInput): Promise<BacktestReport> {
  const started = performance.now();
  const now = ctx.clock.now();
  const to = now.toISOString();
  const from = new Date(now.getTime() - input.windowDays * 24 * 3600 * 1000).toISOString();
  // Each customer's latest decision on each listed entity.
  const latest = new Map<string, Map<string, { id: string; decision: string }>>();
  for (const d of await new DecisionsStore(ctx.db).ofKinds(input.orgId, DECISIONS)) {
    let m = latest.get(d.customer_key);
    if (!m) latest.set(d.customer_key, (m = new Map()));
    m.set(d.entity_id, { id: d.id, decision: d.decision });
  }
  const report: BacktestReport = {
    window: { from, to, days: input.windowDays },
    screenings: 0,
    truncated: false,
    listVersions: input.lists.versions.map((v) => ({ source: v.source, version: v.version })),
    alerts: { current: emptyLevels(), draft: emptyLevels(), removed: 0, added: 0 },
    levelChanges: { total: 0, items: [] },
    confirmedLost: { total: 0, items: [] },
    falsePositivesCleared: { total: 0, items: [] },
    tookMs: 0,
  };
  const store = new ScreeningStore(ctx.db);
  // The same search replayed twice gives the same outcomes: each is replayed once.
  const seen = new Map<string, [Outcome, Outcome]>();
  const screen = (profile: AppliedProfile, row: Row) =>
    input.lists.index
      .screen(
        {
          name: row.query,
          ...(row.entity_type ? { entityType: row.entity_type as EntityType } : {}),
          ...(row.country ? { country: row.country } : {}),
          ...(row.birth_date ? { birthDate: row.birth_date } : {}),
          ...(row.identifiers ? { identifiers: matchIdentifiers(parseStoredIdentifiers(row.identifiers)) } : {}),
        },
        {
          floor: input.floor,
          maxMatches: input.maxMatches,
          groupByCluster: row.group_by_cluster === 1,
          ...profile.options,
        },
        { background: true },
      )
      .then((s) => outcomeOf(profile, s));
  type Row = Awaited<ReturnType<ScreeningStore['replayPage']>>[number];
  let after: { created_at: string; id: string } | undefined;
  while (report.screenings < input.limit) {
    const rows = await store.replayPage(input.orgId, {
      from,
      to,
      limit: Math.min(PAGE, input.limit - report.screenings + 1),
      ...(after ? { after } : {}),
    });
    if (rows.length === 0) break;
    let take = rows;
    if (report.screenings + rows.length > input.limit) {
      report.truncated = true;
      take = rows.slice(0, input.limit - report.screenings);
    }
    for (let i = 0; i < take.length; i += SLICE) {
      const slice = take.slice(i, i + SLICE);
      const outcomes = await Promise.all(
        slice.map(async (row) => {
          const key = `${row.search_key}\u0000${row.identifiers ?? ''}\u0000${row.group_by_cluster}`;
          let pair = seen.get(key);
          if (!pair) {
            pair = await Promise.all([screen(input.current, row), screen(input.draft, row)]);
            seen.set(key, pair);
          }
          return pair;
        }),
      );
      slice.forEach((row, j) =>
        compare(report, row, outcomes[j]!, latest.get(customerKeyOf(row.external_id, row.search_key))),
      );
    }
    report.screenings += take.length;
    if (report.truncated) break;
    const last = rows.at(-1)!;
    after = { created_at: last.created_at, id: last.id };
    if (rows.length < PAGE) break;
  }
  report.tookMs = Math.round(performance.now() - started);
  return report;
}

function compare(
  report: BacktestReport,
  row: { id: string; query: string; created_at: string },
  [cur, next]: [Outcome, Outcome],
  decisions: Map<string, { id: string; decision: string }> | undefined,
): void {
  report.alerts.current[cur.riskLevel]++;
  report.alerts.draft[next.riskLevel]++;
  if (cur.riskLevel !== 'low' && next.riskLevel === 'low') report.alerts.removed++;
  if (cur.riskLevel === 'low' && next.riskLevel !== 'low') report.alerts.added++;
  if (cur.riskLevel !== next.riskLevel) {
    report.levelChanges.total++;
    if (report.levelChanges.items.length < REPORT_ROWS)
      report.levelChanges.items.push({
        screeningId: row.id,
        query: row.query,
        timestamp: row.created_at,
        current: side(cur),
        draft: side(next),
      });
  }
  if (!decisions) return;
  for (const [entityId, d] of decisions) {
    if (!cur.scores.has(entityId) || next.scores.has(entityId)) continue;
    const list =
      d.decision === 'confirmed'
        ? report.confirmedLost
        : d.decision === 'false_positive'
          ? report.falsePositivesCleared
          : undefined;
    if (!list) continue;
    list.total++;
    if (list.items.length < REPORT_ROWS)
      list.items.push({
        screeningId: row.id,
        query: row.query,
        entityId,
        entityName: cur.scores.get(entityId)?.name ?? null,
        decisionId: d.id,
        currentScore: cur.scores.get(entityId)?.score ?? null,
      });
  }
}
