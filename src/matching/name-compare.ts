/**
 * Comparison of two names already split into parts: part-to-part similarity, a greedy best-pair
 * alignment that is free in word order and lets two adjacent parts stand for one joined part,
 * and the weighted coverage of both sides.
 */
import type { AlignedPart } from './types.js';
import type { PartKind } from './normalize.js';
import { jaroWinkler, levenshtein } from './similarity.js';

export interface ScoredPart {
  text: string;
  kind: PartKind;
  pk: string;
  /** Informativeness weight (IDF-like, natural log). */
  idf: number;
  translit?: boolean;
}

export interface NameComparison {
  /** 0..1 similarity of the names. */
  score: number;
  /** Sum of IDF of the query parts that found a partner, scaled by similarity. */
  information: number;
  alignment: AlignedPart[];
  unmatchedQuery: string[];
  unmatchedListed: string[];
  /** Numbers on one side missing on the other. */
  numberConflict: boolean;
  /** Query parts that were content parts (words, patronymics, initials, particles). */
  contentParts: number;
}

/**
 * Similarity of two name parts, 0 when they should not be aligned at all. Values are calibrated
 * so that 1 = same, ~0.95 = one slip in a long part, ~0.9 = a spelling variant, below 0.85 = doubtful.
 */
export function partSimilarity(a: ScoredPart, b: ScoredPart, strict = false): { s: number; how: AlignedPart['how'] } {
  if (a.text === b.text) return { s: 1, how: 'exact' };
  const la = a.text.length;
  const lb = b.text.length;
  if (la === 1 || lb === 1) {
    // An initial stands for a part with that first letter; two different initials never align.
    if (!strict && a.text[0] === b.text[0] && (a.kind === 'initial' || b.kind === 'initial')) return { s: 0.75, how: 'initial' };
    return { s: 0, how: 'fuzzy' };
  }
  // Numbers agree exactly or not at all.
  if (/\d/.test(a.text) || /\d/.test(b.text)) return { s: 0, how: 'fuzzy' };
  const minLen = Math.min(la, lb);
  // Cheap rejection: lengths far apart and different skeletons never reach the threshold.
  if (a.pk !== b.pk && (la > lb + 3 || lb > la + 3)) return { s: 0, how: 'fuzzy' };
  const jw = jaroWinkler(a.text, b.text);
  const sameFirst = a.text.charCodeAt(0) === b.text.charCodeAt(0);
  let s = 0;
  let how: AlignedPart['how'] = 'fuzzy';
  if (jw >= 0.9 && minLen >= 4) s = jw - 0.03;
  if (Math.abs(la - lb) <= 2) {
    const d = levenshtein(a.text, b.text, 2);
    if (d === 1) {
      if (minLen >= 6) s = Math.max(s, 0.95);
      else if (minLen >= 4) s = Math.max(s, sameFirst ? 0.9 : 0.8);
      else if (minLen >= 3 && sameFirst) s = Math.max(s, 0.82);
    } else if (d === 2) {
      if (minLen >= 7) s = Math.max(s, sameFirst ? 0.9 : 0.84);
      else if (minLen >= 5 && sameFirst) s = Math.max(s, 0.82);
    }
  }
  if (!strict && minLen >= 4 && la === lb && a.text === [...b.text].reverse().join('')) return { s: 0.9, how: 'fuzzy' };
  if (!strict && a.pk === b.pk && (a.pk.length >= 2 || (a.pk.length === 1 && (Math.max(la, lb) <= 3 || a.translit === true || b.translit === true)))) {
    // Same consonant skeleton: a spelling variant when the strings agree otherwise too; across
    // scripts (vowels unwritten, consonant classes guessed) the skeleton alone is the evidence.
    const crossScript = a.translit === true || b.translit === true;
    if (crossScript || jw >= 0.8 || Math.max(la, lb) <= 3) {
      const ps = crossScript ? 0.9 : 0.86 + 0.3 * (jw - 0.8);
      if (ps > s) { s = ps; how = 'phonetic'; }
    }
  }
  if (s < 0.8) return { s: 0, how };
  return { s: Math.min(s, 0.99), how };
}

interface Pair {
  qi: number;
  qj: number; // qj > qi when two query parts joined
  ci: number;
  cj: number;
  s: number;
  how: AlignedPart['how'];
}

const CONTENT = new Set<PartKind>(['word', 'patronymic', 'initial', 'particle']);

/** Weight of an unpartnered part when judging a conflict: a different patronymic or initial is a different person. */
function conflictWeight(p: ScoredPart, w: number): number {
  if (p.kind === 'patronymic') return p.idf;
  if (p.kind === 'initial') return 2.5;
  if (p.kind === 'particle') return 0.2;
  // Even a common part (Abdul, Mohammad) replaced by another is a different father or tribe.
  return Math.max(w, 5);
}

function kindWeight(p: ScoredPart): number {
  switch (p.kind) {
    case 'word': return p.idf;
    case 'patronymic': return p.idf * 0.35;
    case 'particle': return 0.4;
    case 'initial': return 1.2;
    default: return 0;
  }
}

/**
 * Compare query parts with listed parts. `pkOf` computes the phonetic key of a joined part.
 */
export function compareParts(q: ScoredPart[], c: ScoredPart[], pkOf: (s: string) => string, idfOf: (s: string) => number | undefined, maxIdf: number): NameComparison {
  const qc: number[] = [];
  const cc: number[] = [];
  const qNum: string[] = [];
  const cNum: string[] = [];
  for (let i = 0; i < q.length; i++) {
    const k = q[i]!.kind;
    if (CONTENT.has(k)) qc.push(i);
    else if (k === 'number') qNum.push(q[i]!.text);
  }
  for (let i = 0; i < c.length; i++) {
    const k = c[i]!.kind;
    if (CONTENT.has(k)) cc.push(i);
    else if (k === 'number') cNum.push(c[i]!.text);
  }
  const pairs: Pair[] = [];
  for (const i of qc) {
    for (const j of cc) {
      const r = partSimilarity(q[i]!, c[j]!);
      if (r.s > 0) pairs.push({ qi: i, qj: i, ci: j, cj: j, s: r.s, how: r.how });
    }
  }
  // Joined parts: "abdul rahman" ~ "abdulrahman", on either side.
  joinPairs(q, qc, c, cc, pkOf, pairs, false);
  joinPairs(c, cc, q, qc, pkOf, pairs, true);
  pairs.sort((x, y) => y.s - x.s || (y.qj - y.qi + y.cj - y.ci) - (x.qj - x.qi + x.cj - x.ci));
  const qUsed = new Uint8Array(q.length);
  const cUsed = new Uint8Array(c.length);
  const qSim = new Float64Array(q.length);
  const cSim = new Float64Array(c.length);
  const qPartnerIdf = new Float64Array(q.length);
  const alignment: AlignedPart[] = [];
  for (const p of pairs) {
    let taken = false;
    for (let x = p.qi; x <= p.qj; x++) if (qUsed[x]) taken = true;
    for (let x = p.ci; x <= p.cj; x++) if (cUsed[x]) taken = true;
    if (taken) continue;
    let cIdf = 0;
    for (let x = p.ci; x <= p.cj; x++) { cUsed[x] = 1; cSim[x] = p.s; cIdf = Math.max(cIdf, c[x]!.idf); }
    for (let x = p.qi; x <= p.qj; x++) { qUsed[x] = 1; qSim[x] = p.s; qPartnerIdf[x] = cIdf; }
    alignment.push({
      query: q.slice(p.qi, p.qj + 1).map((x) => x.text).join(' '),
      listed: c.slice(p.ci, p.cj + 1).map((x) => x.text).join(' '),
      similarity: Math.round(p.s * 100) / 100,
      how: p.qi !== p.qj || p.ci !== p.cj ? 'joined' : p.how,
    });
  }
  let mq = 0, matchedW = 0, info = 0, uq = 0;
  const unmatchedQuery: string[] = [];
  const matchedTexts = new Set<string>();
  for (const i of qc) if (qUsed[i]) matchedTexts.add(q[i]!.text);
  for (const i of qc) {
    const part = q[i]!;
    // A query part unknown to the lists takes the weight of its partner (a typo is not a rare name);
    // unknown and unpartnered, it weighs as much as the rarest name part.
    let w: number;
    if (part.kind === 'word') {
      const known = idfOf(part.text);
      w = known ?? (qUsed[i] ? qPartnerIdf[i]! : maxIdf);
      if (known !== undefined && qUsed[i] && qPartnerIdf[i]! > 0) w = Math.min(w, Math.max(qPartnerIdf[i]!, w * 0.8));
    } else w = kindWeight(part);
    if (qUsed[i]) {
      matchedW += w;
      mq += w * eff(qSim[i]!);
      if (part.kind === 'word' || part.kind === 'patronymic') info += (part.kind === 'patronymic' ? 0.5 : 1) * w * qSim[i]!;
      else if (part.kind === 'initial') info += 0.5;
    } else {
      // A part repeated in the query ("Shoigu Shoigu Sergey") adds nothing once matched.
      if (matchedTexts.has(part.text)) continue;
      uq += conflictWeight(part, w);
      unmatchedQuery.push(part.text);
    }
  }
  let uc = 0, ucLight = 0;
  const unmatchedListed: string[] = [];
  for (const j of cc) {
    const part = c[j]!;
    if (cUsed[j]) continue;
    uc += conflictWeight(part, part.idf);
    ucLight += kindWeight(part);
    unmatchedListed.push(part.text);
  }
  // Parts present on both sides but different (a swapped surname, another father's name) are
  // evidence of another person; parts only the listed name has (middle names, a grandfather's
  // name, a tribal name) cost little; parts only the query has cost more.
  const conflict = Math.min(uq, uc);
  const extraQ = uq - conflict;
  const extraC = Math.max(0, ucLight - conflict);
  const denom = matchedW + 3 * conflict + 0.6 * extraQ + 0.3 * extraC;
  const cov = denom > 0 ? mq / denom : 0;
  let score = Math.pow(cov, 1.5);
  // Only particles or initials aligned: no real match.
  let substantive = false;
  for (let i = 0; i < q.length; i++) if (qUsed[i] && (q[i]!.kind === 'word' || q[i]!.kind === 'patronymic')) substantive = true;
  if (!substantive) score = 0;
  let numberConflict = false;
  if (qNum.length > 0 || cNum.length > 0) {
    const cs = new Set(cNum);
    const qs = new Set(qNum);
    for (const n of qNum) if (!cs.has(n)) numberConflict = true;
    for (const n of cNum) if (!qs.has(n)) numberConflict = true;
  }
  return { score, information: info, alignment, unmatchedQuery, unmatchedListed, numberConflict, contentParts: qc.length };
}

/** Doubtful part similarities count much less than near-certain ones. */
function eff(s: number): number {
  return s * s * s;
}

function joinPairs(a: ScoredPart[], ac: number[], b: ScoredPart[], bc: number[], pkOf: (s: string) => string, out: Pair[], swapped: boolean): void {
  for (let k = 0; k + 1 < ac.length; k++) for (let len = 2; len <= 4 && k + len <= ac.length; len++) {
    let text = '';
    let hasInitial = false;
    for (let x = k; x < k + len; x++) {
      const part = a[ac[x]!]!;
      if (part.kind === 'initial') hasInitial = true;
      text += part.text;
    }
    if (hasInitial) continue;
    const i = ac[k]!;
    const i2 = ac[k + len - 1]!;
    // Strict comparison ignores phonetic keys, so none is computed for the joined text.
    const joined: ScoredPart = { text, kind: 'word', pk: '', idf: 0 };
    for (const j of bc) {
      const other = b[j]!;
      if ((other.kind !== 'word' && other.kind !== 'patronymic') || other.text.length < text.length - 2 || other.text.length > text.length + 2 || other.text.charCodeAt(0) !== text.charCodeAt(0)) continue;
      const r = partSimilarity(joined, other, true);
      if (r.s < 0.9) continue;
      const s = r.s * 0.97;
      out.push(swapped ? { qi: j, qj: j, ci: i, cj: i2, s, how: 'joined' } : { qi: i, qj: i2, ci: j, cj: j, s, how: 'joined' });
    }
  }
}
