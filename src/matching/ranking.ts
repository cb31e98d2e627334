/**
 * From the scored rows of one screening to its answer: the order of the matches, the risk score
 * (the riskiest party's best row, raised for the further lists that carry the party) and the
 * confidence that the top match is the same party (lowered when another party scores close to it).
 * Pure functions over the rows' scores and their parties (clusters.ts) and lists.
 */
import type { SourceId } from '../lists/index.js';
import { MEDIUM_BOUNDARY, clamp, round1 } from './levels.js';
import { SCORING } from './scoring-table.js';

/**
 * The raise for each further independent list carrying the same party, and its cap: DECISIONS.md
 * raises the risk "when several independent lists agree"; a little, so that lists agreeing confirm a
 * close name but cannot lift a doubtful one (under 74) to high: two further lists count at most.
 */
export const FURTHER_LIST_RAISE = SCORING.FURTHER_LIST_RAISE.value;
export const MAX_LIST_RAISE = SCORING.MAX_LIST_RAISE.value;
/**
 * A row of another list under the very same name, which clustering could not link for want of a
 * shared identifier or date, is taken for the same party when the name is at least this distinctive.
 */
export const SAME_NAME_DISTINCTIVENESS = SCORING.SAME_NAME_DISTINCTIVENESS.value;

/*
 * Confidence that the top match is the same party (DECISIONS.md "Scores and levels": high when birth
 * date or country corroborate and the runner-up is far behind, low for a bare common name):
 *   NAME_CONFIDENCE x the name score x (COMMON_NAME_BASE + (1 - COMMON_NAME_BASE) x distinctiveness):
 *   common name parts count twice, once in the name score and once here, so a bare "Mohammad Ali"
 *   starts low;
 *   + LIST_CONFIDENCE for each further independent list carrying the same party, at most MAX_LIST_CONFIDENCE;
 *   and, without any corroborating field, no more than NAME_ALONE_CONFIDENCE: a name alone never makes it certain;
 *   + CORROBORATION_CONFIDENCE x the corroborating points (birth date +10, country +4...), at most
 *   MAX_CORROBORATION_CONFIDENCE;
 *   - the contradicting points;
 *   - the runner-up penalty when the best other party is close (an ambiguous name).
 * An exact distinctive full name on six lists with no other field: 85; with birth date and country
 * agreeing: 100; a bare common name sharing its score with other parties: about 30.
 */
export const NAME_CONFIDENCE = SCORING.NAME_CONFIDENCE.value;
export const COMMON_NAME_BASE = SCORING.COMMON_NAME_BASE.value;
export const LIST_CONFIDENCE = SCORING.LIST_CONFIDENCE.value;
export const MAX_LIST_CONFIDENCE = SCORING.MAX_LIST_CONFIDENCE.value;
export const NAME_ALONE_CONFIDENCE = SCORING.NAME_ALONE_CONFIDENCE.value;
export const CORROBORATION_CONFIDENCE = SCORING.CORROBORATION_CONFIDENCE.value;
export const MAX_CORROBORATION_CONFIDENCE = SCORING.MAX_CORROBORATION_CONFIDENCE.value;
/**
 * An identifier the top row carries says more than any name: with a compatible name, or on a
 * vessel's or aircraft's listing, the confidence starts from IDENTIFIED_CONFIDENCE instead of the
 * name's share (corroboration and contradictions then count as for names); under an unrelated name,
 * from IDENTIFIED_NAME_UNRELATED_CONFIDENCE (a lead for review).
 */
export const IDENTIFIED_CONFIDENCE = SCORING.IDENTIFIED_CONFIDENCE.value;
export const IDENTIFIED_NAME_UNRELATED_CONFIDENCE = SCORING.IDENTIFIED_NAME_UNRELATED_CONFIDENCE.value;
/** [the best other party within this many points, confidence taken away], closest first. */
export const RUNNER_UP_PENALTIES: readonly (readonly [number, number])[] = [
  [SCORING.RUNNER_UP_CLOSE.value, SCORING.RUNNER_UP_CLOSE_PENALTY.value],
  [SCORING.RUNNER_UP_NEAR.value, SCORING.RUNNER_UP_NEAR_PENALTY.value],
  [SCORING.RUNNER_UP_FAR.value, SCORING.RUNNER_UP_FAR_PENALTY.value],
];

/** What ranking needs of one scored row. */
export interface RowScore {
  /** The match score, 0..100. */
  score: number;
  /** The name score of the row's best name, before corroboration. */
  nameScore: number;
  distinctiveness: number;
  corroborated: number;
  contradicted: number;
  /** The party: rows on several lists linked by clusters.ts share it. */
  cluster: number;
  source: SourceId;
  /** The matched listed name's parts (the same name on another list has the same ones: see nameKey). */
  nameParts: readonly { text: string }[];
  /** An identifier of the query the row carries: `strong` with a compatible name or on a craft's listing. */
  identified?: 'strong' | 'weak';
}

export interface Ranking<T> {
  /** The rows, top match first. */
  rows: T[];
  riskScore: number;
  confidence: number;
}

/** The raise for a party carried by `lists` lists (at least one). */
export function listRaise(lists: number): number {
  return Math.min(MAX_LIST_RAISE, FURTHER_LIST_RAISE * (lists - 1));
}

/** Confidence taken away when the best other party scores `gap` points under the top match. */
export function runnerUpPenalty(gap: number): number {
  for (const [within, penalty] of RUNNER_UP_PENALTIES) if (gap < within) return penalty;
  return 0;
}

/** See the formula above; `lists`: the independent lists carrying the top party. */
export function confidenceOf(top: RowScore, lists: number, runnerUp: RowScore | undefined): number {
  let confidence = Math.min(
    NAME_ALONE_CONFIDENCE,
    top.nameScore * NAME_CONFIDENCE * (COMMON_NAME_BASE + (1 - COMMON_NAME_BASE) * top.distinctiveness) +
      Math.min(MAX_LIST_CONFIDENCE, LIST_CONFIDENCE * (lists - 1)),
  );
  if (top.identified)
    confidence = Math.max(
      confidence,
      top.identified === 'strong' ? IDENTIFIED_CONFIDENCE : IDENTIFIED_NAME_UNRELATED_CONFIDENCE,
    );
  confidence += Math.min(MAX_CORROBORATION_CONFIDENCE, top.corroborated * CORROBORATION_CONFIDENCE) - top.contradicted;
  if (runnerUp) confidence -= runnerUpPenalty(top.score - runnerUp.score);
  return round1(clamp(confidence, 0, 100));
}

/**
 * A row's name as a key: its parts' texts sorted and joined. Worked out only where ranking asks
 * whether a row of another list carries the top row's very name (most queries never ask).
 */
function nameKey(row: RowScore): string {
  return row.nameParts
    .map((part) => part.text)
    .sort()
    .join(' ');
}

/**
 * Order the rows (at least one) and work out the risk and confidence. Equal scores: the row whose
 * birth date, country... agree first (a row that lists no birth date cannot confirm one, and must
 * not stand before one that does), then the fewer contradictions, then the party more lists carry,
 * then the closer name. The risk is that of the riskiest party: its best row, raised for the further
 * lists carrying it; a party whose rows several lists carry (and whose birth date agrees) can so
 * outweigh one row a little above it that no other list confirms, and its best row then leads.
 */
export function rankRows<T extends RowScore>(scored: T[]): Ranking<T> {
  // Lists carrying each party at medium or above: several independent lists agreeing on the same
  // party raise the risk.
  const listsOf = new Map<number, Set<SourceId>>();
  for (const row of scored) {
    if (row.score < MEDIUM_BOUNDARY) continue;
    let set = listsOf.get(row.cluster);
    if (!set) listsOf.set(row.cluster, (set = new Set()));
    set.add(row.source);
  }
  const lists = (s: T): number => listsOf.get(s.cluster)?.size ?? 0;
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      b.corroborated - a.corroborated ||
      a.contradicted - b.contradicted ||
      lists(b) - lists(a) ||
      b.nameScore - a.nameScore,
  );
  const raised = (s: T): number => s.score + listRaise(Math.max(1, lists(s)));
  let top = scored[0]!;
  const parties = new Set<number>();
  for (const row of scored) {
    if (parties.has(row.cluster)) continue;
    parties.add(row.cluster);
    if (raised(row) > raised(top)) top = row;
  }
  if (top !== scored[0]) {
    scored.splice(scored.indexOf(top), 1);
    scored.unshift(top);
  }
  const agreeing = new Set<SourceId>(listsOf.get(top.cluster));
  if (agreeing.size === 0) agreeing.add(top.source);
  const riskScore = round1(clamp(top.score + listRaise(agreeing.size), 0, 100));
  // The runner-up is the best other party. A row of another list under the very same distinctive
  // name, which clustering could not link, is not one.
  let topKey: string | undefined;
  const sameParty = (s: T): boolean =>
    s.cluster === top.cluster ||
    (top.distinctiveness >= SAME_NAME_DISTINCTIVENESS &&
      s.source !== top.source &&
      s.contradicted === 0 &&
      nameKey(s) === (topKey ??= nameKey(top)));
  const runnerUp = scored.find((s) => !sameParty(s));
  for (const row of scored) if (row.score >= MEDIUM_BOUNDARY && sameParty(row)) agreeing.add(row.source);
  return { rows: scored, riskScore, confidence: confidenceOf(top, agreeing.size, runnerUp) };
}
