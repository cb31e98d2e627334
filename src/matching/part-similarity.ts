/**
 * Similarity of two name parts, calibrated for names: the same part, one slip, a spelling variant
 * across romanizations, a shared consonant skeleton, a nickname or the same given name in another
 * language, a Wade-Giles syllable against its Pinyin. 0 when the two should not be aligned at all.
 */
import { sameGivenName } from './name-variants.js';
import type { AlignedPart } from './types.js';
import type { PartKind, Translit } from './normalize.js';
import { isTransposition, jaroWinkler, koreanFold, levenshtein, rememberedFold, spellingFold } from './similarity.js';
import { wadeGilesSpellsSyllable } from './wade-giles.js';
import { SHORT_ABJAD, consonantsKept, lettersWritten } from './abjad-letters.js';
import { bareStem, derivedApart, farApart, inflected } from './name-endings.js';

export { derivedApart, farApart, lettersWritten };
import { SCORING } from './scoring-table.js';

/** A name part as the rules compare it. Every one is made by CandidateIndex.scored, with every field (one hidden class). */
export interface ScoredPart {
  text: string;
  kind: PartKind;
  pk: string;
  /** Informativeness weight (IDF-like, natural log). */
  idf: number;
  translit?: Translit;
  /** spellingFold() of the text, for words. */
  fold?: string;
  /**
   * A legal form read from a query word one slip away from it ("SOLINVEST LD"; see readQuery): a
   * guess, which may as well be a short surname (Ilc, Cors), not the query saying it names a company.
   */
  slip?: true;
  /** A word the lists hold in some person's name (Maya, Deniz, Kamran; not Rosneft). */
  personal?: true;
}

/* The values partSimilarity gives and the lengths it asks, from the scoring table (scoring-table.ts). */
const INITIAL_SIMILARITY = SCORING.INITIAL_SIMILARITY.value;
const NICKNAME_SIMILARITY = SCORING.NICKNAME_SIMILARITY.value;
const WADE_GILES_MAX_LENGTH = SCORING.WADE_GILES_MAX_LENGTH.value;
const WADE_GILES_SIMILARITY = SCORING.WADE_GILES_SIMILARITY.value;
const LENGTH_GAP_REJECT = SCORING.LENGTH_GAP_REJECT.value;
const JW_FLOOR = SCORING.JW_FLOOR.value;
const JW_MIN_LENGTH = SCORING.JW_MIN_LENGTH.value;
const JW_DISCOUNT = SCORING.JW_DISCOUNT.value;
const LENGTH_GAP_DOUBTFUL = SCORING.LENGTH_GAP_DOUBTFUL.value;
const DOUBTFUL_SIMILARITY = SCORING.DOUBTFUL_SIMILARITY.value;
const VOWEL_SWAP_MIN_LENGTH = SCORING.VOWEL_SWAP_MIN_LENGTH.value;
const VOWEL_SWAP_SIMILARITY = SCORING.VOWEL_SWAP_SIMILARITY.value;
const SLIP_LONG_LENGTH = SCORING.SLIP_LONG_LENGTH.value;
const SLIP_LONG_SAME_FIRST = SCORING.SLIP_LONG_SAME_FIRST.value;
const SLIP_LONG_OTHER_FIRST = SCORING.SLIP_LONG_OTHER_FIRST.value;
const SLIP_MEDIUM_LENGTH = SCORING.SLIP_MEDIUM_LENGTH.value;
const SLIP_MEDIUM_SAME_FIRST = SCORING.SLIP_MEDIUM_SAME_FIRST.value;
const SLIP_MEDIUM_OTHER_FIRST = SCORING.SLIP_MEDIUM_OTHER_FIRST.value;
const SLIP_SHORT_LENGTH = SCORING.SLIP_SHORT_LENGTH.value;
const SLIP_SHORT_SIMILARITY = SCORING.SLIP_SHORT_SIMILARITY.value;
const TWO_EDITS_LONG_LENGTH = SCORING.TWO_EDITS_LONG_LENGTH.value;
const TWO_EDITS_LONG_SIMILARITY = SCORING.TWO_EDITS_LONG_SIMILARITY.value;
const TWO_EDITS_MEDIUM_LENGTH = SCORING.TWO_EDITS_MEDIUM_LENGTH.value;
const REVERSED_MIN_LENGTH = SCORING.REVERSED_MIN_LENGTH.value;
const REVERSED_SIMILARITY = SCORING.REVERSED_SIMILARITY.value;
const FOLD_SIMILARITY = SCORING.FOLD_SIMILARITY.value;
const SKELETON_FLOOR_TRANSLIT = SCORING.SKELETON_FLOOR_TRANSLIT.value;
const SKELETON_FLOOR_LONG = SCORING.SKELETON_FLOOR_LONG.value;
const SKELETON_LONG_LENGTH = SCORING.SKELETON_LONG_LENGTH.value;
const SKELETON_FLOOR_SHORT = SCORING.SKELETON_FLOOR_SHORT.value;
const SKELETON_SHORT_PART = SCORING.SKELETON_SHORT_PART.value;
const SKELETON_ABJAD_SIMILARITY = SCORING.SKELETON_ABJAD_SIMILARITY.value;
const SKELETON_BASE = SCORING.SKELETON_BASE.value;
const SKELETON_SLOPE = SCORING.SKELETON_SLOPE.value;
const OTHER_FIRST_MIN_LENGTH = SCORING.OTHER_FIRST_MIN_LENGTH.value;
const OTHER_FIRST_CAP = SCORING.OTHER_FIRST_CAP.value;
const INFLECTED_MIN_LENGTH = SCORING.INFLECTED_MIN_LENGTH.value;
const INFLECTED_SIMILARITY = SCORING.INFLECTED_SIMILARITY.value;
const SHORT_ABJAD_BOTH = SCORING.SHORT_ABJAD_BOTH.value;
const ALPHABET_MAX_EDITS = SCORING.ALPHABET_MAX_EDITS.value;
const ALIGN_FLOOR = SCORING.ALIGN_FLOOR.value;
const MAX_FUZZY = SCORING.MAX_FUZZY.value;

/** How lists and customers write Allah as a name part of its own. */
const ALLAH = new Set(['allah', 'ullah', 'ollah', 'alla', 'ulla', 'olla', 'alah', 'ulah', 'allahi', 'ullahi']);

const LETTER_L = 'l'.charCodeAt(0);

/** Written with the double l or the -lah of Allah (not Ali, Aly, Eli). */
function allahLike(t: string): boolean {
  return t.includes('ll') || t.includes('lah');
}

/** What partSimilarity gives: the similarity, and how the parts are alike. */
export interface PartSimilarity {
  s: number;
  how: AlignedPart['how'];
}

/** The answers most pairs get, one object each for all of them. Nothing writes to a similarity once given. */
const NOT_ALIGNED: PartSimilarity = { s: 0, how: 'fuzzy' };
const SAME_TEXT: PartSimilarity = { s: 1, how: 'exact' };

/**
 * Similarity of two name parts, 0 when they should not be aligned at all. Values are calibrated
 * so that 1 = same, ~0.95 = one slip in a long part, ~0.9 = a spelling variant, below 0.85 = doubtful.
 * The rules apply in the order of PART_RULES (part-rules.ts), in the functions below in that order:
 * what the kinds of parts decide, then the letters (edits, Jaro-Winkler), then spelling variants,
 * then what rules a pair out.
 */
export function partSimilarity(a: ScoredPart, b: ScoredPart, strict = false): PartSimilarity {
  const decided = byKindAndScript(a, b, strict);
  if (decided !== undefined) return decided;
  const jaroScore = jaroWinkler(a.text, b.text);
  const draft = byLetters(a.text, b.text, jaroScore);
  const variant = bySpelling(a, b, strict, draft.s);
  if (variant !== undefined) return variant;
  const skeletonAgrees = bySkeleton(a, b, strict, jaroScore, draft);
  return ruledOut(a, b, skeletonAgrees) ? { s: 0, how: draft.how } : afterVetoes(a, b, strict, draft);
}

/** The rules that decide by the parts' kinds and scripts, before their letters are compared (undefined: go on). */
function byKindAndScript(a: ScoredPart, b: ScoredPart, strict: boolean): PartSimilarity | undefined {
  // rule: same-text
  if (a.text === b.text) return SAME_TEXT;
  const lengthA = a.text.length;
  const lengthB = b.text.length;
  // rule: initial
  if (lengthA === 1 || lengthB === 1) {
    // An initial stands for a part with that first letter; two different initials never align. A part
    // read from syllables (Chinese characters, Hangul) is a syllable or two, never an initial: "usong"
    // (우성) is not the U of "Hyon U".
    if (
      !strict &&
      a.text[0] === b.text[0] &&
      (a.kind === 'initial' || b.kind === 'initial') &&
      !syllabic(a) &&
      !syllabic(b)
    )
      return { s: INITIAL_SIMILARITY, how: 'initial' };
    return NOT_ALIGNED;
  }
  // rule: allah
  // Allah, in a theophoric name written apart (Seif Allah, Rahmat Ullah), is that word in any
  // spelling (Allakh, Ullakh), never Ali: its skeleton comes close to Ali's, its meaning nowhere near.
  // (Every spelling of it has an l second: the hot path looks up no set.)
  if (
    (a.text.charCodeAt(1) === LETTER_L || b.text.charCodeAt(1) === LETTER_L) &&
    ALLAH.has(a.text) !== ALLAH.has(b.text) &&
    !(allahLike(a.text) && allahLike(b.text))
  )
    return NOT_ALIGNED;
  // rule: given-name-variant
  // A hypocorism or the same given name in another language (Bill / William, Juan / John).
  // (Not for a syllable read from Chinese characters or Hangul: 娟 juan is not the Spanish Juan.)
  // (Nor for a word read from an abjad: its reading is already a guess at the vowels, جان jan, and the
  // table maps the spellings of European names, not guesses: jan is not John or Ivan.)
  if (
    !strict &&
    !syllabic(a) &&
    !syllabic(b) &&
    a.translit !== 'abjad' &&
    b.translit !== 'abjad' &&
    sameGivenName(a.text, b.text)
  )
    return { s: NICKNAME_SIMILARITY, how: 'nickname' };
  return bySyllables(a, b, strict);
}

/** The rules of syllabic and opaque parts, and the cheap rejections (see byKindAndScript). */
function bySyllables(a: ScoredPart, b: ScoredPart, strict: boolean): PartSimilarity | undefined {
  const lengthA = a.text.length;
  const lengthB = b.text.length;
  // rule: hangul-syllables
  // Hangul writes every letter of a syllable: a part read from it is another name when its syllables
  // differ otherwise than the romanizations of one syllable do (see koreanFold): 편 Pyon is not
  // Pyong, 승 Sung not Sang, and the two syllables of 정민 Jongmin are not the one of Jong.
  if (
    (a.translit === 'hangul' || b.translit === 'hangul') &&
    koreanFold(a.text, a.translit === 'hangul') !== koreanFold(b.text, b.translit === 'hangul')
  )
    return NOT_ALIGNED;
  // rule: wade-giles
  // One Mandarin syllable in Wade-Giles and in Pinyin (Hsi / Xi).
  if (
    !strict &&
    lengthA <= WADE_GILES_MAX_LENGTH &&
    lengthB <= WADE_GILES_MAX_LENGTH &&
    (wadeGilesSpellsSyllable(a.text, b.text) || wadeGilesSpellsSyllable(b.text, a.text))
  )
    return { s: WADE_GILES_SIMILARITY, how: 'phonetic' };
  // rule: opaque-or-syllable
  // Numbers agree exactly or not at all; so do parts holding characters no table transliterated,
  // and Pinyin read from Chinese characters: a syllable that differs is another character (Jinxing
  // is not Jinping), as Chinese given names are made of a few hundred common syllables; so are
  // Vietnamese syllables written with their marks (Thanh is not Than).
  if (OPAQUE.test(a.text) || OPAQUE.test(b.text) || oneSyllableEach(a) || oneSyllableEach(b)) return NOT_ALIGNED;
  // rule: length-gap
  // Cheap rejection: lengths far apart and different skeletons never reach the threshold, unless the
  // spellings fold alike: Cyrillic writes each Latin h as х, kh, so a name grows a letter an h
  // (Jalahmah / Джалахмах / Dzhalakhmakh).
  if (a.pk !== b.pk && Math.abs(lengthA - lengthB) > LENGTH_GAP_REJECT && (a.fold === undefined || a.fold !== b.fold))
    return NOT_ALIGNED;
  // rule: far-apart
  // Most pairs a query meets are different names: unless the skeletons or spellings agree, letters
  // in common tell beforehand that neither Jaro-Winkler nor the edit distance can come close.
  if (a.pk !== b.pk && (a.fold === undefined || a.fold !== b.fold) && farApart(a.text, b.text)) return NOT_ALIGNED;
  return undefined;
}

/** The similarity the letters give: Jaro-Winkler, and the edits between the two (slips, a vowel for a vowel). */
function byLetters(a: string, b: string, jw: number): PartSimilarity {
  const lengthA = a.length;
  const lengthB = b.length;
  const minLen = Math.min(lengthA, lengthB);
  const sameFirst = a.charCodeAt(0) === b.charCodeAt(0);
  let shared = 0;
  let how: AlignedPart['how'] = 'fuzzy';
  // rule: jaro-winkler
  if (jw >= JW_FLOOR && minLen >= JW_MIN_LENGTH) shared = jw - JW_DISCOUNT;
  // rule: length-doubtful
  // Parts of clearly different lengths (Ronaldinho / Ronaldo) are at best doubtful.
  if (Math.abs(lengthA - lengthB) > LENGTH_GAP_DOUBTFUL) return { s: Math.min(shared, DOUBTFUL_SIMILARITY), how };
  let edits = levenshtein(a, b, 2);
  // Two neighbouring letters swapped is one slip, not two (Zhagn / Zhang).
  if (edits === 2 && lengthA === lengthB && isTransposition(a, b)) edits = 1;
  // rule: vowel-for-vowel
  if (edits === 1 && lengthA === lengthB && minLen >= VOWEL_SWAP_MIN_LENGTH && vowelForVowel(a, b)) {
    // One vowel written for another, inside the word or at its start: the commonest difference
    // between romanizations of one name (Osama / Usama, Laden / Ladin, Ebrahim / Ibrahim), whose
    // source script leaves short vowels unwritten or spells them otherwise. (At the end it is
    // often an inflection, Antonio / Antonia.)
    shared = Math.max(shared, VOWEL_SWAP_SIMILARITY);
    how = 'phonetic';
  } else if (edits === 1) {
    // rule: one-slip
    // A different first letter is more often another name (Hernandez/Fernandez) than a slip.
    if (minLen >= SLIP_LONG_LENGTH) shared = Math.max(shared, sameFirst ? SLIP_LONG_SAME_FIRST : SLIP_LONG_OTHER_FIRST);
    else if (minLen >= SLIP_MEDIUM_LENGTH)
      shared = Math.max(shared, sameFirst ? SLIP_MEDIUM_SAME_FIRST : SLIP_MEDIUM_OTHER_FIRST);
    else if (minLen >= SLIP_SHORT_LENGTH && sameFirst) shared = Math.max(shared, SLIP_SHORT_SIMILARITY);
  } else if (edits === 2) {
    // rule: two-edits
    // Two edits in a long part are as often another name (Abdurrahim / Abdurrahman) as a variant.
    shared =
      minLen >= TWO_EDITS_LONG_LENGTH && sameFirst
        ? TWO_EDITS_LONG_SIMILARITY
        : minLen >= TWO_EDITS_MEDIUM_LENGTH && sameFirst
          ? DOUBTFUL_SIMILARITY
          : Math.min(shared, DOUBTFUL_SIMILARITY);
  } else if (edits > 2) shared = Math.min(shared, DOUBTFUL_SIMILARITY);
  return { s: shared, how };
}

/** One name written backwards, or in two romanizations (the same spelling fold); undefined otherwise. */
function bySpelling(a: ScoredPart, b: ScoredPart, strict: boolean, s: number): PartSimilarity | undefined {
  const lengthA = a.text.length;
  const lengthB = b.text.length;
  const minLen = Math.min(lengthA, lengthB);
  // rule: reversed
  if (!strict && minLen >= REVERSED_MIN_LENGTH && lengthA === lengthB && isReversed(a.text, b.text))
    return { s: REVERSED_SIMILARITY, how: 'fuzzy' };
  // rule: spelling-fold
  if (
    !strict &&
    s < FOLD_SIMILARITY &&
    a.fold !== undefined &&
    a.fold === b.fold &&
    a.fold.length >= 2 &&
    minLen >= 2 &&
    Math.max(lengthA, lengthB) >= 3
  ) {
    // One name in two romanizations (see spellingFold).
    return { s: FOLD_SIMILARITY, how: 'phonetic' };
  }
  return undefined;
}

/**
 * Both parts written in an abjad: the letters each writer put down (consonants and long vowels,
 * حسين Husayn / حسن Hasan) are there to compare, and a different letter is another name, not a
 * vowel the script left out. The skeleton stands in only against a romanization.
 */
const bothAbjad = (a: ScoredPart, b: ScoredPart): boolean => a.translit === 'abjad' && b.translit === 'abjad';
/** One part read from an abjad, the other not. */
const oneAbjad = (a: ScoredPart, b: ScoredPart): boolean => (a.translit === 'abjad') !== (b.translit === 'abjad');
/** lettersWritten of the abjad part against the other (see oneAbjad). */
const abjadLettersWritten = (a: ScoredPart, b: ScoredPart): boolean =>
  a.translit === 'abjad' ? lettersWritten(a.text, b.text) : lettersWritten(b.text, a.text);

/** A shared consonant skeleton, which may raise the draft; true when the skeleton agrees. */
function bySkeleton(a: ScoredPart, b: ScoredPart, strict: boolean, jw: number, draft: PartSimilarity): boolean {
  const lengthA = a.text.length;
  const lengthB = b.text.length;
  const abjad = oneAbjad(a, b);
  // rule: consonant-skeleton
  // Hangul writes every vowel: a consonant skeleton shared with another syllable (Cho / Chu, Han /
  // Hun, Jiyong / Jang) is another name, not a romanization of this one.
  if (
    strict ||
    bothAbjad(a, b) ||
    a.translit === 'hangul' ||
    b.translit === 'hangul' ||
    a.pk !== b.pk ||
    (abjad && !abjadLettersWritten(a, b)) ||
    !(a.pk.length >= 2 || (a.pk.length === 1 && (Math.max(lengthA, lengthB) <= SKELETON_SHORT_PART || abjad)))
  )
    return false;
  // Same consonant skeleton: a spelling variant when the strings agree otherwise too. From a
  // script that writes no short vowels the skeleton alone is the evidence; from other scripts
  // (vowels written, consonant classes guessed) a little less string agreement is asked.
  const floor = abjad
    ? 0
    : a.translit !== undefined || b.translit !== undefined
      ? SKELETON_FLOOR_TRANSLIT
      : Math.max(lengthA, lengthB) >= SKELETON_LONG_LENGTH
        ? SKELETON_FLOOR_LONG
        : SKELETON_FLOOR_SHORT;
  if (jw < floor && Math.max(lengthA, lengthB) > SKELETON_SHORT_PART) return false;
  const skeleton = abjad ? SKELETON_ABJAD_SIMILARITY : SKELETON_BASE + SKELETON_SLOPE * (jw - floor);
  if (skeleton > draft.s) {
    draft.s = skeleton;
    draft.how = 'phonetic';
  }
  return true;
}

/** The letters an abjad writes rule the pair out against a romanization (see lettersWritten, consonantsKept). */
function ruledOut(a: ScoredPart, b: ScoredPart, skeleton: boolean): boolean {
  if (!oneAbjad(a, b) || skeleton) return false;
  // rule: abjad-letters-written
  // Against a romanization, the long vowels an abjad writes must be there whatever the path: the
  // edit distance between amyr (عمیر, Umair) and Amar counts the vowels the script leaves out as
  // slips, and finds a name one slip away that the letters written rule out.
  if (!abjadLettersWritten(a, b)) return true;
  // rule: short-abjad-consonants
  // A short name in an abjad is a few letters, each of them written: against a romanization, another
  // consonant skeleton is another name (اعوان Awan is not Awad, کمال Kamal not Khal), whatever the
  // edit distance says. (In a longer word one letter may be a slip of the writer.)
  // (Words only: a particle has no skeleton of its own, بين byn / bin. A consonant the abjad writes
  // must be missing from the romanization, not merely written apart: ككار kkar / Kakar.)
  return (
    a.kind === 'word' &&
    b.kind === 'word' &&
    (a.translit === 'abjad' ? a.text.length : b.text.length) <= SHORT_ABJAD &&
    !(a.translit === 'abjad' ? consonantsKept(a.text, b.text) : consonantsKept(b.text, a.text))
  );
}

/** The draft capped or ruled out by the first letter, the alphabet's letters, the inflection; then the floor. */
function afterVetoes(a: ScoredPart, b: ScoredPart, strict: boolean, draft: PartSimilarity): PartSimilarity {
  const { how } = draft;
  let score = draft.s;
  const minLen = Math.min(a.text.length, b.text.length);
  // rule: other-first-letter
  // A different first letter is rarely a slip in a short part (Anna / Banna) and not often in a long one.
  if (a.text.charCodeAt(0) !== b.text.charCodeAt(0) && how === 'fuzzy' && score > 0)
    score = minLen < OTHER_FIRST_MIN_LENGTH ? 0 : Math.min(score, OTHER_FIRST_CAP);
  // rule: alphabet-letters
  // A word read from an alphabet that writes every letter (Cyrillic, Greek, Armenian, Georgian) against
  // a romanization: the romanizations of one name agree on its first letter but for the letters they
  // render otherwise (Е Ye or E, Ю Yu or Iu, Х Kh or H, Հ H or nothing), and on a final a or e (Karina
  // and Karine are not Karen, Aleksandra is not Aleksandr). Another first letter (Aren / Karen) or a
  // final vowel one side lacks is another name of that language.
  if (score > 0 && !strict && (a.translit === 'alphabet') !== (b.translit === 'alphabet') && otherLetters(a, b, minLen))
    return { s: 0, how };
  // Another inflection of one stem is another name: Antonio/Antonia, Martin/Martina, Ivanov/Ivanova.
  // Kept alignable, but as a doubtful pair. (A final -s is left alone: Baltic languages add it to
  // every foreign name, Putins / Putin.)
  // rule: inflection
  if (!strict && minLen >= INFLECTED_MIN_LENGTH && score > INFLECTED_SIMILARITY && inflected(a.text, b.text))
    score = INFLECTED_SIMILARITY;
  // In an abjad a short name is a few letters, each of them written: one more or one other (حسن
  // Hasan / حسين Husayn, عمر Umar / عامر Amir, سعد Saad / سعيد Said) is another name.
  // rule: short-abjad-pair
  if (bothAbjad(a, b) && minLen <= SHORT_ABJAD_BOTH) return { s: 0, how };
  // rule: alignment-floor
  if (score < ALIGN_FLOOR) return { s: 0, how };
  return finalVetoes(a, b, strict, { s: score, how });
}

/** The last rules: letters of one alphabet, derived names, a particle for a name; then the cap under one. */
function finalVetoes(a: ScoredPart, b: ScoredPart, strict: boolean, draft: PartSimilarity): PartSimilarity {
  const { s: score, how } = draft;
  // Two words written in one alphabet that writes every letter (two Cyrillic names): a letter is a
  // letter, not a romanization's guess; three slips apart is another name (Голубева Golubeva /
  // Глебова Glebova), where two may be a variant (Вукић / Вучић).
  // rule: alphabet-edits
  if (
    a.translit === 'alphabet' &&
    b.translit === 'alphabet' &&
    levenshtein(a.text, b.text, ALPHABET_MAX_EDITS + 1) > ALPHABET_MAX_EDITS
  )
    return { s: 0, how };
  // (Georgian gives every name ending in a consonant the -i of its nominative, პუტინი Putini: from
  // that script the -i is no ending of its own.)
  // An ending makes a second name only of a stem that is a name itself: a stem the lists hold in no
  // person's name is the derived name with its last letter lost (Qadhaf / Qadhafi, Hanaf / Hanafi).
  // rule: derived-endings
  const nisba = a.translit !== 'alphabet' && b.translit !== 'alphabet';
  if (
    !strict &&
    (a.personal === true || b.personal === true) &&
    derivedApart(a.text, b.text, nisba) &&
    !unnamedStem(a, b, nisba)
  )
    return { s: 0, how };
  // rule: particle-for-name
  if (particleForName(a, b)) return { s: 0, how };
  // rule: under-one
  return { s: Math.min(score, MAX_FUZZY), how };
}

/** One side is the other's bare stem (see bareStem), and the lists hold that stem in no person's name. */
function unnamedStem(a: ScoredPart, b: ScoredPart, nisba: boolean): boolean {
  const stem = bareStem(a.text, b.text, nisba);
  return stem !== undefined && (stem === a.text ? a : b).personal !== true;
}

const OPAQUE = /[^a-z]/;
/**
 * A particle (de, al, bin; and, written & in a company's name) against a word the lists hold in a
 * person's name, one slip from it: Ann is not "and". A particle is still that word in some spelling
 * (byn, Oould), a name it is short for (Ben / Benjamin, paired before this is asked), or a slip of it
 * (TrE / THE, LSO / LOS). Between Latin letters only: a word read from another script is a guess at
 * its letters (بين byn / Ben).
 */
function particleForName(a: ScoredPart, b: ScoredPart): boolean {
  const word = a.kind === 'particle' ? b : b.kind === 'particle' ? a : undefined;
  return (
    word !== undefined &&
    word.kind !== 'particle' &&
    word.personal === true &&
    a.translit === undefined &&
    b.translit === undefined &&
    (word.fold ?? spellingFold(word.text)) !== rememberedFold((word === a ? b : a).text)
  );
}

const syllabic = (p: ScoredPart): boolean =>
  p.translit === 'han' || p.translit === 'hangul' || p.translit === 'vietnamese';
/** Written syllable by syllable from a small pool, each syllable exact (see Translit). */
const oneSyllableEach = (p: ScoredPart): boolean => p.translit === 'han' || p.translit === 'vietnamese';

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

/** `a` is `b` read backwards (by code points). */
function isReversed(a: string, b: string): boolean {
  const lengthB = b.length;
  if (a.length !== lengthB) return false;
  for (let i = 0; i < lengthB; i++) {
    const code = b.charCodeAt(i);
    // Surrogate pairs must stay pairs when reversed: leave those to the general path.
    if (code >= 0xd800 && code <= 0xdfff) return a === [...b].reverse().join('');
    if (a.charCodeAt(lengthB - 1 - i) !== code) return false;
  }
  return true;
}

/** Letters romanizations of one alphabet's letter start a name with differently (see partSimilarity). */
const SOFT_START = /^[yijhe]/;
const FINAL_AE = /[ae]$/;
const CONSONANT_END = /[bcdfgklmnpqrstvxz]$/;

/** Below this length a first letter that differs is another name; in a longer word it may be a prefix written apart (O'Reilly, О Рейлли). */
const SHORT_NAME = SCORING.SHORT_NAME.value;

function otherLetters(a: ScoredPart, b: ScoredPart, minLen: number): boolean {
  // Compared by their spelling folds (see spellingFold): в is V or W, к K, C or Q.
  const foldA = a.fold ?? a.text;
  const foldB = b.fold ?? b.text;
  if (
    minLen < SHORT_NAME &&
    foldA.charCodeAt(0) !== foldB.charCodeAt(0) &&
    !SOFT_START.test(foldA) &&
    !SOFT_START.test(foldB)
  )
    return true;
  const textA = a.text;
  const textB = b.text;
  return (FINAL_AE.test(textA) && CONSONANT_END.test(textB)) || (FINAL_AE.test(textB) && CONSONANT_END.test(textA));
}
