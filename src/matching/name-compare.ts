/**
 * Comparison of two names already split into parts: the pairs of parts that may stand for one another
 * (part-similarity.ts, joined-parts.ts), a greedy best-pair alignment that is free in word order,
 * and the name score of that alignment (name-score.ts).
 */
import type { PartKind } from './normalize.js';
import { abbreviationPairs, joinPairs, joinRuns, lengthFits, wordLengths, type JoinRun } from './joined-parts.js';
import { scoreAlignment, scoreBound } from './name-score.js';
import { partSimilarity, type ScoredPart } from './part-similarity.js';
import type { AlignedPart } from './types.js';

export interface NameComparison {
  /** 0..1 similarity of the names. */
  score: number;
  /** Sum of IDF of the query parts that found a partner, scaled by similarity. */
  information: number;
  /** The aligned pairs, in the order they were taken (see alignmentOf). */
  aligned: Pair[];
  query: ScoredPart[];
  listed: ScoredPart[];
  unmatchedQuery: string[];
  unmatchedListed: string[];
  /** Numbers on one side missing on the other. */
  numberConflict: boolean;
  /** Query parts that were content parts (words, patronymics, initials, particles). */
  contentParts: number;
}

export interface Pair {
  qi: number;
  qj: number; // qj > qi when two query parts joined
  ci: number;
  cj: number;
  s: number;
  how: AlignedPart['how'];
}

const CONTENT = new Set<PartKind>(['word', 'patronymic', 'initial', 'particle']);

type Similarity = ReturnType<typeof partSimilarity>;

/**
 * One query's side of its comparisons, worked out once for the dozens of listed names it is compared
 * with: its content parts, numbers and list weights, and the part similarities already computed.
 * Listed parts are shared objects (the index interns them), and a query meets the same listed part in
 * many candidate names (about three comparisons in four repeat one), so each pair is scored once.
 */
export class QueryParts {
  readonly content: number[] = [];
  readonly numbers: string[] = [];
  /** The lists' weight of each query part, undefined where the lists do not know the part. */
  readonly known: (number | undefined)[];
  private readonly seen: Map<ScoredPart, Similarity>[];
  /** The query's joinable runs (see joinRuns), and the lengths of its words (see wordLengths). */
  readonly runs: JoinRun[];
  readonly wordLengths: number;
  /** Every content part was read from Chinese characters (see scoreAlignment). */
  readonly han: boolean;
  /**
   * The name has two content parts or more, all read from Chinese characters or Hangul: a Chinese,
   * Japanese or Korean name written in its own characters, family name first (see familyNameUnmatched).
   */
  readonly familyFirst: boolean;

  /**
   * The query says it names an organization, vessel or aircraft: by its entity type, or by a legal
   * form among its parts (not one read from a slip, which may be a surname: see ScoredPart.slip).
   */
  readonly organization: boolean;

  constructor(
    readonly parts: ScoredPart[],
    idfOf: (s: string) => number | undefined,
    readonly maxIdf: number,
    organizationType = false,
    /** The query names a person by a role title ("President Putin", "Mullah Omar"; see namesByTitle). */
    readonly byTitle = false,
  ) {
    this.organization = organizationType || parts.some((p) => p.kind === 'legal' && p.slip !== true);
    for (let i = 0; i < parts.length; i++) {
      const k = parts[i]!.kind;
      if (CONTENT.has(k)) this.content.push(i);
      else if (k === 'number') this.numbers.push(parts[i]!.text);
    }
    this.known = parts.map((p) => (p.kind === 'word' ? idfOf(p.text) : undefined));
    this.seen = parts.map(() => new Map());
    this.wordLengths = wordLengths(parts, this.content);
    this.han = this.content.length > 0 && this.content.every((i) => parts[i]!.translit === 'han');
    this.familyFirst =
      this.content.length >= 2 &&
      this.content.every((i) => parts[i]!.translit === 'han' || parts[i]!.translit === 'hangul');
    // The syllables of a given name are written apart or joined (Song Hun, Songhun); a family name
    // is never joined to them (莫娜 is Mo Na, not Mona).
    const runs = joinRuns(parts, this.content);
    this.runs = this.familyFirst ? runs.filter((r) => r.start > 0) : runs;
  }

  /** partSimilarity of query part `i` and a listed part, computed once per pair. */
  similarity(i: number, listed: ScoredPart): Similarity {
    const seen = this.seen[i]!;
    let r = seen.get(listed);
    if (r === undefined) {
      r = partSimilarity(this.parts[i]!, listed);
      seen.set(listed, r);
    }
    return r;
  }
}

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
export function compareParts(query: QueryParts, c: ScoredPart[], listed: ListedAs): NameComparison;
export function compareParts(
  query: QueryParts,
  c: ScoredPart[],
  listed: ListedAs,
  atLeast: number,
): NameComparison | undefined;
export function compareParts(
  query: QueryParts,
  c: ScoredPart[],
  listed: ListedAs,
  atLeast?: number,
): NameComparison | undefined {
  const { organization } = listed;
  const q = query.parts;
  const qc = query.content;
  const cc: number[] = [];
  const cNum: string[] = [];
  for (let i = 0; i < c.length; i++) {
    const k = c[i]!.kind;
    if (CONTENT.has(k)) cc.push(i);
    else if (k === 'number') cNum.push(c[i]!.text);
  }
  const pairs: Pair[] = [];
  for (const i of qc) {
    for (const j of cc) {
      const r = query.similarity(i, c[j]!);
      if (r.s > 0) pairs.push({ qi: i, qj: i, ci: j, cj: j, s: r.s, how: r.how });
    }
  }
  // Joined parts: "abdul rahman" ~ "abdulrahman", on either side.
  joinPairs(query.runs, q, qc, c, cc, pairs, false);
  joinPairs(
    joinRuns(c, cc, (n) => lengthFits(query.wordLengths, n)),
    c,
    cc,
    q,
    qc,
    pairs,
    true,
  );
  // Initials written together ("JC" / "Jean-Claude") and an organization's acronym ("PLA" /
  // "People's Liberation Army"), on either side.
  abbreviationPairs(q, qc, c, cc, organization, pairs, false);
  // A listed acronym is not read against a query's words: every three-word name spells some acronym.
  if (!organization) abbreviationPairs(c, cc, q, qc, false, pairs, true);
  if (atLeast !== undefined && atLeast > 0 && 100 * scoreBound(query, c, cc, pairs) < atLeast) return undefined;
  // Equal similarities: the wider (joined) pair first, then the pair whose parts stand at the same
  // relative place in both names (so "Kyawmaung Maung" pairs its "maung" with the last "maung").
  const rel = (p: Pair): number => Math.abs((p.qi + p.qj) / 2 / q.length - (p.ci + p.cj) / 2 / c.length);
  pairs.sort((x, y) => y.s - x.s || y.qj - y.qi + y.cj - y.ci - (x.qj - x.qi + x.cj - x.ci) || rel(x) - rel(y));
  const { qUsed, cUsed, qSim, qPartnerIdf, qPartner } = scratchFor(q.length, c.length);
  // The alignment is spelled out (texts joined) only for the comparisons that get explained.
  const chosen: Pair[] = [];
  for (const p of pairs) {
    let taken = false;
    for (let x = p.qi; x <= p.qj; x++) if (qUsed[x]) taken = true;
    for (let x = p.ci; x <= p.cj; x++) if (cUsed[x]) taken = true;
    if (taken) continue;
    let cIdf = 0;
    // A query part standing for several listed parts carries their information together.
    for (let x = p.ci; x <= p.cj; x++) {
      cUsed[x] = 1;
      cIdf += c[x]!.idf;
    }
    for (let x = p.qi; x <= p.qj; x++) {
      qUsed[x] = 1;
      qSim[x] = p.s;
      qPartnerIdf[x] = cIdf;
    }
    if (p.qi === p.qj && p.ci === p.cj) qPartner[p.qi] = p.ci;
    chosen.push(p);
  }
  return scoreAlignment({
    query,
    listed: c,
    listedContent: cc,
    listedNumbers: cNum,
    organization,
    chosen,
    qUsed,
    cUsed,
    qSim,
    qPartnerIdf,
    qPartner,
  });
}

/** How the parts of a comparison aligned, spelled out (only compared names that get explained need it). */
export function alignmentOf(cmp: NameComparison): AlignedPart[] {
  const { query: q, listed: c } = cmp;
  return cmp.aligned.map((p) => ({
    query: q
      .slice(p.qi, p.qj + 1)
      .map((x) => x.text)
      .join(' '),
    listed: c
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
    const q = Math.max(qLength, scratchBuffers.q, 16);
    const c = Math.max(cLength, scratchBuffers.c, 32);
    scratchBuffers = {
      q,
      c,
      buffers: {
        qUsed: new Uint8Array(q),
        cUsed: new Uint8Array(c),
        qSim: new Float64Array(q),
        qPartnerIdf: new Float64Array(q),
        qPartner: new Int32Array(q),
      },
    };
  }
  const b = scratchBuffers.buffers!;
  b.qUsed.fill(0, 0, qLength);
  b.cUsed.fill(0, 0, cLength);
  b.qSim.fill(0, 0, qLength);
  b.qPartnerIdf.fill(0, 0, qLength);
  b.qPartner.fill(-1, 0, qLength);
  return b;
}
