/**
 * The rules of the name score (name-score.ts) that tell another person from the same one by how an
 * alignment pairs the parts: own and father's names swapped, a country in a company's name, one part
 * of a longer name alone, a family name left unpaired, pairs that only resemble, slips that are not
 * one spelling convention. Each answers yes or no; scoreAlignment applies its factor.
 */
import { toCountryCode } from '../identifiers/index.js';
import type { Pair } from './name-comparison.js';
import type { ScoredPart } from './part-similarity.js';
import type { QueryParts } from './query-parts.js';
import { remembering } from './remembered.js';
import { spellingFold } from './similarity.js';
import { SCORING } from './scoring-table.js';

/** A pair at least this similar is the same word (see holdsSameWord, independentSlips). */
const SAME_WORD = SCORING.SAME_WORD.value;
/** A word this long with one slip (ONE_SLIP) is still that word; glued, GLUED_WORD letters are. */
const LONG_WORD = SCORING.LONG_WORD.value;
const ONE_SLIP = SCORING.ONE_SLIP.value;
const GLUED_WORD = SCORING.GLUED_WORD.value;
/** A part similarity below this is a doubtful pair (see partSimilarity's calibration). */
const DOUBTFUL = SCORING.DOUBTFUL.value;

/** Particles that make a name of their own (a kunya, Abu Tahir, is not Tahir; bin Laden not Laden). */
const NAME_FORMING = new Set(['abu', 'abou', 'bou', 'umm', 'bin', 'ibn', 'bint', 'ben', 'ould']);

/** The names' numbers, when they have some, all agree (a ship's or a series' number: SINCERE 02 / SICERE 02). */
export function sameNumbers(queryNumbers: readonly string[], listedNumbers: readonly string[]): boolean {
  if (queryNumbers.length === 0 || queryNumbers.length !== listedNumbers.length) return false;
  for (const number of queryNumbers) if (!listedNumbers.includes(number)) return false;
  return true;
}

const FILIATION = new Set(['bin', 'ibn', 'ben', 'bint', 'binti', 'ould', 'walad']);

/** Role of each part in an Arabic filiation chain: 1 = own name (before the first "bin"), 2 = father's name (right after a "bin"). */
function roles(parts: ScoredPart[]): Int8Array | undefined {
  let first = -1;
  for (let i = 0; i < parts.length; i++)
    if (parts[i]!.kind === 'particle' && FILIATION.has(parts[i]!.text)) {
      first = i;
      break;
    }
  if (first <= 0) return undefined;
  const out = new Int8Array(parts.length);
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
export function rolesSwapped(queryParts: ScoredPart[], listed: ScoredPart[], qPartner: Int32Array): boolean {
  const queryRoles = roles(queryParts);
  if (!queryRoles) return false;
  const listedRoles = roles(listed);
  if (!listedRoles) return false;
  let ownAsFather = false;
  let fatherAsOwn = false;
  for (let i = 0; i < queryParts.length; i++) {
    const partner = qPartner[i]!;
    if (partner < 0) continue;
    if (queryRoles[i] === 1 && listedRoles[partner] === 2) ownAsFather = true;
    else if (queryRoles[i] === 2 && listedRoles[partner] === 1) fatherAsOwn = true;
  }
  return ownAsFather && fatherAsOwn;
}

/** A word of four letters or more that names a country (see toCountryCode). */
export const isCountryWord = remembering((t) => t.length >= 4 && toCountryCode(t) !== undefined);

/** Some pair of the alignment is the same word, or a long word with one slip (see RESEMBLANCE_ONLY_FACTOR). */
export function holdsSameWord(queryParts: ScoredPart[], listed: ScoredPart[], chosen: Pair[]): boolean {
  for (const pair of chosen) {
    // The listed word whole inside the query's, something glued to it (AOeirburg / AO EIRBURG, HILDAi / HILDA I).
    const queryWord = queryParts[pair.qi]!.text;
    const listedWord = listed[pair.ci]!.text;
    if (listedWord.length >= GLUED_WORD && (queryWord.startsWith(listedWord) || queryWord.endsWith(listedWord)))
      return true;
    // (Joined runs and abbreviations, PLA / People's Liberation Army, agree over several parts.)
    // (A joined run in another spelling is the word when long, FridrichLindenberg / Friedrich
    // Lindenberg, and only resembles when short, aytan / AYE Than.)
    if (pair.s >= SAME_WORD) return true;
    const several = pair.qi !== pair.qj || pair.ci !== pair.cj;
    if (several && (pair.how !== 'joined' || (pair.qi === pair.qj ? queryWord : listedWord).length >= LONG_WORD))
      return true;
    if (pair.s >= ONE_SLIP && pair.qi === pair.qj && queryParts[pair.qi]!.text.length >= LONG_WORD) return true;
  }
  return false;
}

/**
 * Parts that say who someone is: words, patronymics, initials (a name written short), the
 * particles that form a name (see NAME_FORMING) and a word read as a legal form only by a slip.
 */
export function nameParts(parts: ScoredPart[]): number {
  let count = 0;
  for (const part of parts) {
    if (
      part.kind === 'particle'
        ? NAME_FORMING.has(part.text)
        : part.kind === 'legal'
          ? part.slip === true
          : part.kind !== 'number'
    )
      count++;
  }
  return count;
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
function weakPair(query: QueryParts, listed: ScoredPart[], pair: Pair, listedLeft: boolean): boolean {
  if (pair.qi !== pair.qj || pair.ci !== pair.cj) return false;
  const queryPart = query.parts[pair.qi]!;
  // (An initial stands for a given name: a query word after a particle, de Leeuw, bin Laden, is a
  // family name, which a listed initial does not abbreviate.)
  if (listed[pair.ci]!.kind === 'initial')
    return queryPart.kind === 'word' && (listedLeft || query.parts[pair.qi - 1]?.kind === 'particle');
  if (pair.how === 'exact' || queryPart.kind !== 'word' || query.known[pair.qi] === undefined) return false;
  if (pair.how === 'fuzzy' && pair.s < DOUBTFUL) return true;
  const listedPart = listed[pair.ci]!;
  if (queryPart.translit !== undefined || listedPart.translit !== undefined) return false;
  // One consonant for another, or one more, between two names both written in Latin letters (Martin /
  // Marvin, Riza / Rida, Mauro / Maduro): the romanizations of one name differ in vowels, doubled
  // letters and h, y, w (Mohammed / Mohammad, Hasan / Hassan), not in a consonant of their own.
  // (A consonant of the same sound class, Pudin / Putin, leaves the skeleton as it was: a sound
  // written otherwise.)
  return pair.how === 'fuzzy' && queryPart.pk !== listedPart.pk && consonantSlip(queryPart.text, listedPart.text);
}

const CONSONANT = /[bcdfgjklmnpqrstvxz]/;

/** The two words differ by one consonant put for another, or one consonant more that doubles no neighbour. */
function consonantSlip(a: string, b: string): boolean {
  let firstDiff = 0;
  while (firstDiff < a.length && firstDiff < b.length && a.charCodeAt(firstDiff) === b.charCodeAt(firstDiff))
    firstDiff++;
  if (a.length === b.length)
    return (
      firstDiff < a.length &&
      sameFrom(a, firstDiff + 1, b, firstDiff + 1) &&
      CONSONANT.test(a[firstDiff]!) &&
      CONSONANT.test(b[firstDiff]!)
    );
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1 || !sameFrom(long, firstDiff + 1, short, firstDiff)) return false;
  const extra = long[firstDiff]!;
  return CONSONANT.test(extra) && long[firstDiff - 1] !== extra && long[firstDiff + 1] !== extra;
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
export function onePartOfMore(
  query: QueryParts,
  listed: ScoredPart[],
  chosen: Pair[],
  listedLeft: boolean,
): Pair | undefined {
  const queryParts = query.parts;
  let one: Pair | undefined;
  for (const pair of chosen) {
    if (chosen.length > 1 && weakPair(query, listed, pair, listedLeft)) continue;
    if (one !== undefined) return undefined;
    one = pair;
  }
  if (one === undefined || one.qi !== one.qj || one.ci !== one.cj || queryParts[one.qi]!.kind !== 'word')
    return undefined;
  return nameParts(queryParts) >= 2 || nameParts(listed) >= 2 ? one : undefined;
}

/**
 * The query is a name read from Chinese characters or Hangul, of two parts or more, and its first
 * part, the family name, is not paired one to one with a listed part.
 */
export function familyNameUnmatched(query: QueryParts, qPartner: Int32Array): boolean {
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
  const aEndsInS = a.endsWith('s');
  if (aEndsInS === b.endsWith('s')) return false;
  const [long, short] = aEndsInS ? [a, b] : [b, a];
  const fold = spellingFold(short);
  for (const ending of BALTIC_ENDINGS)
    if (
      long.endsWith(ending) &&
      long.length - ending.length >= 3 &&
      spellingFold(long.slice(0, -ending.length)) === fold
    )
      return true;
  return false;
}

/**
 * What one slip changed, with what both words share at their start and end set aside (Martin /
 * Martic: "n>c"; Abou / Abu: "o>"), or the one letter written for another wherever it stands
 * (Maynuky / Mainuki: "y>i"); undefined for anything longer, which is a slip of its own.
 */
function slipOf(a: string, b: string): string | undefined {
  let start = 0;
  while (start < a.length && start < b.length && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  if (endA - start === endB - start) {
    let change: string | undefined;
    for (let k = 0; start + k < endA; k++) {
      if (a[start + k] === b[start + k]) continue;
      const swap = a[start + k]! + '>' + b[start + k]!;
      if (change !== undefined && change !== swap) return undefined;
      change = swap;
    }
    return change;
  }
  return endA - start + (endB - start) <= 3 ? a.slice(start, endA) + '>' + b.slice(start, endB) : undefined;
}

/**
 * Parts matched one to one by a slip, not a spelling variant, in Latin letters on both sides, and
 * the slips not all one change: a spelling convention the tables do not know (Kho Yon Khun / CHO
 * YON CHUN, Abou / Abu and Mahfuz / Mahfouz) makes the same change wherever it applies, typing
 * slips and other names do not.
 */
export function independentSlips(query: QueryParts, listed: ScoredPart[], chosen: Pair[]): boolean {
  const queryParts = query.parts;
  // Most alignments hold one fuzzy pair or none: nothing to read then.
  let fuzzy = 0;
  for (const pair of chosen) if (pair.how === 'fuzzy') fuzzy++;
  if (fuzzy < 2) return false;
  let slips = 0;
  let first: string | undefined;
  let different = false;
  for (const pair of chosen) {
    if (pair.how !== 'fuzzy' || pair.s >= SAME_WORD || pair.qi !== pair.qj || pair.ci !== pair.cj) continue;
    const queryWord = queryParts[pair.qi]!;
    const listedWord = listed[pair.ci]!;
    if (
      queryWord.translit !== undefined ||
      listedWord.translit !== undefined ||
      writtenByConvention(queryWord.text, listedWord.text)
    )
      continue;
    const change = slipOf(queryWord.text, listedWord.text);
    if (change === undefined || (slips > 0 && change !== first)) different = true;
    if (slips++ === 0) first = change;
  }
  return slips >= 2 && different;
}
