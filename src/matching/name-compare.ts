/**
 * Comparison of two names already split into parts: part-to-part similarity, a greedy best-pair
 * alignment that is free in word order and lets two adjacent parts stand for one joined part,
 * and the weighted coverage of both sides.
 */
import { toCountryCode } from '../lists/countries.js';
import { sameGivenName } from './name-variants.js';
import type { AlignedPart } from './types.js';
import type { PartKind, Translit } from './normalize.js';
import { isTransposition, jaroWinkler, levenshtein, phoneticKey, spellingFold } from './similarity.js';
import { wadeGilesSpells, wadeGilesSpellsSyllable } from './wade-giles.js';

export interface ScoredPart {
  text: string;
  kind: PartKind;
  pk: string;
  /** Informativeness weight (IDF-like, natural log). */
  idf: number;
  translit?: Translit;
  /** spellingFold() of the text, for words. */
  fold?: string;
}

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
    if (!strict && a.text[0] === b.text[0] && (a.kind === 'initial' || b.kind === 'initial'))
      return { s: 0.75, how: 'initial' };
    return { s: 0, how: 'fuzzy' };
  }
  // A hypocorism or the same given name in another language (Bill / William, Juan / John).
  if (!strict && sameGivenName(a.text, b.text)) return { s: 0.9, how: 'nickname' };
  // One Mandarin syllable in Wade-Giles and in Pinyin (Hsi / Xi).
  if (
    !strict &&
    la <= 6 &&
    lb <= 6 &&
    (wadeGilesSpellsSyllable(a.text, b.text) || wadeGilesSpellsSyllable(b.text, a.text))
  )
    return { s: 0.93, how: 'phonetic' };
  // Numbers agree exactly or not at all; so do parts holding characters no table transliterated,
  // and Pinyin read from Chinese characters: a syllable that differs is another character (Jinxing
  // is not Jinping), as Chinese given names are made of a few hundred common syllables.
  if (OPAQUE.test(a.text) || OPAQUE.test(b.text) || a.translit === 'han' || b.translit === 'han')
    return { s: 0, how: 'fuzzy' };
  const minLen = Math.min(la, lb);
  // Cheap rejection: lengths far apart and different skeletons never reach the threshold.
  if (a.pk !== b.pk && (la > lb + 3 || lb > la + 3)) return { s: 0, how: 'fuzzy' };
  // Most pairs a query meets are different names: unless the skeletons or spellings agree, letters
  // in common tell beforehand that neither Jaro-Winkler nor the edit distance can come close.
  if (a.pk !== b.pk && (a.fold === undefined || a.fold !== b.fold) && farApart(a.text, b.text))
    return { s: 0, how: 'fuzzy' };
  const jw = jaroWinkler(a.text, b.text);
  const sameFirst = a.text.charCodeAt(0) === b.text.charCodeAt(0);
  let s = 0;
  let how: AlignedPart['how'] = 'fuzzy';
  if (jw >= 0.9 && minLen >= 4) s = jw - 0.03;
  // Parts of clearly different lengths (Ronaldinho / Ronaldo) are at best doubtful.
  if (Math.abs(la - lb) > 2) s = Math.min(s, 0.82);
  else {
    let d = levenshtein(a.text, b.text, 2);
    // Two neighbouring letters swapped is one slip, not two (Zhagn / Zhang).
    if (d === 2 && la === lb && isTransposition(a.text, b.text)) d = 1;
    if (d === 1 && la === lb && minLen >= 5 && vowelForVowel(a.text, b.text)) {
      // One vowel written for another, inside the word or at its start: the commonest difference
      // between romanizations of one name (Osama / Usama, Laden / Ladin, Ebrahim / Ibrahim), whose
      // source script leaves short vowels unwritten or spells them otherwise. (At the end it is
      // often an inflection, Antonio / Antonia.)
      s = Math.max(s, 0.95);
      how = 'phonetic';
    } else if (d === 1) {
      // A different first letter is more often another name (Hernandez/Fernandez) than a slip.
      if (minLen >= 6) s = Math.max(s, sameFirst ? 0.95 : 0.86);
      else if (minLen >= 4) s = Math.max(s, sameFirst ? 0.9 : 0.8);
      else if (minLen >= 3 && sameFirst) s = Math.max(s, 0.82);
    } else if (d === 2) {
      // Two edits in a long part are as often another name (Abdurrahim / Abdurrahman) as a variant.
      s = minLen >= 7 && sameFirst ? 0.86 : minLen >= 5 && sameFirst ? 0.82 : Math.min(s, 0.82);
    } else if (d > 2) s = Math.min(s, 0.82);
  }
  if (!strict && minLen >= 4 && la === lb && isReversed(a.text, b.text)) return { s: 0.9, how: 'fuzzy' };
  if (
    !strict &&
    s < 0.95 &&
    a.fold !== undefined &&
    a.fold === b.fold &&
    a.fold.length >= 2 &&
    minLen >= 2 &&
    Math.max(la, lb) >= 3
  ) {
    // One name in two romanizations (see spellingFold).
    return { s: 0.95, how: 'phonetic' };
  }
  const abjad = a.translit === 'abjad' || b.translit === 'abjad';
  if (!strict && a.pk === b.pk && (a.pk.length >= 2 || (a.pk.length === 1 && (Math.max(la, lb) <= 3 || abjad)))) {
    // Same consonant skeleton: a spelling variant when the strings agree otherwise too. From a
    // script that writes no short vowels the skeleton alone is the evidence; from other scripts
    // (vowels written, consonant classes guessed) a little less string agreement is asked.
    const floor = abjad
      ? 0
      : a.translit !== undefined || b.translit !== undefined
        ? 0.75
        : Math.max(la, lb) >= 6
          ? 0.8
          : 0.85;
    if (jw >= floor || Math.max(la, lb) <= 3) {
      const ps = abjad ? 0.9 : 0.86 + 0.3 * (jw - floor);
      if (ps > s) {
        s = ps;
        how = 'phonetic';
      }
    }
  }
  // A different first letter is rarely a slip in a short part (Anna / Banna) and not often in a long one.
  if (!sameFirst && how === 'fuzzy' && s > 0) s = minLen < 4 ? 0 : Math.min(s, 0.86);
  // Another inflection of one stem is another name: Antonio/Antonia, Martin/Martina, Ivanov/Ivanova.
  // Kept alignable, but as a doubtful pair. (A final -s is left alone: Baltic languages add it to
  // every foreign name, Putins / Putin.)
  if (!strict && minLen >= 4 && s > 0.8 && inflected(a.text, b.text)) s = 0.8;
  if (s < 0.8) return { s: 0, how };
  return { s: Math.min(s, 0.99), how };
}

const OPAQUE = /[^a-z]/;
const letterCounts = new Int32Array(128);

/**
 * True when two words of Latin letters share too few letters for Jaro-Winkler to reach 0.9 or the
 * edit distance to be 2 or less. With c letters in common (as multisets), Jaro is at most
 * (c/la + c/lb + 1) / 3 and Jaro-Winkler at most 0.6 Jaro + 0.4, so 0.9 needs c/la + c/lb >= 1.5;
 * and the edit distance is at least max(la, lb) - c.
 */
export function farApart(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  for (let i = 0; i < la; i++) letterCounts[a.charCodeAt(i)]!++;
  let common = 0;
  for (let i = 0; i < lb; i++) {
    const k = b.charCodeAt(i);
    if (letterCounts[k]! > 0) {
      letterCounts[k]!--;
      common++;
    }
  }
  for (let i = 0; i < la; i++) letterCounts[a.charCodeAt(i)] = 0;
  return common / la + common / lb < 1.5 - 1e-9 && Math.max(la, lb) - common > 2;
}
/**
 * The vowels romanizations of one name swap: o/u and e/i (Arabic and Persian write the short
 * vowels u and i, or none; Turkish, French and English spellings render them o and e). Others,
 * a/i or e/o, more often make another name (Shane / Shine, Leene / Leone).
 */
const SAME_VOWEL = new Set(['ou', 'uo', 'ei', 'ie']);

const SYLLABLES = /[aeiou]+[^aeiou]+[aeiou]/;

/**
 * Same length, one position differs, both letters there vowels, not the last letter, and words of
 * two syllables or more: in a one-syllable part (Chinese, Korean: Zhong / Zhang) the vowel makes
 * another syllable.
 */
function vowelForVowel(a: string, b: string): boolean {
  let at = -1;
  for (let i = 0; i < a.length; i++) {
    if (a.charCodeAt(i) === b.charCodeAt(i)) continue;
    if (at >= 0) return false;
    at = i;
  }
  return at >= 0 && at < a.length - 1 && SAME_VOWEL.has(a[at]! + b[at]!) && SYLLABLES.test(a) && SYLLABLES.test(b);
}
const FILIATION = new Set(['bin', 'ibn', 'ben', 'bint', 'binti', 'ould', 'walad']);

/** Role of each part in an Arabic filiation chain: 1 = own name (before the first "bin"), 2 = father's name (right after a "bin"). */
function roles(parts: ScoredPart[]): Int8Array | undefined {
  const out = new Int8Array(parts.length);
  let first = -1;
  for (let i = 0; i < parts.length; i++)
    if (parts[i]!.kind === 'particle' && FILIATION.has(parts[i]!.text)) {
      first = i;
      break;
    }
  if (first <= 0) return undefined;
  for (let i = first - 1; i >= 0; i--)
    if (parts[i]!.kind === 'word') {
      out[i] = 1;
      break;
    }
  for (let i = first; i < parts.length; i++) {
    if (!(parts[i]!.kind === 'particle' && FILIATION.has(parts[i]!.text))) continue;
    for (let k = i + 1; k < parts.length; k++)
      if (parts[k]!.kind === 'word') {
        out[k] = 2;
        break;
      }
  }
  return out;
}

/** `a` is `b` read backwards (by code points). */
function isReversed(a: string, b: string): boolean {
  const n = b.length;
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const code = b.charCodeAt(i);
    // Surrogate pairs must stay pairs when reversed: leave those to the general path.
    if (code >= 0xd800 && code <= 0xdfff) return a === [...b].reverse().join('');
    if (a.charCodeAt(n - 1 - i) !== code) return false;
  }
  return true;
}

/**
 * Both roles swapped: the query's own name is the listed father's name and the query's father's name
 * the listed own name. One part in another role alone is no swap: a "bin" left out of the query
 * ("Al-Azhar Khalifa ben Ahmed" / "Al-Azhar ben Khalifa ben Ahmed") moves the first "bin" along.
 */
function rolesSwapped(q: ScoredPart[], c: ScoredPart[], qPartner: Int32Array): boolean {
  const rq = roles(q);
  if (!rq) return false;
  const rc = roles(c);
  if (!rc) return false;
  let ownAsFather = false;
  let fatherAsOwn = false;
  for (let i = 0; i < q.length; i++) {
    const j = qPartner[i]!;
    if (j < 0) continue;
    if (rq[i] === 1 && rc[j] === 2) ownAsFather = true;
    else if (rq[i] === 2 && rc[j] === 1) fatherAsOwn = true;
  }
  return ownAsFather && fatherAsOwn;
}

const countryWords = new Map<string, boolean>();
function isCountryWord(t: string): boolean {
  let v = countryWords.get(t);
  if (v === undefined) {
    v = t.length >= 4 && toCountryCode(t) !== undefined;
    if (countryWords.size >= 100_000) countryWords.clear();
    countryWords.set(t, v);
  }
  return v;
}
const VOWEL_END = /[aeo]$/;

function inflected(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.length === short.length + 1 && long.startsWith(short)) return long.endsWith('a');
  return long.length === short.length && VOWEL_END.test(a) && VOWEL_END.test(b) && a.slice(0, -1) === b.slice(0, -1);
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
    case 'word':
      return p.idf;
    case 'patronymic':
      return p.idf * 0.35;
    case 'particle':
      return 0.4;
    case 'initial':
      return 1.2;
    default:
      return 0;
  }
}

type Similarity = ReturnType<typeof partSimilarity>;

/** A part similarity below this is a doubtful pair (see partSimilarity's calibration). */
const DOUBTFUL = 0.9;
/** Cost of a listed part left over when the alignment holds a doubtful pair of known names (see compareParts). */
const DOUBTFUL_EXTRA_COST = 1.2;

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

  constructor(
    readonly parts: ScoredPart[],
    idfOf: (s: string) => number | undefined,
    readonly maxIdf: number,
  ) {
    for (let i = 0; i < parts.length; i++) {
      const k = parts[i]!.kind;
      if (CONTENT.has(k)) this.content.push(i);
      else if (k === 'number') this.numbers.push(parts[i]!.text);
    }
    this.known = parts.map((p) => (p.kind === 'word' ? idfOf(p.text) : undefined));
    this.seen = parts.map(() => new Map());
    this.runs = joinRuns(parts, this.content);
    this.wordLengths = wordLengths(parts, this.content);
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

/**
 * Compare query parts with listed parts. `query` carries the query's parts with what is known of
 * them (see QueryParts); a pair check passes a fresh one. With `atLeast` (0..100), a comparison that
 * cannot reach it (see scoreBound) is not worked out: undefined.
 */
export function compareParts(query: QueryParts, c: ScoredPart[], organization: boolean): NameComparison;
export function compareParts(
  query: QueryParts,
  c: ScoredPart[],
  organization: boolean,
  atLeast: number,
): NameComparison | undefined;
export function compareParts(
  query: QueryParts,
  c: ScoredPart[],
  organization: boolean,
  atLeast?: number,
): NameComparison | undefined {
  const q = query.parts;
  const qc = query.content;
  const qNum = query.numbers;
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
  const { qUsed, cUsed, qSim, cSim, qPartnerIdf, qPartner } = scratchFor(q.length, c.length);
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
      cSim[x] = p.s;
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
  let mq = 0,
    matchedW = 0,
    info = 0,
    uq = 0;
  // ...unless the listed name has a part of its own in that place (Abdul Kabir Abdul Jan / Abdul Kabir Mohammad Jan).
  let listedLeft = false;
  for (const j of cc) if (!cUsed[j] && c[j]!.kind === 'word') listedLeft = true;
  const unmatchedQuery: string[] = [];
  const matchedElsewhere = (text: string): boolean => {
    for (const i of qc) if (qUsed[i] && q[i]!.text === text) return true;
    return false;
  };
  for (const i of qc) {
    const part = q[i]!;
    // A query part unknown to the lists takes the weight of its partner (a typo is not a rare name);
    // unknown and unpartnered, it weighs as much as the rarest name part.
    let w: number;
    if (part.kind === 'word') {
      const known = query.known[i];
      w = known ?? (qUsed[i] ? qPartnerIdf[i]! : query.maxIdf);
      if (known !== undefined && qUsed[i] && qPartnerIdf[i]! > 0) w = Math.min(w, Math.max(qPartnerIdf[i]!, w * 0.8));
    } else w = kindWeight(part);
    if (qUsed[i]) {
      matchedW += w;
      mq += w * eff(qSim[i]!);
      if (part.kind === 'word' || part.kind === 'patronymic')
        info += (part.kind === 'patronymic' ? 0.5 : 1) * w * qSim[i]!;
      else if (part.kind === 'initial') info += 0.5;
    } else {
      // A part repeated in the query ("Shoigu Shoigu Sergey") adds nothing once matched.
      if (!listedLeft && matchedElsewhere(part.text)) continue;
      uq += conflictWeight(part, w);
      unmatchedQuery.push(part.text);
    }
  }
  let uc = 0,
    ucLight = 0;
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
  // A one-word listed name ("Troy", "Benson") found inside a longer query explains little of it.
  let listedWords = 0;
  for (const j of cc) if (c[j]!.kind === 'word' || c[j]!.kind === 'patronymic') listedWords++;
  const extraQCost = listedWords <= 1 ? 1.2 : 0.6;
  // Two listed parts missing are middle names; three or more are a different, longer name.
  // (Particles, de, van, bin, ibn, are connectors, not names: they are not counted.)
  let missingNames = 0;
  for (const j of cc) if (!cUsed[j] && c[j]!.kind !== 'particle') missingNames++;
  // ...unless the names also align only doubtfully: a query part the lists know as a name of its own
  // taken for a listed one it merely resembles (Martina / Maria, Amparo / Alvaro) and listed names
  // missing besides are a different person who shares a surname, not one whose middle names were left out.
  let doubtful = false;
  for (const p of chosen)
    if (p.how === 'fuzzy' && p.s < DOUBTFUL && p.qi === p.qj && query.known[p.qi] !== undefined) doubtful = true;
  const extraCCost = doubtful ? DOUBTFUL_EXTRA_COST : missingNames <= 2 ? 0.3 : 0.5;
  const denom = matchedW + 4 * conflict + extraQCost * extraQ + extraCCost * extraC;
  const cov = denom > 0 ? mq / denom : 0;
  let score = Math.pow(cov, 1.5);
  // One word against one word ("Stellaris" / "Stellantis"): the part similarity is the whole
  // evidence, not a share of a longer name diluted by the coverage formula.
  if (qc.length === 1 && cc.length === 1 && qUsed[qc[0]!] && unmatchedListed.length === 0)
    score = Math.max(score, qSim[qc[0]!]! * qSim[qc[0]!]!);
  // "Salman bin Muhammad" is the son of "Muhammad bin Salman": the same parts in swapped roles.
  if (rolesSwapped(q, c, qPartner)) score *= 0.45;
  // A country on one side only of an organization's name is another branch or subsidiary
  // ("Banco Santander" / "Banco Santander Mexico").
  if (organization && (unmatchedQuery.some(isCountryWord) || unmatchedListed.some(isCountryWord))) score *= 0.6;
  // Only particles or initials aligned: no real match.
  let substantive = false;
  for (let i = 0; i < q.length; i++)
    if (qUsed[i] && (q[i]!.kind === 'word' || q[i]!.kind === 'patronymic')) substantive = true;
  if (!substantive) score = 0;
  let numberConflict = false;
  if (qNum.length > 0 || cNum.length > 0) {
    const cs = new Set(cNum);
    const qs = new Set(qNum);
    for (const n of qNum) if (!cs.has(n)) numberConflict = true;
    for (const n of cNum) if (!qs.has(n)) numberConflict = true;
  }
  return {
    score,
    information: info,
    aligned: chosen,
    query: q,
    listed: c,
    unmatchedQuery,
    unmatchedListed,
    numberConflict,
    contentParts: qc.length,
  };
}

let partnerScratch = new Float64Array(16);

/**
 * The most a comparison can score, from its candidate pairs alone: every query part some pair
 * covers counted as matched in full with the largest weight it can take, every other one as
 * unmatched. compareParts' score is at most cov^1.5 (the other rules only lower it) with cov at most
 * matched weight / (matched weight + 0.6 x unmatched query weight), since similarities are at most
 * 1 and conflicts and unpartnered query parts cost 0.6 or more each. Most candidates of a query
 * share one common part with it and nothing else; this tells them apart before the alignment.
 */
function scoreBound(query: QueryParts, c: ScoredPart[], cc: number[], pairs: Pair[]): number {
  const q = query.parts;
  const qc = query.content;
  // One word against one word scores the part similarity itself.
  if (qc.length === 1 && cc.length === 1) return 1;
  if (partnerScratch.length < q.length) partnerScratch = new Float64Array(q.length);
  // The largest listed weight each query part could stand for; -1: no pair covers it.
  const partner = partnerScratch;
  partner.fill(-1, 0, q.length);
  for (const p of pairs) {
    let cIdf = 0;
    for (let x = p.ci; x <= p.cj; x++) cIdf += c[x]!.idf;
    for (let x = p.qi; x <= p.qj; x++) if (cIdf > partner[x]!) partner[x] = cIdf;
  }
  let matched = 0;
  let unmatched = 0;
  for (const i of qc) {
    const part = q[i]!;
    const known = query.known[i];
    if (partner[i]! >= 0) {
      // A known word weighs at most its own weight; an unknown one takes its partner's.
      matched += part.kind === 'word' ? (known ?? partner[i]!) : kindWeight(part);
      continue;
    }
    // A repeat of a part that may be matched may cost nothing (see compareParts).
    let repeat = false;
    for (const k of qc) if (partner[k]! >= 0 && q[k]!.text === part.text) repeat = true;
    if (repeat) continue;
    unmatched += conflictWeight(part, part.kind === 'word' ? (known ?? query.maxIdf) : kindWeight(part));
  }
  if (matched <= 0) return 0;
  return Math.pow(matched / (matched + 0.6 * unmatched), 1.5);
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
  cSim: Float64Array;
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
        cSim: new Float64Array(c),
        qPartnerIdf: new Float64Array(q),
        qPartner: new Int32Array(q),
      },
    };
  }
  const b = scratchBuffers.buffers!;
  b.qUsed.fill(0, 0, qLength);
  b.cUsed.fill(0, 0, cLength);
  b.qSim.fill(0, 0, qLength);
  b.cSim.fill(0, 0, cLength);
  b.qPartnerIdf.fill(0, 0, qLength);
  b.qPartner.fill(-1, 0, qLength);
  return b;
}

/** Doubtful part similarities count much less than near-certain ones. */
function eff(s: number): number {
  return s * s * s;
}

const VOWEL = /[aeiouy]/;
/** Acronym letters of an organization's name skip these connectors ("Islamic State of Iraq and the Levant", ISIL). */
const ACRONYM_SKIP = new Set([
  'of',
  'and',
  'the',
  'for',
  'de',
  'des',
  'du',
  'la',
  'le',
  'del',
  'y',
  'e',
  'et',
  'und',
  'fur',
]);

/**
 * A part that is the first letters of two or more consecutive parts of the other name. For a
 * person: two or three consonants, initials written without dots or spaces ("JC" Juncker, "JF"
 * Kennedy), worth what an initial is. For an organization: an acronym of two to six letters,
 * connectors skipped ("PLA", "ISIL"); three letters or more count as a spelling of the name.
 */
function abbreviationPairs(
  a: ScoredPart[],
  ac: number[],
  b: ScoredPart[],
  bc: number[],
  organization: boolean,
  out: Pair[],
  swapped: boolean,
): void {
  for (const i of ac) {
    const part = a[i]!;
    const t = part.text;
    if (part.kind !== 'word' || part.translit !== undefined || t.length < 2) continue;
    if (organization ? t.length > 6 : t.length > 3 || VOWEL.test(t)) continue;
    for (let k = 0; k < bc.length; k++) {
      let at = 0;
      let words = 0;
      for (let x = k; x < bc.length; x++) {
        const other = b[bc[x]!]!;
        if (organization && words > 0 && ACRONYM_SKIP.has(other.text)) continue;
        if ((other.kind !== 'word' && other.kind !== 'patronymic') || other.text.length < 2 || other.text[0] !== t[at])
          break;
        at++;
        words++;
        if (at === t.length) {
          if (words >= 2) {
            const s = organization && t.length >= 3 ? 0.9 : 0.75;
            const j = bc[k]!,
              j2 = bc[x]!;
            out.push(
              swapped
                ? { qi: j, qj: j2, ci: i, cj: i, s, how: 'initial' }
                : { qi: i, qj: i, ci: j, cj: j2, s, how: 'initial' },
            );
          }
          break;
        }
      }
    }
  }
}

function syllables(a: ScoredPart[], ac: number[], k: number, len: number): string[] {
  const out: string[] = [];
  for (let x = k; x < k + len; x++) out.push(a[ac[x]!]!.text);
  return out;
}

const ARTICLES = new Set(['al', 'el', 'ul', 'ol']);
const ARTICLE_VOWEL = /[aeuo]/;
const ARTICLE_END = /[aeuo]l$/;

/** Two to four adjacent content parts of one name read as one joined part ("abdul rahman" / "abdulrahman"). */
interface JoinRun {
  /** Position of the run's first part among the name's content parts, and its length in parts. */
  start: number;
  len: number;
  /** First and last part index. */
  i: number;
  i2: number;
  text: string;
  /**
   * Where the Arabic article sits in the joined text, its vowel is written a, e, u or o at will
   * (Abd al-Aziz, Abdel Aziz, Abdul Aziz, Abdol Aziz, Abdelaziz): a separate article, or one
   * written onto the end of the part before ("Abdel Rahman" / "Abdulrahman"). -1: none.
   */
  article: number;
  fold?: string;
  pk?: string;
}

/**
 * The joinable runs of a name's content parts, in order (first part, then length). A run may not
 * begin with an initial ("J Smith" is not "Jsmith"), but a letter standing alone after a part joins
 * it: an apostrophe or a hyphen written as a space (Sa d / Sa'd, Ch o l / Ch'o'l, Kwang I l). `fits` (a joined length) may leave out runs that nothing on the other
 * side could match, before their text is built: comparisons build the listed side's runs per
 * candidate name.
 */
function joinRuns(a: ScoredPart[], ac: number[], fits?: (joinedLength: number) => boolean): JoinRun[] {
  const runs: JoinRun[] = [];
  for (let k = 0; k + 1 < ac.length; k++)
    for (let len = 2; len <= 4 && k + len <= ac.length; len++) {
      if (fits) {
        let joinedLength = 0;
        for (let x = k; x < k + len; x++) joinedLength += a[ac[x]!]!.text.length;
        if (!fits(joinedLength)) continue;
      }
      let text = '';
      let hasInitial = false;
      let article = -1;
      for (let x = k; x < k + len; x++) {
        const part = a[ac[x]!]!;
        if (part.kind === 'initial' && x === k) hasInitial = true;
        if (x > k && part.kind === 'particle' && ARTICLES.has(part.text)) article = text.length;
        else if (x < k + len - 1 && part.kind === 'word' && part.text.length >= 4 && ARTICLE_END.test(part.text))
          article = text.length + part.text.length - 2;
        text += part.text;
      }
      if (!hasInitial) runs.push({ start: k, len, i: ac[k]!, i2: ac[k + len - 1]!, text, article });
    }
  return runs;
}

/** Bit n set: the name has a word (or patronymic) of n letters (31 and more share the top bit). */
function wordLengths(parts: ScoredPart[], content: number[]): number {
  let mask = 0;
  for (const j of content) {
    const p = parts[j]!;
    if (p.kind === 'word' || p.kind === 'patronymic') mask |= 1 << Math.min(p.text.length, 31);
  }
  return mask;
}

/** A word of the other name within two letters of a joined length, by its wordLengths() mask. */
function lengthFits(mask: number, joinedLength: number): boolean {
  if (joinedLength + 2 >= 31 && mask & (1 << 31)) return true;
  const lo = Math.max(0, joinedLength - 2);
  const hi = Math.min(31, joinedLength + 2);
  return (mask & (((hi >= 31 ? 0 : 1 << (hi + 1)) - (1 << lo)) | 0)) !== 0;
}

function joinPairs(
  runs: JoinRun[],
  a: ScoredPart[],
  ac: number[],
  b: ScoredPart[],
  bc: number[],
  out: Pair[],
  swapped: boolean,
): void {
  for (const run of runs) {
    const { text, article, len, i, i2 } = run;
    for (const j of bc) {
      const other = b[j]!;
      if (
        (other.kind !== 'word' && other.kind !== 'patronymic') ||
        other.text.length < text.length - 2 ||
        other.text.length > text.length + 2
      )
        continue;
      if (other.text.charCodeAt(0) !== text.charCodeAt(0)) {
        // A hyphenated Wade-Giles given name against the Pinyin one word (Chin-ping / Jinping, Tse-tung / Zedong).
        if (len <= 3 && wadeGilesSpells(syllables(a, ac, run.start, len), other.text))
          out.push(
            swapped
              ? { qi: j, qj: j, ci: i, cj: i2, s: 0.93, how: 'joined' }
              : { qi: i, qj: i2, ci: j, cj: j, s: 0.93, how: 'joined' },
          );
        continue;
      }
      // Only the same letters, or the same name in another spelling: a joined pair with a slip in it
      // (Jongsun / Jong Un) is too often another name.
      let same = text === other.text || (other.fold !== undefined && (run.fold ??= foldJoined(text)) === other.fold);
      if (
        !same &&
        article >= 0 &&
        other.text.length === text.length &&
        other.text[article + 1] === 'l' &&
        ARTICLE_VOWEL.test(other.text[article]!)
      ) {
        const t = text.slice(0, article) + other.text[article] + text.slice(article + 1);
        same = t === other.text || (other.fold !== undefined && foldJoined(t) === other.fold);
      }
      if (!same && len <= 3 && wadeGilesSpells(syllables(a, ac, run.start, len), other.text)) same = true;
      // From a script that writes no short vowels the consonant skeleton is the evidence, joined as
      // for one part (عبد الله, abd al lh / Abdullah).
      const skeleton =
        !same &&
        (a[i]!.translit === 'abjad' || other.translit === 'abjad') &&
        (run.pk ??= phoneticKey(text)) === other.pk;
      if (!same && !skeleton) continue;
      const s = text === other.text ? 0.97 : skeleton ? 0.9 : 0.93;
      out.push(
        swapped ? { qi: j, qj: j, ci: i, cj: i2, s, how: 'joined' } : { qi: i, qj: i2, ci: j, cj: j, s, how: 'joined' },
      );
    }
  }
}

const joinedFolds = new Map<string, string>();

/** spellingFold of a joined text; the same joined names come back query after query, so folds are kept (bounded). */
function foldJoined(text: string): string {
  let f = joinedFolds.get(text);
  if (f === undefined) {
    if (joinedFolds.size >= 100_000) joinedFolds.clear();
    f = spellingFold(text);
    joinedFolds.set(text, f);
  }
  return f;
}
