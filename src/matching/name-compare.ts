/**
 * Comparison of two names already split into parts: the pairs of parts that may stand for one another
 * (part-similarity.ts, joined-parts.ts), a greedy best-pair alignment that is free in word order,
 * and the name score of that alignment (name-score.ts).
 */
import { abbreviationPairs, joinPairs, joinRuns } from './joined-parts.js';
import type { NameComparison, Pair } from './name-comparison.js';
import { scoreAlignment, scoreBound } from './name-score.js';
import type { ScoredPart } from './part-similarity.js';
import { CONTENT, type QueryParts } from './query-parts.js';
import type { AlignedPart } from './types.js';

const NO_NUMBERS: readonly string[] = [];

/** What the listed name is, beside its parts (see NameEntry). */
export interface ListedAs {
  /** The listed party is not a person. */
  organization: boolean;
}

/**
 * Compare query parts with listed parts. `query` carries the query's parts with what is known of
 * them (see QueryParts); a pair check passes a fresh one. With `atLeast` (0..100), a comparison that
 * cannot reach it (see scoreBound) is not worked out: undefined.
 */
export function compareParts(query: QueryParts, listed: ScoredPart[], listedAs: ListedAs): NameComparison;
export function compareParts(
  query: QueryParts,
  listed: ScoredPart[],
  listedAs: ListedAs,
  atLeast: number,
): NameComparison | undefined;
export function compareParts(
  query: QueryParts,
  listed: ScoredPart[],
  listedAs: ListedAs,
  atLeast?: number,
): NameComparison | undefined {
  const { organization } = listedAs;
  const queryParts = query.parts;
  const queryContent = query.content;
  const listedContent: number[] = [];
  // Most listed names have no number: they share one empty array, which nothing writes to.
  let listedNumbers: readonly string[] = NO_NUMBERS;
  for (let i = 0; i < listed.length; i++) {
    const kind = listed[i]!.kind;
    if (CONTENT.has(kind)) listedContent.push(i);
    else if (kind === 'number') listedNumbers = [...listedNumbers, listed[i]!.text];
  }
  const pairs: Pair[] = [];
  for (const queryAt of queryContent) {
    for (const listedAt of listedContent) {
      const similarity = query.similarity(queryAt, listed[listedAt]!);
      if (similarity.s > 0)
        pairs.push({ qi: queryAt, qj: queryAt, ci: listedAt, cj: listedAt, s: similarity.s, how: similarity.how });
    }
  }
  // Joined parts: "abdul rahman" ~ "abdulrahman", on either side.
  joinPairs(query.runs, queryParts, queryContent, listed, listedContent, pairs, false);
  joinPairs(
    joinRuns(listed, listedContent, query.wordLengths),
    listed,
    listedContent,
    queryParts,
    queryContent,
    pairs,
    true,
  );
  // Initials written together ("JC" / "Jean-Claude") and an organization's acronym ("PLA" /
  // "People's Liberation Army"), on either side.
  abbreviationPairs(queryParts, queryContent, listed, listedContent, organization, pairs, false);
  // A listed acronym is not read against a query's words: every three-word name spells some acronym.
  if (!organization) abbreviationPairs(listed, listedContent, queryParts, queryContent, false, pairs, true);
  if (atLeast !== undefined && atLeast > 0 && 100 * scoreBound(query, listed, listedContent, pairs) < atLeast)
    return undefined;
  sortPairs(pairs, queryParts.length, listed.length);
  const { qUsed, cUsed, qSim, qPartnerIdf, qPartner } = scratchFor(queryParts.length, listed.length);
  // The alignment is spelled out (texts joined) only for the comparisons that get explained.
  const chosen: Pair[] = [];
  for (const pair of pairs) {
    let taken = false;
    for (let x = pair.qi; x <= pair.qj; x++) if (qUsed[x]) taken = true;
    for (let x = pair.ci; x <= pair.cj; x++) if (cUsed[x]) taken = true;
    if (taken) continue;
    let listedIdf = 0;
    // A query part standing for several listed parts carries their information together.
    for (let x = pair.ci; x <= pair.cj; x++) {
      cUsed[x] = 1;
      listedIdf += listed[x]!.idf;
    }
    for (let x = pair.qi; x <= pair.qj; x++) {
      qUsed[x] = 1;
      qSim[x] = pair.s;
      qPartnerIdf[x] = listedIdf;
    }
    if (pair.qi === pair.qj && pair.ci === pair.cj) qPartner[pair.qi] = pair.ci;
    chosen.push(pair);
  }
  return scoreAlignment({
    query,
    listed,
    listedContent,
    listedNumbers,
    organization,
    chosen,
    qUsed,
    cUsed,
    qSim,
    qPartnerIdf,
    qPartner,
  });
}

/** Where a pair stands: how far apart its parts' relative places in the two names are. */
function relativePlace(p: Pair, queryLength: number, listedLength: number): number {
  return Math.abs((p.qi + p.qj) / 2 / queryLength - (p.ci + p.cj) / 2 / listedLength);
}

/**
 * The order pairs are taken in: the most similar first; at equal similarity the wider (joined) pair,
 * then the pair whose parts stand at the same relative place in both names (so "Kyawmaung Maung"
 * pairs its "maung" with the last "maung").
 */
export function comparePairs(x: Pair, y: Pair, queryLength: number, listedLength: number): number {
  return (
    y.s - x.s ||
    y.qj - y.qi + y.cj - y.ci - (x.qj - x.qi + x.cj - x.ci) ||
    relativePlace(x, queryLength, listedLength) - relativePlace(y, queryLength, listedLength)
  );
}

/** Pairs up to this many are sorted by insertion, in place. */
const INSERTION_SORT_PAIRS = 16;

/**
 * Sorts `pairs` by comparePairs, stably. A comparison has a handful of pairs, and the array's own
 * sort copies them into a work array and needs a closure on every call (about a tenth of what a
 * query allocates, in the matching benchmark's mix); insertion sorts them in place. Both are
 * stable, so the order is the same.
 */
export function sortPairs(pairs: Pair[], queryLength: number, listedLength: number): void {
  if (pairs.length > INSERTION_SORT_PAIRS) {
    pairs.sort((x, y) => comparePairs(x, y, queryLength, listedLength));
    return;
  }
  for (let i = 1; i < pairs.length; i++) {
    const pair = pairs[i]!;
    let before = i - 1;
    while (before >= 0 && comparePairs(pairs[before]!, pair, queryLength, listedLength) > 0) {
      pairs[before + 1] = pairs[before]!;
      before--;
    }
    pairs[before + 1] = pair;
  }
}

/** How the parts of a comparison aligned, spelled out (only compared names that get explained need it). */
export function alignmentOf(cmp: NameComparison): AlignedPart[] {
  const { query: queryParts, listed: listedParts } = cmp;
  return cmp.aligned.map((p) => ({
    query: queryParts
      .slice(p.qi, p.qj + 1)
      .map((x) => x.text)
      .join(' '),
    listed: listedParts
      .slice(p.ci, p.cj + 1)
      .map((x) => x.text)
      .join(' '),
    similarity: Math.round(p.s * 100) / 100,
    how: p.how !== 'initial' && (p.qi !== p.qj || p.ci !== p.cj) ? 'joined' : p.how,
  }));
}

interface Scratch {
  qUsed: Uint8Array;
  cUsed: Uint8Array;
  qSim: Float64Array;
  qPartnerIdf: Float64Array;
  qPartner: Int32Array;
}

let scratchBuffers = { q: 0, c: 0, buffers: undefined as Scratch | undefined };

/**
 * Per-comparison working arrays, cleared and reused: a query compares against dozens of candidate
 * names, and comparisons never run inside one another.
 */
function scratchFor(qLength: number, cLength: number): Scratch {
  if (!scratchBuffers.buffers || scratchBuffers.q < qLength || scratchBuffers.c < cLength) {
    const queryCapacity = Math.max(qLength, scratchBuffers.q, 16);
    const listedCapacity = Math.max(cLength, scratchBuffers.c, 32);
    scratchBuffers = {
      q: queryCapacity,
      c: listedCapacity,
      buffers: {
        qUsed: new Uint8Array(queryCapacity),
        cUsed: new Uint8Array(listedCapacity),
        qSim: new Float64Array(queryCapacity),
        qPartnerIdf: new Float64Array(queryCapacity),
        qPartner: new Int32Array(queryCapacity),
      },
    };
  }
  const scratch = scratchBuffers.buffers!;
  scratch.qUsed.fill(0, 0, qLength);
  scratch.cUsed.fill(0, 0, cLength);
  scratch.qSim.fill(0, 0, qLength);
  scratch.qPartnerIdf.fill(0, 0, qLength);
  scratch.qPartner.fill(-1, 0, qLength);
  return scratch;
}
