/**
 * The name score: how much of both names an alignment covers, weighted by what each part tells
 * (its weight on the lists, its kind), with the rules that tell another person from the same one
 * (a different father's name, own and father's names swapped, a country in a company's name). And
 * its bound (scoreBound), worked out from the candidate pairs before any alignment.
 */
import { toCountryCode } from '../identifiers/index.js';
import type { NameComparison, Pair } from './name-comparison.js';
import type { QueryParts } from './query-parts.js';
import type { ScoredPart } from './part-similarity.js';
import { spellingFold } from './similarity.js';
import { COMMON_NAME_IDF, isCommonInAbjad } from './common-names.js';
import { SCORING } from './scoring-table.js';

/*
 * Weights of the name score. A part's weight is its information on the lists (IDF, nats) for words;
 * the other kinds weigh what they tell of identity.
 */
/** A patronymic tells little beside the given name it derives from (thousands of Ivanovichs). */
const PATRONYMIC_WEIGHT = SCORING.PATRONYMIC_WEIGHT.value;
/** Particles (al, bin, van, de) are connectors: they weigh almost nothing. */
const PARTICLE_WEIGHT = SCORING.PARTICLE_WEIGHT.value;
/** An initial narrows a name down by a letter: more than a particle, less than any word. */
const INITIAL_WEIGHT = SCORING.INITIAL_WEIGHT.value;
/** What a matched patronymic and a matched initial add to the information (see scoring.ts distinctiveness). */
const PATRONYMIC_INFORMATION = SCORING.PATRONYMIC_INFORMATION.value;
const INITIAL_INFORMATION = SCORING.INITIAL_INFORMATION.value;
/** Costs of an unpartnered part when judging a conflict (see conflictWeight). */
const INITIAL_CONFLICT = SCORING.INITIAL_CONFLICT.value;
const PARTICLE_CONFLICT = SCORING.PARTICLE_CONFLICT.value;
/** Even a common part (Abdul, Mohammad) replaced by another is a different father or tribe: it costs at least this. */
const MIN_WORD_CONFLICT = SCORING.MIN_WORD_CONFLICT.value;
/**
 * A query part the lists know keeps at least this share of its own weight when matched to a listed
 * part that weighs less (a common query name matched to a rare spelling does not become rare).
 */
const KNOWN_WEIGHT_SHARE = SCORING.KNOWN_WEIGHT_SHARE.value;
/** Parts present on both sides but different: evidence of another person, four times a missing part. */
const CONFLICT_COST = SCORING.CONFLICT_COST.value;
/** Parts only the query has; a one-word listed name found inside a longer query explains little of it. */
const EXTRA_QUERY_COST = SCORING.EXTRA_QUERY_COST.value;
const EXTRA_QUERY_COST_ONE_WORD = SCORING.EXTRA_QUERY_COST_ONE_WORD.value;
/** Parts only the listed name has: two are middle names (cheap), three or more a different, longer name. */
const MIDDLE_NAMES = SCORING.MIDDLE_NAMES.value;
const EXTRA_LISTED_COST = SCORING.EXTRA_LISTED_COST.value;
const EXTRA_LISTED_COST_LONGER = SCORING.EXTRA_LISTED_COST_LONGER.value;
/** The coverage is raised to this power: a name half covered scores about a third, not a half. */
const COVERAGE_EXPONENT = SCORING.COVERAGE_EXPONENT.value;
/** Own and father's names swapped ("Salman bin Muhammad" / "Muhammad bin Salman"): the son, not the man. */
const ROLES_SWAPPED_FACTOR = SCORING.ROLES_SWAPPED_FACTOR.value;
/** A country on one side only of an organization's name: another branch or subsidiary. */
const BRANCH_FACTOR = SCORING.BRANCH_FACTOR.value;

/**
 * A name that says it is a person's, or says nothing, against an organization's, vessel's or
 * aircraft's name, with no word of it the same: a company or ship is named with ordinary words and
 * given names (Negar, Jazmin, Group, Holding), which the parts of a person's name come close to by
 * chance. Resemblance alone is kept in view below the medium boundary. (A long word with one slip,
 * Rosoboronexprt, is still the word: few names come within one letter of a word that long.)
 */
const RESEMBLANCE_ONLY_FACTOR = SCORING.RESEMBLANCE_ONLY_FACTOR.value;
const SAME_WORD = SCORING.SAME_WORD.value;
const LONG_WORD = SCORING.LONG_WORD.value;
const ONE_SLIP = SCORING.ONE_SLIP.value;
const GLUED_WORD = SCORING.GLUED_WORD.value;

/**
 * One name part of a person's name of two or more, and nothing else: a given name or a surname
 * alone ("Zaur" / ISMAILOV, Zaur; "Tina Ilc" / KANDELAKI, Tina), or a one-word alias matched by one
 * part of a longer query ("Matej Plch" / alias MATE). OFAC's guidance on false hits says as much:
 * when just one of two or more names matches, it is not a valid match. It stays in view, below
 * the medium boundary; a birth date or country that agrees can still bring it to review.
 */
const ONE_PART_FACTOR = SCORING.ONE_PART_FACTOR.value;
/**
 * Two parts of a person's name each one slip from the listed ones, neither a spelling variant
 * (Hamid Saidov / SAIDOU, Habib; Mila Martin / MARTIC, Milan): every letter is written in both, and
 * a name two slips away in two of its parts is another person's (given names and surnames are
 * drawn from a pool of names, and near neighbours are common) more often than the same one
 * mistyped twice. A company's name is words of its own: two slips in it are still that company.
 */
const TWO_SLIPS_FACTOR = SCORING.TWO_SLIPS_FACTOR.value;
/** Particles that make a name of their own (a kunya, Abu Tahir, is not Tahir; bin Laden not Laden). */
const NAME_FORMING = new Set(['abu', 'abou', 'bou', 'umm', 'bin', 'ibn', 'bint', 'ben', 'ould']);

/** The names' numbers, when they have some, all agree (a ship's or a series' number: SINCERE 02 / SICERE 02). */
function sameNumbers(qNum: string[], cNum: string[]): boolean {
  if (qNum.length === 0 || qNum.length !== cNum.length) return false;
  for (const n of qNum) if (!cNum.includes(n)) return false;
  return true;
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

/** Weight of an unpartnered part when judging a conflict: a different patronymic or initial is a different person. */
export function conflictWeight(p: ScoredPart, w: number): number {
  if (p.kind === 'patronymic') return p.idf;
  if (p.kind === 'initial') return INITIAL_CONFLICT;
  if (p.kind === 'particle') return PARTICLE_CONFLICT;
  return Math.max(w, MIN_WORD_CONFLICT);
}

/** The weight of a part by its kind: a word's is its information on the lists. */
export function kindWeight(p: ScoredPart): number {
  switch (p.kind) {
    case 'word':
      return p.idf;
    case 'patronymic':
      return p.idf * PATRONYMIC_WEIGHT;
    case 'particle':
      return PARTICLE_WEIGHT;
    case 'initial':
      return INITIAL_WEIGHT;
    default:
      return 0;
  }
}

/** A part similarity below this is a doubtful pair (see partSimilarity's calibration). */
const DOUBTFUL = SCORING.DOUBTFUL.value;
/** Cost of a listed part left over when the alignment holds a doubtful pair of known names (see scoreAlignment). */
const DOUBTFUL_EXTRA_COST = SCORING.DOUBTFUL_EXTRA_COST.value;

let partnerScratch = new Float64Array(16);

/**
 * The most a comparison can score, from its candidate pairs alone: every query part some pair
 * covers counted as matched in full with the largest weight it can take, every other one as
 * unmatched. scoreAlignment's score is at most cov^1.5 (the other rules only lower it) with cov at
 * most matched weight / (matched weight + 0.6 x unmatched query weight), since similarities are at
 * most 1 and conflicts and unpartnered query parts cost 0.6 (EXTRA_QUERY_COST) or more each. Most candidates of a query
 * share one common part with it and nothing else; this tells them apart before the alignment.
 */
export function scoreBound(query: QueryParts, c: ScoredPart[], cc: number[], pairs: Pair[]): number {
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
    // A repeat of a part that may be matched may cost nothing (see scoreAlignment).
    let repeat = false;
    for (const k of qc) if (partner[k]! >= 0 && q[k]!.text === part.text) repeat = true;
    if (repeat) continue;
    unmatched += conflictWeight(part, part.kind === 'word' ? (known ?? query.maxIdf) : kindWeight(part));
  }
  if (matched <= 0) return 0;
  return Math.pow(matched / (matched + EXTRA_QUERY_COST * unmatched), COVERAGE_EXPONENT);
}

/** Some pair of the alignment is the same word, or a long word with one slip (see RESEMBLANCE_ONLY_FACTOR). */
function holdsSameWord(q: ScoredPart[], c: ScoredPart[], chosen: Pair[]): boolean {
  for (const p of chosen) {
    // The listed word whole inside the query's, something glued to it (AOeirburg / AO EIRBURG, HILDAi / HILDA I).
    const qt = q[p.qi]!.text;
    const ct = c[p.ci]!.text;
    if (ct.length >= GLUED_WORD && (qt.startsWith(ct) || qt.endsWith(ct))) return true;
    // (Joined runs and abbreviations, PLA / People's Liberation Army, agree over several parts.)
    // (A joined run in another spelling is the word when long, FridrichLindenberg / Friedrich
    // Lindenberg, and only resembles when short, aytan / AYE Than.)
    if (p.s >= SAME_WORD) return true;
    const several = p.qi !== p.qj || p.ci !== p.cj;
    if (several && (p.how !== 'joined' || (p.qi === p.qj ? qt : ct).length >= LONG_WORD)) return true;
    if (p.s >= ONE_SLIP && p.qi === p.qj && q[p.qi]!.text.length >= LONG_WORD) return true;
  }
  return false;
}

/**
 * Parts that say who someone is: words, patronymics, initials (a name written short), the
 * particles that form a name (see NAME_FORMING) and a word read as a legal form only by a slip.
 */
function nameParts(parts: ScoredPart[]): number {
  let n = 0;
  for (const p of parts) {
    if (p.kind === 'particle' ? NAME_FORMING.has(p.text) : p.kind === 'legal' ? p.slip === true : p.kind !== 'number')
      n++;
  }
  return n;
}

/**
 * A pair that tells little of who the person is beside another pair: a query word found only as a
 * listed initial when the listed name has parts the query lacks besides (the list gave letters, and
 * not all of them agree: AZAD, K M for Mazlum Azad; PUTIN, V. for Vladimir Putin is all there is of
 * that alias, and agrees), or a name the lists or the
 * population know as a name of its own, paired with a listed one it only doubtfully resembles
 * (Aren / Karen, Simon / Simic, Eliza / Elia) or differs from by a consonant (Marvin / Martin): two
 * different names of the pool of names, not a slip.
 */
function weakPair(query: QueryParts, c: ScoredPart[], p: Pair, listedLeft: boolean): boolean {
  if (p.qi !== p.qj || p.ci !== p.cj) return false;
  const qp = query.parts[p.qi]!;
  // (An initial stands for a given name: a query word after a particle, de Leeuw, bin Laden, is a
  // family name, which a listed initial does not abbreviate.)
  if (c[p.ci]!.kind === 'initial')
    return qp.kind === 'word' && (listedLeft || query.parts[p.qi - 1]?.kind === 'particle');
  if (p.how === 'exact' || qp.kind !== 'word' || query.known[p.qi] === undefined) return false;
  if (p.how === 'fuzzy' && p.s < DOUBTFUL) return true;
  const cp = c[p.ci]!;
  if (qp.translit !== undefined || cp.translit !== undefined) return false;
  // One consonant for another, or one more, between two names both written in Latin letters (Martin /
  // Marvin, Riza / Rida, Mauro / Maduro): the romanizations of one name differ in vowels, doubled
  // letters and h, y, w (Mohammed / Mohammad, Hasan / Hassan), not in a consonant of their own.
  // (A consonant of the same sound class, Pudin / Putin, leaves the skeleton as it was: a sound
  // written otherwise.)
  return p.how === 'fuzzy' && qp.pk !== cp.pk && consonantSlip(qp.text, cp.text);
}

const CONSONANT = /[bcdfgjklmnpqrstvxz]/;

/** The two words differ by one consonant put for another, or one consonant more that doubles no neighbour. */
function consonantSlip(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length === b.length)
    return i < a.length && sameFrom(a, i + 1, b, i + 1) && CONSONANT.test(a[i]!) && CONSONANT.test(b[i]!);
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1 || !sameFrom(long, i + 1, short, i)) return false;
  const x = long[i]!;
  return CONSONANT.test(x) && long[i - 1] !== x && long[i + 1] !== x;
}

/** `a` from `i` on is `b` from `j` on (the alignment's hot path: no substrings made). */
function sameFrom(a: string, i: number, b: string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  return true;
}

/**
 * The alignment is one part against one part, of names of which at least one has two or more (see
 * ONE_PART_FACTOR), weak pairs beside it (see weakPair) set aside. Returns that pair.
 */
function onePartOfMore(query: QueryParts, c: ScoredPart[], chosen: Pair[], listedLeft: boolean): Pair | undefined {
  const q = query.parts;
  let one: Pair | undefined;
  for (const p of chosen) {
    if (chosen.length > 1 && weakPair(query, c, p, listedLeft)) continue;
    if (one !== undefined) return undefined;
    one = p;
  }
  if (one === undefined || one.qi !== one.qj || one.ci !== one.cj || q[one.qi]!.kind !== 'word') return undefined;
  return nameParts(q) >= 2 || nameParts(c) >= 2 ? one : undefined;
}

/**
 * The query is a name read from Chinese characters or Hangul, of two parts or more, and its first
 * part, the family name, is not paired one to one with a listed part.
 */
function familyNameUnmatched(query: QueryParts, qPartner: Int32Array): boolean {
  if (!query.familyFirst) return false;
  return qPartner[query.content[0]!]! < 0;
}

/** Hungarian digraphs for the sounds other languages write d', t', n', ch, zh and s (Vlagyimir, Putyin, Csaba). */
const hungarian = (t: string): string =>
  t
    .replace(/gy/g, 'd')
    .replace(/ty/g, 't')
    .replace(/ny/g, 'n')
    .replace(/ly/g, 'l')
    .replace(/cs/g, 'ch')
    .replace(/zs/g, 'zh')
    .replace(/sz/g, 's');
/** The endings Latvian and Lithuanian give every name, foreign ones too (Sergejs, Putinas, Vladimiras). */
const BALTIC_ENDINGS = ['s', 'as', 'is', 'us', 'ys'];

/**
 * Two spellings of one name that a language's own way of writing names explains, not a slip:
 * Hungarian digraphs (Vlagyimir / Vladimir), or a Baltic ending on a name (Lavrovs / Lavrov,
 * Sergejs / Sergey).
 */
function writtenByConvention(a: string, b: string): boolean {
  if (hungarian(a) === hungarian(b)) return true;
  const aS = a.endsWith('s');
  if (aS === b.endsWith('s')) return false;
  const [long, short] = aS ? [a, b] : [b, a];
  const fold = spellingFold(short);
  for (const e of BALTIC_ENDINGS)
    if (long.endsWith(e) && long.length - e.length >= 3 && spellingFold(long.slice(0, -e.length)) === fold) return true;
  return false;
}

/**
 * What one slip changed, with what both words share at their start and end set aside (Martin /
 * Martic: "n>c"; Abou / Abu: "o>"), or the one letter written for another wherever it stands
 * (Maynuky / Mainuki: "y>i"); undefined for anything longer, which is a slip of its own.
 */
function slipOf(a: string, b: string): string | undefined {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  let ja = a.length;
  let jb = b.length;
  while (ja > i && jb > i && a.charCodeAt(ja - 1) === b.charCodeAt(jb - 1)) {
    ja--;
    jb--;
  }
  if (ja - i === jb - i) {
    let change: string | undefined;
    for (let k = 0; i + k < ja; k++) {
      if (a[i + k] === b[i + k]) continue;
      const c = a[i + k]! + '>' + b[i + k]!;
      if (change !== undefined && change !== c) return undefined;
      change = c;
    }
    return change;
  }
  return ja - i + (jb - i) <= 3 ? a.slice(i, ja) + '>' + b.slice(i, jb) : undefined;
}

/**
 * Parts matched one to one by a slip, not a spelling variant, in Latin letters on both sides, and
 * the slips not all one change: a spelling convention the tables do not know (Kho Yon Khun / CHO
 * YON CHUN, Abou / Abu and Mahfuz / Mahfouz) makes the same change wherever it applies, typing
 * slips and other names do not.
 */
function independentSlips(query: QueryParts, c: ScoredPart[], chosen: Pair[]): boolean {
  const q = query.parts;
  // Most alignments hold one fuzzy pair or none: nothing to read then.
  let fuzzy = 0;
  for (const p of chosen) if (p.how === 'fuzzy') fuzzy++;
  if (fuzzy < 2) return false;
  let n = 0;
  let first: string | undefined;
  let different = false;
  for (const p of chosen) {
    if (p.how !== 'fuzzy' || p.s >= SAME_WORD || p.qi !== p.qj || p.ci !== p.cj) continue;
    const qt = q[p.qi]!;
    const ct = c[p.ci]!;
    if (qt.translit !== undefined || ct.translit !== undefined || writtenByConvention(qt.text, ct.text)) continue;
    const change = slipOf(qt.text, ct.text);
    if (change === undefined || (n > 0 && change !== first)) different = true;
    if (n++ === 0) first = change;
  }
  return n >= 2 && different;
}

/** Doubtful part similarities count much less than near-certain ones. */
function eff(s: number): number {
  return s * s * s;
}

/** An alignment as compareParts found it; the arrays are its per-comparison scratch, indexed by part. */
export interface Alignment {
  query: QueryParts;
  listed: ScoredPart[];
  /** The listed name's content parts (indexes) and numbers. */
  listedContent: number[];
  listedNumbers: string[];
  /** The listed party is not a person. */
  organization: boolean;
  /** The pairs taken, in the order they were taken. */
  chosen: Pair[];
  qUsed: Uint8Array;
  cUsed: Uint8Array;
  /** Similarity of each query part's pair, and the listed weight it stands for. */
  qSim: Float64Array;
  qPartnerIdf: Float64Array;
  /** The listed part a query part is paired with one to one, -1 otherwise. */
  qPartner: Int32Array;
}

/** The name score of an alignment, with what an explanation reports of it. */
export function scoreAlignment(a: Alignment): NameComparison {
  const {
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
  } = a;
  const q = query.parts;
  const qc = query.content;
  const qNum = query.numbers;
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
      if (known !== undefined && qUsed[i] && qPartnerIdf[i]! > 0)
        w = Math.min(w, Math.max(qPartnerIdf[i]!, w * KNOWN_WEIGHT_SHARE));
      // Both written in an abjad: the lists hold few names in these scripts, and a common name
      // written in them (ابراہیم, Ibrahim) weighs as common (see isCommonInAbjad), not as the rare
      // word it seems on the lists.
      if (
        part.translit === 'abjad' &&
        qUsed[i] &&
        qPartner[i]! >= 0 &&
        c[qPartner[i]!]!.translit === 'abjad' &&
        isCommonInAbjad(part.text)
      )
        w = Math.min(w, COMMON_NAME_IDF);
    } else w = kindWeight(part);
    if (qUsed[i]) {
      matchedW += w;
      mq += w * eff(qSim[i]!);
      if (part.kind === 'word' || part.kind === 'patronymic')
        info += (part.kind === 'patronymic' ? PATRONYMIC_INFORMATION : 1) * w * qSim[i]!;
      else if (part.kind === 'initial') info += INITIAL_INFORMATION;
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
  const extraQCost = listedWords <= 1 ? EXTRA_QUERY_COST_ONE_WORD : EXTRA_QUERY_COST;
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
  // A name read from Chinese characters is its characters: a listed syllable it does not have is
  // another character, so another name (郭萍 Guo Ping / CHEN, Guo Ping), not a middle name left out.
  const extraCCost =
    doubtful || query.han
      ? DOUBTFUL_EXTRA_COST
      : missingNames <= MIDDLE_NAMES
        ? EXTRA_LISTED_COST
        : EXTRA_LISTED_COST_LONGER;
  const denom = matchedW + CONFLICT_COST * conflict + extraQCost * extraQ + extraCCost * extraC;
  const cov = denom > 0 ? mq / denom : 0;
  let score = Math.pow(cov, COVERAGE_EXPONENT);
  // One word against one word ("Stellaris" / "Stellantis"): the part similarity is the whole
  // evidence, not a share of a longer name diluted by the coverage formula.
  if (qc.length === 1 && cc.length === 1 && qUsed[qc[0]!] && unmatchedListed.length === 0)
    score = Math.max(score, qSim[qc[0]!]! * qSim[qc[0]!]!);
  // "Salman bin Muhammad" is the son of "Muhammad bin Salman": the same parts in swapped roles.
  if (rolesSwapped(q, c, qPartner)) score *= ROLES_SWAPPED_FACTOR;
  // A country on one side only of an organization's name is another branch or subsidiary
  // ("Banco Santander" / "Banco Santander Mexico").
  if (organization && (unmatchedQuery.some(isCountryWord) || unmatchedListed.some(isCountryWord)))
    score *= BRANCH_FACTOR;
  // A one-word query (a given name or a surname alone) that only resembles a listed word is likewise
  // a resemblance of one part of a longer listed name (Nuray / NURA, Mohammed): no name is identified
  // by it; nor does one that resembles a one-word nickname or short form of a person with a longer
  // name (Banu / alias BASU of EBERAHIM, Abbas), nor a person known by one name (Zahir / Zakir, Faiq /
  // Faiz): given names are a pool in which a short name has many neighbours one letter away, and one
  // name says nothing else. (Not a word from another script: against its romanization, resemblance
  // is all the evidence there is, משה / Moshe; nor a long word with a slip, see holdsSameWord.)
  if (
    !query.organization &&
    ((qc.length === 1 && q[qc[0]!]!.translit === undefined) || organization) &&
    !holdsSameWord(q, c, chosen) &&
    !sameNumbers(qNum, cNum)
  )
    score *= RESEMBLANCE_ONLY_FACTOR;
  // One part of a person's name of two or more, alone: not a valid match (see ONE_PART_FACTOR),
  // unless the query names the person by a role title ("President Putin", "Mullah Omar"). Likewise a word of
  // persons' names matching one word of an organization's or vessel's name of more (Maya / MAYA
  // EXCHANGE COMPANY, Deniz / DENIZ CAPITAL), when the query does not say it names an organization;
  // and so does a one-word query, whatever the word (Emin / ETIM EMIN, Afaq / AFAQ DUBAI): one word of
  // a name of several is not that name. (A company's one word beside its legal form is its whole
  // name: Gazprom / GAZPROM PJSC.)
  // A Chinese or Korean name written in its characters puts its family name first: when that
  // syllable finds no partner of its own, only the given name matched (범주혁 Bom Juhyok / JU, Hyok;
  // 당유진 Dang Yujin / Yoo Jin), one part of the name too. (Either way the factor applies once.)
  if (!query.byTitle) {
    const one = onePartOfMore(query, c, chosen, unmatchedListed.length > 0);
    if (
      (one !== undefined &&
        (!organization ||
          (!query.organization && (q[one.qi]!.personal === true || nameParts(q) === 1) && nameParts(c) >= 2))) ||
      (!organization && familyNameUnmatched(query, qPartner))
    )
      score *= ONE_PART_FACTOR;
  }
  if (!organization && independentSlips(query, c, chosen)) score *= TWO_SLIPS_FACTOR;
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
