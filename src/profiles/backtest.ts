import type { Context } from '../infra/context.js';
import type { EntityType, ListSnapshot } from '../lists/index.js';
import type { MatchOptions, RiskLevel, ScreenSummary } from '../matching/index.js';
import {
  type AppliedProfile,
  matchIdentifiers,
  parseStoredIdentifiers,
  type Screener,
  ScreeningStore,
} from '../screening/index.js';
import {
  customerKeyOf,
  type DecisionRow,
  DECISIONS,
  DecisionsStore,
  ensureReviewed,
  entityIdsOf,
  evaluateSuppressions,
  NO_SUPPRESSIONS,
} from '../decisions/index.js';

/**
 * The backtest of a draft (issue 29, item 3): an organization's stored screenings of a window,
 * replayed under the active profile and under the draft against the lists in force now, compared.
 * It reads the searches and the analysts' decisions and writes nothing of its own (the service
 * keeps the summary with the draft and in the audit chain). Suppressions apply as in a live
 * screening (screening/suppression.ts): a match an analyst cleared, while the clearing holds, counts
 * on neither side, so the alerts before and after are those analysts would see.
 *
 * Speed (issue 29, item 5: 100,000 screenings in at most 120 s): each distinct search (with its
 * customer's suppressions) is replayed once, both sides in one job of a matching thread that reads
 * the query and compares its names once for both (Screener.screenVariants); a few jobs are kept in
 * flight at a time, so that the API's screenings queue behind at most those few.
 */

export const DEFAULT_WINDOW_DAYS = 90;
export const MAX_WINDOW_DAYS = 3660;
export const DEFAULT_LIMIT = 100_000;
export const MAX_LIMIT = 250_000;
/** Listed entries per list of the report; the counts are always complete. */
export const REPORT_ROWS = 1000;

const PAGE = 2000;
/**
 * Replays in flight at once: enough to keep a matching thread busy while this thread reads the
 * answers, few enough that a screening of the API waits behind at most that many.
 */
const IN_FLIGHT = 3;

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
  /** Every reported entity id that is not suppressed (listings too) with its match's score and listed name. */
  scores: Map<string, { score: number; name: string | null }>;
}

function emptyLevels(): Levels {
  return { low: 0, medium: 0, high: 0 };
}

interface MatchJson {
  matchScore: number;
  entity: { id: string; name?: string; entityType?: string };
  listings?: { entityId?: string }[];
  explanation?: { summary?: string };
  suppressed?: boolean;
}

/** One side's outcome: its matches read once, its level under the profile (as screening/applied-profile.ts). */
function outcomeOf(profile: AppliedProfile, s: ScreenSummary): Outcome {
  const matches = JSON.parse(s.matchesJson) as MatchJson[];
  const scores: Outcome['scores'] = new Map();
  for (const match of matches) {
    if (match.suppressed) continue;
    for (const id of entityIdsOf(match))
      if (!scores.has(id))
        scores.set(id, { score: match.matchScore, name: id === match.entity.id ? (match.entity.name ?? null) : null });
  }
  const top = s.entityId === null ? undefined : matches.find((m) => m.entity.id === s.entityId);
  let riskLevel = s.riskLevel;
  if (profile.level)
    riskLevel = profile.level(
      s.riskScore,
      s.entityId === null
        ? undefined
        : { source: s.entityId.slice(0, s.entityId.indexOf(':')), entityType: top?.entity.entityType },
    );
  return {
    riskLevel,
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

type Row = Awaited<ReturnType<ScreeningStore['replayPage']>>[number];
type Latest = Map<string, { id: string; decision: string }>;

/** The organization's decisions by customer (oldest first), and each customer's latest on each entity. */
async function decisionsOf(ctx: Context, orgId: string) {
  const byCustomer = new Map<string, DecisionRow[]>();
  const latest = new Map<string, Latest>();
  for (const decision of await new DecisionsStore(ctx.db).ofKinds(orgId, DECISIONS)) {
    let rows = byCustomer.get(decision.customer_key);
    if (!rows) byCustomer.set(decision.customer_key, (rows = []));
    rows.push(decision);
    let perEntity = latest.get(decision.customer_key);
    if (!perEntity) latest.set(decision.customer_key, (perEntity = new Map()));
    perEntity.set(decision.entity_id, { id: decision.id, decision: decision.decision });
  }
  return { byCustomer, latest };
}

/**
 * Replays one stored screening on both sides, as POST /screen would run it now under each: its
 * customer's suppressions in force, the two option sets in one job. The same search of the same
 * customer state is replayed once (`seen`).
 */
function replayer(ctx: Context, input: BacktestInput, byCustomer: Map<string, DecisionRow[]>) {
  const seen = new Map<string, Promise<[Outcome, Outcome]>>();
  const now = ctx.clock.now();
  return (row: Row): Promise<[Outcome, Outcome]> => {
    const decisions = byCustomer.get(customerKeyOf(row.external_id, row.search_key));
    const suppressions = decisions
      ? evaluateSuppressions(decisions, { searchKey: row.search_key, now, record: (id) => input.lists.record(id) })
      : NO_SUPPRESSIONS;
    const suppressed = [...suppressions.suppressed.keys()].sort();
    const key = `${row.search_key}\u0000${row.identifiers ?? ''}\u0000${row.group_by_cluster}\u0000${suppressed.join(',')}`;
    let pair = seen.get(key);
    if (!pair) {
      const base: MatchOptions = {
        floor: input.floor,
        maxMatches: input.maxMatches,
        groupByCluster: row.group_by_cluster === 1,
      };
      const extra = suppressed.length > 0 ? { suppressed } : {};
      pair = input.lists.index
        .screenVariants(
          {
            name: row.query,
            ...(row.entity_type ? { entityType: row.entity_type as EntityType } : {}),
            ...(row.country ? { country: row.country } : {}),
            ...(row.birth_date ? { birthDate: row.birth_date } : {}),
            ...(row.identifiers ? { identifiers: matchIdentifiers(parseStoredIdentifiers(row.identifiers)) } : {}),
          },
          [
            { ...base, ...input.current.options, ...extra },
            { ...base, ...input.draft.options, ...extra },
          ],
          { background: true },
        )
        .then(([cur, next]) => [outcomeOf(input.current, cur!), outcomeOf(input.draft, next!)]);
      seen.set(key, pair);
    }
    return pair;
  };
}

/** Replays rows with at most IN_FLIGHT at once; the outcomes in the rows' order. */
async function replayAll(rows: Row[], replay: (row: Row) => Promise<[Outcome, Outcome]>) {
  const out: [Outcome, Outcome][] = new Array(rows.length);
  let next = 0;
  const lane = async () => {
    while (next < rows.length) {
      const at = next++;
      out[at] = await replay(rows[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, rows.length) }, lane));
  return out;
}

export async function runBacktest(ctx: Context, input: BacktestInput): Promise<BacktestReport> {
  const started = performance.now();
  const now = ctx.clock.now();
  const to = now.toISOString();
  const from = new Date(now.getTime() - input.windowDays * 24 * 3600 * 1000).toISOString();
  const { byCustomer, latest } = await decisionsOf(ctx, input.orgId);
  // As a live screening does before it reads suppressions: delistings of the lists in force are marked.
  if (byCustomer.size > 0) await ensureReviewed(ctx.db, ctx.clock, input.lists.fingerprint);
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
  const replay = replayer(ctx, input, byCustomer);
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
    const outcomes = await replayAll(take, replay);
    take.forEach((row, j) =>
      compare(report, row, outcomes[j]!, latest.get(customerKeyOf(row.external_id, row.search_key))),
    );
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
  for (const [entityId, decision] of decisions) {
    if (!cur.scores.has(entityId) || next.scores.has(entityId)) continue;
    const list =
      decision.decision === 'confirmed'
        ? report.confirmedLost
        : decision.decision === 'false_positive'
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
        decisionId: decision.id,
        currentScore: cur.scores.get(entityId)?.score ?? null,
      });
  }
}
