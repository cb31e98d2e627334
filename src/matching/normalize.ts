/**
 * Name normalization: Unicode NFKC, case folding, transliteration to Latin, diacritics, punctuation,
 * then the split into name parts with what each part is (word, number, legal form, particle,
 * patronymic, initial). Honorifics and titles are dropped; legal forms in any language are
 * replaced by one canonical symbol each.
 */
import { legalSymbol, readLegalForms } from './legal-forms.js';
import {
  FEMALE_PATRONYMIC,
  HONORIFICS,
  isRoleTitle,
  NUMBER_WORDS,
  PARTICLES,
  ROMAN,
  ROMAN_LETTER,
  deLeet,
  isPatronymicForm,
  splitLettersDigits,
} from './name-structure.js';
import { readRussianRomanization } from './russian-romanization.js';
import { hasHan, inOtherScript, transliterate } from './transliterate.js';

export type Translit = 'abjad' | 'han' | 'hangul' | 'alphabet' | 'vietnamese';

export type PartKind = 'word' | 'number' | 'legal' | 'particle' | 'patronymic' | 'initial';

export interface NamePart {
  /** Normalized Latin text of the part (for legal forms: the canonical symbol, e.g. `@llc`). */
  text: string;
  kind: PartKind;
  /**
   * The part was transliterated from a non-Latin script: `abjad` for scripts that leave short vowels
   * unwritten (Arabic, Persian, Urdu, Hebrew), where the consonant skeleton is all the evidence
   * there is; `han` for Chinese characters, read syllable by syllable into Pinyin, where a syllable
   * read otherwise is another character, not a slip; `hangul` for Korean, written syllable block by
   * block with every vowel (a one-syllable family name, then mostly two syllables of given name), where
   * the romanizations differ by a letter or two (Pak / Park, Jong / Jung) but a syllable with other
   * letters is another name; `alphabet` for the others (vowels written,
   * consonant classes still guessed). And `vietnamese`, though Vietnamese is written in Latin
   * letters: a name written with its marks (ư, ơ, ệ, ả) is made of one-syllable words from a small
   * pool (Thanh, Than, Tuan, Tun), where a syllable written otherwise is another name, as for `han`.
   */
  translit?: Translit;
}

const DIGIT = /\d/;

/** NFKC, case fold, transliterate, strip diacritics and special letters; punctuation kept for splitting. */
export function foldText(input: string): string {
  // Plain ASCII (most listed names) needs case folding only.
  if (ASCII.test(input)) return input.toLowerCase().replace(APOSTROPHES, '');
  // Zero-width (non-)joiners only shape letters inside one word (Persian writes پزشک‌فر, Pezeshkfar,
  // with one): removed, not read as a space.
  let folded = input.normalize('NFKC').toLowerCase().replace(ZERO_WIDTH, '');
  folded = transliterate(folded);
  folded = folded.normalize('NFD').replace(/\p{M}/gu, '');
  // Letters that do not decompose.
  return folded.replace(SPECIAL_LETTERS, (c) => SPECIAL[c] ?? '');
}

/** The folded forms of the words of at most three Latin letters that a name writes with a diacritic. */
function shortAccented(raw: string): Set<string> {
  const words = raw
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  return new Set(words.filter((w) => w.length <= 3 && !ASCII.test(w) && !inOtherScript(w)).map(foldText));
}

/**
 * Honorifics that are also surnames: H.E. (His Excellency) stands before a name, the Chinese surname
 * He (何) after the given name ("Katrina He").
 */
const SURNAME_AFTER = new Set(['he']);

/**
 * Letters only Vietnamese writes: the horned ơ and ư, and the vowels with a tone mark that the block
 * for Vietnamese holds (ạ, ả, ấ ... ỹ); à, á, ô or đ alone are French, Spanish or Croatian too.
 */
const VIETNAMESE = /[\u01a0\u01a1\u01af\u01b0\u1ea0-\u1ef9]/;

const ASCII = /^[\x00-\x7f]*$/;
const HANGUL = /[\uac00-\ud7a3]/;
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;
const ABJAD = /[\u0590-\u05ff\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
const APOSTROPHES = /[`']/g;
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ŀ: 'l',
  ħ: 'h',
  ŧ: 't',
  ə: 'a',
};
const SPECIAL_LETTERS = /[ßæœøłđðþıŀħŧəʿʾ`´‘’']/g;

const ARABIC_LETTER = /[\u0600-\u06ff]/;
const LATIN_LETTER = /[a-z]/i;
/** Scripts whose names hold no legal form this file reads (see normalizeName). */
const NO_LATIN_FORMS = new RegExp(`${ABJAD.source}|[\\u3040-\\u30ff\\u3400-\\u9fff\\uac00-\\ud7af\\u1100-\\u11ff]`);
/** Filiation words as the Arabic table spells them (بن, ابن, بنت), read as the particles Latin lists write. */
const ARABIC_FILIATION = new Map([
  ['bn', 'bin'],
  ['abn', 'ibn'],
  ['bnt', 'bint'],
]);
/** Persian family-name endings written apart (پور -pour, زاده -zadeh): part of the word before them. */
const PERSIAN_ENDINGS = new Set(['pwr', 'zadh']);

/**
 * Name structure in Arabic script: بن / ابن / بنت are the particles bin / ibn / bint, not words to
 * match by their letters; پور and زاده written apart belong to the word before (علی زاده is Alizadeh),
 * and so does الله: it is never a name alone, but the second half of one (عبد الله is Abdullah, سيف
 * الله Saifullah, احسان اللہ Ehsanullah), whether written apart or joined.
 */
function readArabicStructure(parts: NamePart[]): void {
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part.kind !== 'word') continue;
    const filiation = ARABIC_FILIATION.get(part.text);
    if (filiation !== undefined && parts.length > 1) {
      parts[i] = { text: filiation, kind: 'particle' };
      continue;
    }
    const prev = parts[i - 1];
    if ((PERSIAN_ENDINGS.has(part.text) || part.text === 'allah') && prev?.kind === 'word') {
      prev.text += part.text;
      parts.splice(i, 1);
    }
  }
}

export interface NormalizedName {
  parts: NamePart[];
  /** The folded name with single spaces, for exact-equality shortcuts and cluster keys. */
  key: string;
}

/**
 * The name names a person by a role title before a name ("President Putin", "Mullah Omar"; see
 * isRoleTitle), a title of the kind normalizeName drops.
 */
export function namesByTitle(raw: string): boolean {
  const tokens = foldText(raw)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
  for (let i = 0; i < tokens.length - 1; i++) if (isRoleTitle(tokens[i]!)) return true;
  return false;
}

/**
 * Split a name into parts. `isPerson` turns on person-only readings (initials, patronymics,
 * "LAST, First"); for other types roman numerals count as numbers ("Solutions II"). `fragment`: the
 * text is a piece of a name (a glued word split in two, "LLC company"), not a whole one.
 */
export function normalizeName(raw: string, isPerson: boolean | undefined, fragment = false): NormalizedName {
  const reading = readTokens(raw, isPerson);
  const { tokens } = reading;
  const parts: NamePart[] = [];
  for (let i = 0; i < tokens.length; i++) addPart(reading, i, parts);
  if (!fragment && onlyLegalForms(parts)) readAbbreviatedName(reading, parts);
  // A name made only of droppable words keeps them as words (a company called "General").
  if (parts.length === 0 && tokens.length > 0) for (const token of tokens) parts.push({ text: token, kind: 'word' });
  // A name whose only distinctive part is a number ("11420 Corp") is matched on that number.
  if (!parts.some((p) => p.kind === 'word' || p.kind === 'patronymic'))
    for (const part of parts) if (part.kind === 'number') part.kind = 'word';
  markScript(raw, parts);
  return { parts, key: parts.map((p) => p.text).join(' ') };
}

/** Two legal forms or more, and no word or number beside them. */
function onlyLegalForms(parts: NamePart[]): boolean {
  let forms = 0;
  for (const part of parts) {
    if (part.kind === 'legal') forms++;
    else if (part.kind === 'word' || part.kind === 'patronymic' || part.kind === 'number') return false;
  }
  return forms >= 2;
}

/** Legal forms written before the company's name (ООО Ромашка, AO TBK, UAB, SIA). */
const FORMS_FIRST = new Set(['ooo', 'oao', 'zao', 'pao', 'ao', 'pjsc', 'ojsc', 'cjsc', 'tov', 'uab', 'sia']);

/**
 * A company's name holds one legal form. One read as legal forms and nothing else (TBK JSC, PTE OOO,
 * N.V. Co, АО “ТБК”) is the abbreviation of the company's name beside its form: only the word where
 * its form stands (last, or first for the forms written first) is read as a form, the others as
 * the words they are.
 */
function readAbbreviatedName(reading: TokenReading, parts: NamePart[]): void {
  const tokens = [...reading.rawTokens];
  const at = FORMS_FIRST.has(tokens[0]!) ? 0 : tokens.length - 1;
  const word = tokens[at]!;
  tokens[at] = readLegalForms([word]).find((t) => t.startsWith('@')) ?? legalSymbol(word) ?? word;
  const again: TokenReading = Object.assign({}, reading, { tokens, forms: false });
  parts.length = 0;
  for (let i = 0; i < tokens.length; i++) addPart(again, i, parts);
}

/** A name's tokens, with what reading them as parts needs to know (normalizeName). */
interface TokenReading {
  tokens: string[];
  /** The tokens before legal forms were read. */
  rawTokens: string[];
  isPerson: boolean | undefined;
  /** Short words written with a diacritic (names, not abbreviations of legal forms). */
  accented: Set<string> | undefined;
  /** Whether legal forms are read in this name. */
  forms: boolean;
  /** Where the comma of "LAST, First" stands; -1 without one. */
  comma: number;
  /** How many tokens stand before that comma in a person's name (its surname block). */
  surnameBlock: number;
}

function readTokens(raw: string, isPerson: boolean | undefined): TokenReading {
  let folded = foldText(raw);
  // Dotted abbreviations and legal forms written with dots ("s.a.", "d.o.o.", "p.l.c.") collapse first,
  // also when glued to the word before or after them ("ARIZONAs.a.", "D.O.O.ljubljana").
  if (folded.includes('.')) {
    folded = folded.replace(/([a-z]{3,})((?:[a-z]\.){2,})/g, '$1 $2');
    folded = folded.replace(/\b((?:[a-z]\.){2,}(?:[a-z](?![a-z]))?\.?)/g, (m) => ' ' + m.replace(/\./g, '') + ' ');
  }
  folded = folded.replace(/&/g, ' and ');
  // Everything that is not a letter or digit separates parts.
  // A number glued to the end of a word is a number ("SONG6", "Rahimi1"), for every kind of name, so
  // that both sides of a comparison read it alike.
  let rawTokens = folded.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);
  if (DIGIT.test(folded)) rawTokens = rawTokens.flatMap(splitLettersDigits);
  // (Each reading needs a w or a tch.)
  if (isPerson !== false && (folded.includes('w') || folded.includes('tch')))
    rawTokens = readRussianRomanization(rawTokens);
  let tokens = rawTokens;
  // A short word written with a diacritic is a name, not the abbreviation of a legal form it folds
  // to (the Portuguese surname Sá is not S.A.): abbreviations are written without. (Legal forms are
  // read only in a name that may be an organization's.)
  const accented = isPerson === true || ASCII.test(raw) ? undefined : shortAccented(raw);
  // Legal forms are read from Latin letters (and Cyrillic, ООО): a name written only in an abjad,
  // Chinese characters or Hangul holds none of their abbreviations (פת Pat is not PT, the
  // Indonesian company).
  const forms = isPerson !== true && (LATIN_LETTER.test(raw) || !NO_LATIN_FORMS.test(raw));
  if (forms) {
    tokens = readLegalForms(rawTokens);
    if (accented && tokens.length === rawTokens.length)
      for (let i = 0; i < tokens.length; i++)
        if (tokens[i]!.startsWith('@') && accented.has(rawTokens[i]!)) tokens[i] = rawTokens[i]!;
  }
  // Titles stand before a name ("Dr Ayman", "King Abdullah", "AL-ZAWAHIRI, Dr. Ayman"): a title word
  // after the given names, or as the surname before the comma of "LAST, First", is a surname
  // ("Damon King", "John Major", "KING, Martin Luther"). Abbreviations (Dr, Gen., Sr.) are dropped
  // wherever they stand.
  const comma = folded.indexOf(',');
  const surnameBlock =
    isPerson === true &&
    comma > 0 &&
    tokens.length === folded.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0).length
      ? folded
          .slice(0, comma)
          .split(/[^\p{L}\p{N}]+/u)
          .filter((t) => t.length > 0).length
      : 0;
  return { tokens, rawTokens, isPerson, accented, forms, comma, surnameBlock };
}

/** Reads the token at `i` into `parts`: a legal form, a number, an initial, a particle, a patronymic or a word. */
function addPart(reading: TokenReading, i: number, parts: NamePart[]): void {
  const { tokens, isPerson, accented, forms, comma, surnameBlock } = reading;
  const token = tokens[i]!;
  if (token.startsWith('@')) {
    parts.push({ text: token, kind: 'legal' });
    return;
  }
  if (
    HONORIFICS.has(token) &&
    tokens.length > 1 &&
    (token.length < 4 || (i < tokens.length - 1 && i >= surnameBlock)) &&
    !(i > 0 && SURNAME_AFTER.has(token))
  )
    return;
  if (addNumber(token, parts, isPerson)) return;
  if (/\d/.test(token)) {
    parts.push({ text: token, kind: 'number' });
    return;
  }
  if (isPerson !== true) {
    const legal = accented?.has(token) || !forms ? undefined : legalSymbol(token);
    if (legal !== undefined && tokens.length > 1) {
      parts.push({ text: legal, kind: 'legal' });
      return;
    }
    const roman = ROMAN.get(token) ?? (isPerson === false ? ROMAN_LETTER.get(token) : undefined);
    // A numeral first in the name too ("XV Bicentenario" / "Bicentenario XV"), unless it may be a
    // name (Xi, Vi) or an initial.
    if (
      roman !== undefined &&
      (parts.length > 0 || (tokens.length > 1 && token.length > 1 && token !== 'xi' && token !== 'vi'))
    ) {
      parts.push({ text: roman, kind: 'number' });
      return;
    }
  }
  if (token.length === 1 && isPerson !== false) {
    parts.push({ text: token, kind: 'initial' });
    return;
  }
  if (PARTICLES.has(token)) {
    parts.push({ text: token, kind: 'particle' });
    return;
  }
  // A "son of" form first in a name, or last without a comma before it, is a surname (Milosevic,
  // Slobodan; Zvonko Veselinovic; Lukashevich; Davutoglu): a patronymic follows a given name. The
  // daughter's forms (-ovna, -kyzy) are never surnames.
  const surnamePlace = (i === 0 || (i === tokens.length - 1 && comma < 0)) && !FEMALE_PATRONYMIC.test(token);
  if (isPerson !== false && isPatronymicForm(token) && !surnamePlace) {
    parts.push({ text: token, kind: 'patronymic' });
    return;
  }
  parts.push({ text: token, kind: 'word' });
}

/** A number written in digits, with a suffix or in words ("Forty 4", "forty four", "3rd"), or a word written in leet: added, true. */
function addNumber(t: string, parts: NamePart[], isPerson: boolean | undefined): boolean {
  if (/^\d+$/.test(t)) {
    const value = Number(t);
    const prev = parts[parts.length - 1];
    // "Forty 4" -> 44
    if (
      prev?.kind === 'number' &&
      value < 10 &&
      Number(prev.text) % 10 === 0 &&
      Number(prev.text) >= 20 &&
      Number(prev.text) < 100
    )
      prev.text = String(Number(prev.text) + value);
    else parts.push({ text: String(value), kind: 'number' });
    return true;
  }
  const leet = deLeet(t);
  if (leet !== undefined) {
    parts.push({ text: leet, kind: 'word' });
    return true;
  }
  const ordinal = /^(\d+)(st|nd|rd|th)$/.exec(t);
  if (ordinal) {
    parts.push({ text: String(Number(ordinal[1])), kind: 'number' });
    return true;
  }
  const numberWord = NUMBER_WORDS.get(t);
  if (numberWord !== undefined && isPerson !== true && parts.length > 0) {
    const prev = parts[parts.length - 1];
    // "forty four" -> 44
    if (prev?.kind === 'number' && numberWord < 10 && Number(prev.text) % 10 === 0 && Number(prev.text) >= 20)
      prev.text = String(Number(prev.text) + numberWord);
    else parts.push({ text: String(numberWord), kind: 'number' });
    return true;
  }
  return false;
}

/** Marks each part with the script the name was read from (Translit), reading Arabic structure. */
function markScript(raw: string, parts: NamePart[]): void {
  const other = inOtherScript(raw);
  if (other || VIETNAMESE.test(raw)) {
    const translit: Translit = !other
      ? 'vietnamese'
      : ABJAD.test(raw)
        ? 'abjad'
        : hasHan(raw)
          ? 'han'
          : HANGUL.test(raw)
            ? 'hangul'
            : 'alphabet';
    if (translit === 'abjad' && ARABIC_LETTER.test(raw)) readArabicStructure(parts);
    for (const part of parts) {
      part.translit = translit;
      // A syllable read from Chinese characters, Hangul or Vietnamese is a name (杜 Du, 高德 Gao De,
      // Lê, Văn), never the particle of a European name it happens to spell (du, de, le, van).
      if (translit !== 'abjad' && translit !== 'alphabet' && part.kind === 'particle') part.kind = 'word';
    }
  }
}
