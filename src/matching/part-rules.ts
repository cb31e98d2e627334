/**
 * The rules of partSimilarity (part-similarity.ts), as data: the ordered list the function follows
 * (each rule's place in it is marked "// rule: <id>" in the function, and a test checks the order),
 * each with what it says and the example pairs that pin it. The examples are run as tests
 * (test/matching/part-rules.test.ts), rendered in docs/scoring.md, and part of the scoring digest
 * that the engine version carries. Values are those of the SCORING table (scoring-table.ts).
 */
import type { PartKind, Translit } from './normalize.js';
import type { AlignedPart } from './types.js';

/** One side of an example: a word in Latin letters, or a part with its kind, script or personal flag. */
export type ExamplePart =
  string | { readonly text: string; readonly kind?: PartKind; readonly translit?: Translit; readonly personal?: true };

export interface RuleExample {
  readonly a: ExamplePart;
  readonly b: ExamplePart;
  /** partSimilarity(a, b).s, to four decimals. */
  readonly s: number;
  readonly how: AlignedPart['how'];
}

export interface PartRule {
  readonly id: string;
  readonly title: string;
  readonly what: string;
  readonly source: string;
  readonly examples: readonly RuleExample[];
}

const NAME_PRACTICE = 'how names are written and romanized';
const CALIBRATED = 'calibrated on the judged pairs';
const PRECISION = 'precision passes on the multicultural negatives';

/** In the order partSimilarity applies them; the first that decides ends the comparison. */
export const PART_RULES: readonly PartRule[] = [
  {
    id: 'same-text',
    title: 'The same text',
    what: 'Two parts written alike are the same part: 1.',
    source: 'definition',
    examples: [{ a: 'ivanov', b: 'ivanov', s: 1, how: 'exact' }],
  },
  {
    id: 'initial',
    title: 'An initial',
    what: 'A one-letter part stands for a part with that first letter (INITIAL_SIMILARITY); two different initials never align; a syllable read from Chinese characters or Hangul is never an initial.',
    source: NAME_PRACTICE,
    examples: [
      { a: { text: 'j', kind: 'initial' }, b: 'john', s: 0.75, how: 'initial' },
      { a: { text: 'j', kind: 'initial' }, b: { text: 'k', kind: 'initial' }, s: 0, how: 'fuzzy' },
      { a: { text: 'u', kind: 'initial' }, b: { text: 'usong', translit: 'hangul' }, s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'allah',
    title: 'Allah is Allah',
    what: 'Allah written apart in a theophoric name (Seif Allah, Rahmat Ullah) is that word in any spelling, never Ali: the skeletons come close, the meanings nowhere near.',
    source: NAME_PRACTICE,
    examples: [
      { a: 'ullah', b: 'ali', s: 0, how: 'fuzzy' },
      { a: 'allakh', b: 'allah', s: 0.95, how: 'phonetic' },
    ],
  },
  {
    id: 'given-name-variant',
    title: "A given name's variant",
    what: 'A hypocorism or the same given name in another language (Bill / William, Juan / John), from the tables of name-variants.ts: NICKNAME_SIMILARITY. Not for syllables read from Chinese characters or Hangul, nor for words read from an abjad (their vowels are guesses).',
    source: 'name-variants.ts tables',
    examples: [
      { a: 'bill', b: 'william', s: 0.9, how: 'nickname' },
      { a: 'juan', b: 'john', s: 0.9, how: 'nickname' },
      { a: 'sergei', b: 'sergey', s: 0.9, how: 'nickname' },
      { a: { text: 'elena', translit: 'alphabet' }, b: 'helena', s: 0.9, how: 'nickname' },
    ],
  },
  {
    id: 'hangul-syllables',
    title: 'Hangul writes every letter',
    what: 'A part read from Hangul is another name when its syllables differ otherwise than the romanizations of one syllable do (see koreanFold): Pyon is not Pyong, Sung not Sang.',
    source: 'Revised and McCune-Reischauer romanizations',
    examples: [
      { a: { text: 'pyon', translit: 'hangul' }, b: 'pyong', s: 0, how: 'fuzzy' },
      { a: { text: 'sung', translit: 'hangul' }, b: 'sang', s: 0, how: 'fuzzy' },
      { a: 'jiyong', b: { text: 'jang', translit: 'hangul' }, s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'wade-giles',
    title: 'Wade-Giles and Pinyin',
    what: 'One Mandarin syllable in Wade-Giles and in Pinyin (Hsi / Xi, Tsai / Cai): WADE_GILES_SIMILARITY.',
    source: 'Wade-Giles and Pinyin syllable tables',
    examples: [
      { a: 'hsi', b: 'xi', s: 0.93, how: 'phonetic' },
      { a: 'tsai', b: 'cai', s: 0.93, how: 'phonetic' },
      { a: 'ching', b: 'jing', s: 0.93, how: 'phonetic' },
    ],
  },
  {
    id: 'opaque-or-syllable',
    title: 'Exact or nothing',
    what: 'Numbers, parts holding characters no table transliterated, Pinyin read from Chinese characters and Vietnamese syllables with their marks agree exactly or not at all: another syllable is another character (Jinxing is not Jinping).',
    source: NAME_PRACTICE,
    examples: [
      { a: { text: '1984', kind: 'number' }, b: { text: '1985', kind: 'number' }, s: 0, how: 'fuzzy' },
      { a: { text: 'jinxing', translit: 'han' }, b: 'jinping', s: 0, how: 'fuzzy' },
      { a: { text: 'thanh', translit: 'vietnamese' }, b: 'than', s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'length-gap',
    title: 'Lengths far apart',
    what: 'Lengths more than LENGTH_GAP_REJECT apart with different skeletons never reach the floor, unless the spelling folds agree (Jalahmah / Dzhalakhmakh, each h written kh from Cyrillic).',
    source: 'bound',
    examples: [
      { a: 'abd', b: 'abdurrahman', s: 0, how: 'fuzzy' },
      { a: 'dzhalakhmakh', b: 'jalahmah', s: 0.95, how: 'phonetic' },
    ],
  },
  {
    id: 'far-apart',
    title: 'Too few letters in common',
    what: 'Unless the skeletons or spelling folds agree, too few letters in common mean neither Jaro-Winkler nor the edit distance can come close (farApart, a proven bound).',
    source: 'bound',
    examples: [
      { a: 'ivanov', b: 'smith', s: 0, how: 'fuzzy' },
      { a: 'karimov', b: 'kasparov', s: 0, how: 'fuzzy' },
      { a: 'catherine', b: 'kathryn', s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'jaro-winkler',
    title: 'Jaro-Winkler',
    what: 'From JW_FLOOR, between parts of JW_MIN_LENGTH letters or more, the Jaro-Winkler similarity less JW_DISCOUNT is the starting point.',
    source: CALIBRATED,
    examples: [{ a: 'zhagn', b: 'zhang', s: 0.9233, how: 'fuzzy' }],
  },
  {
    id: 'length-doubtful',
    title: 'Lengths apart',
    what: 'Parts whose lengths differ by more than LENGTH_GAP_DOUBTFUL (Ronaldinho / Ronaldo) are at best doubtful: DOUBTFUL_SIMILARITY.',
    source: CALIBRATED,
    examples: [{ a: 'ronaldinho', b: 'ronaldo', s: 0.82, how: 'fuzzy' }],
  },
  {
    id: 'vowel-for-vowel',
    title: 'One vowel for another',
    what: 'Same length, one vowel swapped o/u or e/i inside the word or at its start, in a word of two syllables or more: the commonest difference between romanizations (Osama / Usama): VOWEL_SWAP_SIMILARITY. (At the end it is an inflection: Antonio / Antonia.)',
    source: NAME_PRACTICE,
    examples: [
      { a: 'osama', b: 'usama', s: 0.95, how: 'phonetic' },
      { a: 'laden', b: 'ladin', s: 0.95, how: 'phonetic' },
      { a: 'ebrahim', b: 'ibrahim', s: 0.95, how: 'phonetic' },
    ],
  },
  {
    id: 'one-slip',
    title: 'One slip',
    what: 'One edit (or two neighbouring letters swapped), graded by length and by whether the first letter is the one that differs (Hernandez / Fernandez is more often another name): SLIP_LONG_*, SLIP_MEDIUM_*, SLIP_SHORT_SIMILARITY.',
    source: CALIBRATED,
    examples: [
      { a: 'hernandez', b: 'fernandez', s: 0.86, how: 'fuzzy' },
      { a: 'petrov', b: 'petrof', s: 0.95, how: 'fuzzy' },
      { a: 'mehdi', b: 'mahdi', s: 0.9, how: 'fuzzy' },
      { a: 'abdulla', b: 'abdullah', s: 0.95, how: 'fuzzy' },
    ],
  },
  {
    id: 'two-edits',
    title: 'Two edits',
    what: 'Two edits in a long part are as often another name (Abdurrahim / Abdurrahman) as a variant: TWO_EDITS_LONG_SIMILARITY from TWO_EDITS_LONG_LENGTH, DOUBTFUL_SIMILARITY from TWO_EDITS_MEDIUM_LENGTH, more edits at most doubtful.',
    source: CALIBRATED,
    examples: [
      { a: 'abdurrahim', b: 'abdurrahman', s: 0.82, how: 'fuzzy' },
      { a: 'tariq', b: 'tarek', s: 0.82, how: 'fuzzy' },
    ],
  },
  {
    id: 'reversed',
    title: 'Written backwards',
    what: 'A part read backwards (a right-to-left name stored in the wrong order): REVERSED_SIMILARITY.',
    source: 'data-entry errors seen in right-to-left names',
    examples: [
      { a: 'amir', b: 'rima', s: 0.9, how: 'fuzzy' },
      { a: 'kadyrov', b: 'voryda', s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'spelling-fold',
    title: 'Two romanizations',
    what: 'The same spelling fold (kh/h, ou/u, double letters, -ij/-y, yo/e where Cyrillic prints ё as е; see spellingFold in similarity.ts): one name in two romanizations, FOLD_SIMILARITY.',
    source: NAME_PRACTICE,
    examples: [
      { a: 'khalil', b: 'halil', s: 0.95, how: 'phonetic' },
      { a: 'youssef', b: 'yusef', s: 0.95, how: 'phonetic' },
      { a: 'hasan', b: 'hassan', s: 0.95, how: 'phonetic' },
      { a: 'aleksei', b: 'alexei', s: 0.95, how: 'phonetic' },
      { a: 'semyon', b: 'semen', s: 0.95, how: 'phonetic' },
      { a: 'kyong', b: 'keng', s: 0.95, how: 'phonetic' },
    ],
  },
  {
    id: 'consonant-skeleton',
    title: 'The same consonant skeleton',
    what: 'The same consonant skeleton with enough string agreement (SKELETON_FLOOR_*), or from an abjad with the letters it writes: a spelling variant, SKELETON_BASE + SKELETON_SLOPE x (Jaro-Winkler - floor), or SKELETON_ABJAD_SIMILARITY from an abjad. Never from Hangul, which writes every vowel.',
    source: NAME_PRACTICE,
    examples: [
      { a: 'mohammed', b: 'mohamad', s: 0.8964, how: 'phonetic' },
      { a: 'konstantin', b: 'constantine', s: 0.8918, how: 'phonetic' },
      { a: { text: 'mhmd', translit: 'abjad' }, b: 'muhammad', s: 0.9, how: 'phonetic' },
      { a: 'cho', b: { text: 'chu', translit: 'hangul' }, s: 0.82, how: 'fuzzy' },
    ],
  },
  {
    id: 'abjad-letters-written',
    title: 'The letters an abjad writes',
    what: 'Against a romanization, the long vowels an abjad writes must be there whatever the path (lettersWritten): amyr (Umair) is not Amar; hsyn is Husayn, not Hassan.',
    source: NAME_PRACTICE,
    examples: [
      { a: { text: 'amyr', translit: 'abjad' }, b: 'amar', s: 0, how: 'fuzzy' },
      { a: { text: 'hsyn', translit: 'abjad' }, b: 'hassan', s: 0, how: 'fuzzy' },
      { a: { text: 'hsyn', translit: 'abjad' }, b: 'husayn', s: 0.9, how: 'phonetic' },
    ],
  },
  {
    id: 'short-abjad-consonants',
    title: "A short abjad name's consonants",
    what: 'A word of SHORT_ABJAD letters or fewer from an abjad must keep every consonant, in order, in the romanization (consonantsKept): Awan is not Awad.',
    source: NAME_PRACTICE,
    examples: [
      { a: { text: 'awan', translit: 'abjad' }, b: 'awad', s: 0, how: 'fuzzy' },
      { a: { text: 'kmal', translit: 'abjad' }, b: 'khal', s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'other-first-letter',
    title: 'Another first letter',
    what: 'A fuzzy pair with different first letters is dropped under OTHER_FIRST_MIN_LENGTH letters and capped at OTHER_FIRST_CAP.',
    source: CALIBRATED,
    examples: [
      { a: 'anna', b: 'banna', s: 0.86, how: 'fuzzy' },
      { a: 'olga', b: 'volga', s: 0.86, how: 'fuzzy' },
      { a: 'ana', b: 'bana', s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'alphabet-letters',
    title: "An alphabet's first and last letters",
    what: 'A word read from Cyrillic, Greek, Armenian or Georgian against a romanization: another first letter (under SHORT_NAME letters, but for the letters romanizations render otherwise) or a final a/e one side lacks is another name (Karina is not Karen).',
    source: NAME_PRACTICE,
    examples: [
      { a: { text: 'karina', translit: 'alphabet' }, b: 'karen', s: 0, how: 'phonetic' },
      { a: { text: 'aren', translit: 'alphabet' }, b: 'karen', s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'inflection',
    title: 'Another inflection',
    what: 'Another inflection of one stem (Martin / Martina, Ivanov / Ivanova, Antonio / Antonia) is another name: kept alignable at INFLECTED_SIMILARITY.',
    source: NAME_PRACTICE,
    examples: [
      { a: 'martin', b: 'martina', s: 0.8, how: 'fuzzy' },
      { a: 'ivanov', b: 'ivanova', s: 0.8, how: 'fuzzy' },
      { a: 'antonio', b: 'antonia', s: 0.8, how: 'fuzzy' },
      { a: 'maria', b: 'mario', s: 0.8, how: 'fuzzy' },
    ],
  },
  {
    id: 'short-abjad-pair',
    title: 'Two short abjad words',
    what: 'Two abjad words of SHORT_ABJAD_BOTH letters or fewer that differ are other names (Hasan / Husayn, Saad / Said).',
    source: NAME_PRACTICE,
    examples: [{ a: { text: 'hsn', translit: 'abjad' }, b: { text: 'hsyn', translit: 'abjad' }, s: 0, how: 'fuzzy' }],
  },
  {
    id: 'alignment-floor',
    title: 'The alignment floor',
    what: 'A pair under ALIGN_FLOOR is not aligned at all.',
    source: CALIBRATED,
    examples: [
      { a: 'ali', b: 'ila', s: 0, how: 'phonetic' },
      { a: 'omar', b: 'amor', s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'alphabet-edits',
    title: 'One alphabet, letters as letters',
    what: 'Two words read from one alphabet that writes every letter more than ALPHABET_MAX_EDITS edits apart are other names (Golubeva / Glebova), where two may be a variant (Vukic / Vucic).',
    source: NAME_PRACTICE,
    examples: [
      {
        a: { text: 'golubeva', translit: 'alphabet' },
        b: { text: 'glebova', translit: 'alphabet' },
        s: 0,
        how: 'phonetic',
      },
      {
        a: { text: 'vukic', translit: 'alphabet' },
        b: { text: 'vucic', translit: 'alphabet' },
        s: 0.95,
        how: 'phonetic',
      },
    ],
  },
  {
    id: 'derived-endings',
    title: 'Name-forming endings',
    what: "When one side is a word the lists hold in a person's name, the same stem with a name-forming ending on one side only, or endings of two kinds (-ov, -i, -zadeh, -yan, -ovich; after MIN_STEM letters) is two names: Ahmad / Ahmadov, Azad / Azadi (derivedApart). Only a stem that is a name itself makes a second name: a stem the lists hold in no person's name is the derived name with its last letters lost (Hanaf / Hanafi).",
    source: NAME_PRACTICE,
    examples: [
      { a: { text: 'ahmad', personal: true }, b: 'ahmadov', s: 0, how: 'fuzzy' },
      { a: { text: 'azad', personal: true }, b: 'azadi', s: 0, how: 'fuzzy' },
      { a: { text: 'aleksandrova', personal: true }, b: 'aleksandrovna', s: 0, how: 'fuzzy' },
      { a: 'hanaf', b: { text: 'hanafi', personal: true }, s: 0.9367, how: 'fuzzy' },
    ],
  },
  {
    id: 'particle-for-name',
    title: 'A particle is no name',
    what: "A particle (and, de, bin) against a word the lists hold in a person's name, one slip from it, between Latin letters: Ann is not and, unless both fold alike.",
    source: PRECISION,
    examples: [
      { a: { text: 'and', kind: 'particle' }, b: { text: 'ann', personal: true }, s: 0, how: 'fuzzy' },
      { a: { text: 'bin', kind: 'particle' }, b: { text: 'ben', personal: true }, s: 0, how: 'fuzzy' },
    ],
  },
  {
    id: 'under-one',
    title: 'Under one',
    what: 'Any pair that is not the same text stays under MAX_FUZZY, so an exact name always ranks first.',
    source: CALIBRATED,
    examples: [
      { a: 'abdulrahman', b: 'abdelrahman', s: 0.95, how: 'fuzzy' },
      { a: 'nasser', b: 'naser', s: 0.95, how: 'phonetic' },
    ],
  },
];
