/**
 * Pairs that are not one part for one part: two to four adjacent parts of one name read as one part
 * of the other, joined ("abdul rahman" / "abdulrahman", Abd al-Aziz / Abdelaziz, Chin-ping / Jinping),
 * and initials written together or an organization's acronym standing for several parts ("JC" /
 * Jean-Claude, "PLA" / People's Liberation Army). compareParts adds them to the one-to-one pairs.
 */
import type { Pair } from './name-comparison.js';
import type { ScoredPart } from './part-similarity.js';
import { koreanFold, phoneticKey, rememberedFold } from './similarity.js';
import { mayBeWadeGiles, wadeGiles, wadeGilesSpells } from './wade-giles.js';

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
export function abbreviationPairs(
  a: ScoredPart[],
  ac: number[],
  b: ScoredPart[],
  bc: number[],
  organization: boolean,
  out: Pair[],
  swapped: boolean,
): void {
  for (const initialAt of ac) {
    const part = a[initialAt]!;
    const initials = part.text;
    if (part.kind !== 'word' || part.translit !== undefined || initials.length < 2) continue;
    if (organization ? initials.length > 6 : initials.length > 3 || VOWEL.test(initials)) continue;
    for (let k = 0; k < bc.length; k++) {
      let at = 0;
      let words = 0;
      for (let x = k; x < bc.length; x++) {
        const other = b[bc[x]!]!;
        if (organization && words > 0 && ACRONYM_SKIP.has(other.text)) continue;
        if (
          (other.kind !== 'word' && other.kind !== 'patronymic') ||
          other.text.length < 2 ||
          other.text[0] !== initials[at]
        )
          break;
        at++;
        words++;
        if (at === initials.length) {
          if (words >= 2) {
            const similarity = organization && initials.length >= 3 ? 0.9 : 0.75;
            const first = bc[k]!,
              last = bc[x]!;
            out.push(
              swapped
                ? { qi: first, qj: last, ci: initialAt, cj: initialAt, s: similarity, how: 'initial' }
                : { qi: initialAt, qj: initialAt, ci: first, cj: last, s: similarity, how: 'initial' },
            );
          }
          break;
        }
      }
    }
  }
}

/**
 * The run's parts as the syllables of a hyphenated Wade-Giles given name, for wadeGilesSpells; null
 * when that could answer no for every other part (a run of more than three, or see mayBeWadeGiles).
 * Read once per run: the run meets every part of the other name, and most runs (English words,
 * Arabic names) are no Wade-Giles at all.
 */
function wadeGilesSyllables(run: JoinRun, a: ScoredPart[], ac: number[]): string[] | null {
  if (run.wadeGiles === undefined) {
    // A first part that is no Wade-Giles syllable answers for the run (most runs), with no list built.
    const parts =
      run.len <= 3 && wadeGiles(a[ac[run.start]!]!.text)
        ? ac.slice(run.start, run.start + run.len).map((at) => a[at]!.text)
        : null;
    run.wadeGiles = parts && mayBeWadeGiles(parts) ? parts : null;
  }
  return run.wadeGiles;
}

const ARTICLES = new Set(['al', 'el', 'ul', 'ol']);
const ARTICLE_VOWEL = /[aeuo]/;
const ARTICLE_END = /[aeuo]l$/;

/** Two to four adjacent content parts of one name read as one joined part ("abdul rahman" / "abdulrahman"). */
export interface JoinRun {
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
  /** Its parts as Wade-Giles syllables (wadeGilesSyllables), null when they cannot spell anything. */
  wadeGiles?: string[] | null;
}

/**
 * The joinable runs of a name's content parts, in order (first part, then length). A run may not
 * begin with an initial ("J Smith" is not "Jsmith"), but a letter standing alone after a part joins
 * it: an apostrophe or a hyphen written as a space (Sa d / Sa'd, Ch o l / Ch'o'l, Kwang I l).
 * `otherWordLengths` (the other name's wordLengths mask) leaves out runs that no word on the other
 * side could match (see lengthFits), before their text is built: comparisons build the listed side's
 * runs per candidate name.
 */
export function joinRuns(a: ScoredPart[], ac: number[], otherWordLengths?: number): JoinRun[] {
  const runs: JoinRun[] = [];
  for (let k = 0; k + 1 < ac.length; k++)
    for (let len = 2; len <= 4 && k + len <= ac.length; len++) {
      if (otherWordLengths !== undefined) {
        let joinedLength = 0;
        for (let x = k; x < k + len; x++) joinedLength += a[ac[x]!]!.text.length;
        if (!lengthFits(otherWordLengths, joinedLength)) continue;
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
      // Every field set, those worked out later undefined: one hidden class for all runs (see CandidateIndex.scored).
      if (!hasInitial)
        runs.push({
          start: k,
          len,
          i: ac[k]!,
          i2: ac[k + len - 1]!,
          text,
          article,
          fold: undefined,
          pk: undefined,
          wadeGiles: undefined,
        });
    }
  return runs;
}

/** Bit n set: the name has a word (or patronymic) of n letters (31 and more share the top bit). */
export function wordLengths(parts: ScoredPart[], content: number[]): number {
  let mask = 0;
  for (const contentAt of content) {
    const part = parts[contentAt]!;
    if (part.kind === 'word' || part.kind === 'patronymic') mask |= 1 << Math.min(part.text.length, 31);
  }
  return mask;
}

/** A word of the other name within two letters of a joined length, by its wordLengths() mask. */
export function lengthFits(mask: number, joinedLength: number): boolean {
  if (joinedLength + 2 >= 31 && mask & (1 << 31)) return true;
  const shortest = Math.max(0, joinedLength - 2);
  const longest = Math.min(31, joinedLength + 2);
  return (mask & (((longest >= 31 ? 0 : 1 << (longest + 1)) - (1 << shortest)) | 0)) !== 0;
}

export function joinPairs(
  runs: JoinRun[],
  a: ScoredPart[],
  ac: number[],
  b: ScoredPart[],
  bc: number[],
  out: Pair[],
  swapped: boolean,
): void {
  for (const run of runs) {
    const { text, article, i: first, i2: last } = run;
    for (const otherAt of bc) {
      const other = b[otherAt]!;
      if (
        (other.kind !== 'word' && other.kind !== 'patronymic') ||
        other.text.length < text.length - 2 ||
        other.text.length > text.length + 2
      )
        continue;
      // Syllables read from Hangul against a romanization: the same syllables in any of the
      // romanizations of Korean (정민 jongmin / Jeong-min, 성훈 songhun / Sung Hoon), nothing else.
      if (a[first]!.translit === 'hangul' || other.translit === 'hangul') {
        if (koreanFold(text, a[first]!.translit === 'hangul') !== koreanFold(other.text, other.translit === 'hangul'))
          continue;
        const hangulSimilarity = text === other.text ? 0.97 : 0.93;
        out.push(
          swapped
            ? { qi: otherAt, qj: otherAt, ci: first, cj: last, s: hangulSimilarity, how: 'joined' }
            : { qi: first, qj: last, ci: otherAt, cj: otherAt, s: hangulSimilarity, how: 'joined' },
        );
        continue;
      }
      if (other.text.charCodeAt(0) !== text.charCodeAt(0)) {
        // A hyphenated Wade-Giles given name against the Pinyin one word (Chin-ping / Jinping, Tse-tung / Zedong).
        const spelled = wadeGilesSyllables(run, a, ac);
        if (spelled && wadeGilesSpells(spelled, other.text))
          out.push(
            swapped
              ? { qi: otherAt, qj: otherAt, ci: first, cj: last, s: 0.93, how: 'joined' }
              : { qi: first, qj: last, ci: otherAt, cj: otherAt, s: 0.93, how: 'joined' },
          );
        continue;
      }
      // Only the same letters, or the same name in another spelling: a joined pair with a slip in it
      // (Jongsun / Jong Un) is too often another name.
      let same =
        text === other.text || (other.fold !== undefined && (run.fold ??= rememberedFold(text)) === other.fold);
      if (
        !same &&
        article >= 0 &&
        other.text.length === text.length &&
        other.text[article + 1] === 'l' &&
        ARTICLE_VOWEL.test(other.text[article]!)
      ) {
        const mended = text.slice(0, article) + other.text[article] + text.slice(article + 1);
        same = mended === other.text || (other.fold !== undefined && rememberedFold(mended) === other.fold);
      }
      if (!same) {
        const spelled = wadeGilesSyllables(run, a, ac);
        if (spelled && wadeGilesSpells(spelled, other.text)) same = true;
      }
      // From a script that writes no short vowels the consonant skeleton is the evidence, joined as
      // for one part (عبد الله, abd al lh / Abdullah).
      const skeleton =
        !same &&
        (a[first]!.translit === 'abjad') !== (other.translit === 'abjad') &&
        (run.pk ??= phoneticKey(text)) === other.pk;
      if (!same && !skeleton) continue;
      const similarity = text === other.text ? 0.97 : skeleton ? 0.9 : 0.93;
      out.push(
        swapped
          ? { qi: otherAt, qj: otherAt, ci: first, cj: last, s: similarity, how: 'joined' }
          : { qi: first, qj: last, ci: otherAt, cj: otherAt, s: similarity, how: 'joined' },
      );
    }
  }
}
