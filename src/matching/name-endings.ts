/**
 * Word shapes partSimilarity reads by their letters: derived names (a stem and an ending that makes
 * another name of it), inflections of one stem, and the letters two words share (farApart).
 */
import { SCORING } from './scoring-table.js';

const letterCounts = new Int32Array(128);

/**
 * True when two words of Latin letters share too few letters for Jaro-Winkler to reach 0.9 or the
 * edit distance to be 2 or less. With c letters in common (as multisets), Jaro is at most
 * (c/la + c/lb + 1) / 3 and Jaro-Winkler at most 0.6 Jaro + 0.4, so 0.9 needs c/la + c/lb >= 1.5;
 * and the edit distance is at least max(la, lb) - c.
 */
export function farApart(a: string, b: string): boolean {
  const lengthA = a.length;
  const lengthB = b.length;
  for (let i = 0; i < lengthA; i++) letterCounts[a.charCodeAt(i)]!++;
  let common = 0;
  for (let i = 0; i < lengthB; i++) {
    const code = b.charCodeAt(i);
    if (letterCounts[code]! > 0) {
      letterCounts[code]!--;
      common++;
    }
  }
  for (let i = 0; i < lengthA; i++) letterCounts[a.charCodeAt(i)] = 0;
  return common / lengthA + common / lengthB < 1.5 - 1e-9 && Math.max(lengthA, lengthB) - common > 2;
}
/**
 * Endings that make one name of another, by what they make: a surname (Russian and Central Asian
 * -ov/-ev, feminine -ova/-eva; Persian and Arabic -i, Azadi of Azad; -zadeh, -pour; Armenian -yan) or
 * a patronymic (-ovich, -ovna). The same stem with endings of two kinds, or with one and without, is
 * two names (Ahmad / Ahmadov, Azad / Azadi, Muhammadov / Muhammadi, Aleksandrova the surname /
 * Aleksandrovna the patronymic), not one name misspelt: a slip does not change what a name is.
 * (-ov and -ova are one surname, a man's and a woman's: see inflected.)
 */
type Derived = 'slavic' | 'nisba' | 'zadeh' | 'pour' | 'armenian' | 'patronymic';
const NISBA: Derived = 'nisba';
const DERIVED_ENDINGS: readonly (readonly [string, Derived])[] = [
  ['ov', 'slavic'],
  ['ova', 'slavic'],
  ['ev', 'slavic'],
  ['eva', 'slavic'],
  ['yev', 'slavic'],
  ['yeva', 'slavic'],
  ['iev', 'slavic'],
  ['ieva', 'slavic'],
  ['i', NISBA],
  ['zadeh', 'zadeh'],
  ['zada', 'zadeh'],
  ['pour', 'pour'],
  ['yan', 'armenian'],
  ['ian', 'armenian'],
  ['ovich', 'patronymic'],
  ['evich', 'patronymic'],
  ['ovna', 'patronymic'],
  ['evna', 'patronymic'],
];
const MIN_STEM = SCORING.MIN_STEM.value;
/** The -i of a nisba follows a consonant (Rahimi, Azadi; not Nikolai of Nikola, nor Abdullahi of Abdullah). */
const NISBA_STEM = /[bcdfgjklmnpqrstvxz]$/;

/** `a` is `b`'s stem with an ending of DERIVED_ENDINGS, or both are one stem with endings of two kinds. */
export function derivedApart(a: string, b: string, nisba = true): boolean {
  return endingsDiffer(a, b, nisba) || endingsDiffer(b, a, nisba);
}

function endingsDiffer(a: string, b: string, nisba: boolean): boolean {
  for (const [endingA, kindA] of DERIVED_ENDINGS) {
    if (!a.endsWith(endingA)) continue;
    const stem = a.slice(0, a.length - endingA.length);
    if (stem.length < MIN_STEM || !b.startsWith(stem)) continue;
    if (kindA === NISBA && (!nisba || !NISBA_STEM.test(stem))) continue;
    if (b.length === stem.length) return true;
    for (const [endingB, kindB] of DERIVED_ENDINGS)
      if (
        kindB !== kindA &&
        b.length === stem.length + endingB.length &&
        b.endsWith(endingB) &&
        (kindB !== NISBA || (nisba && NISBA_STEM.test(stem)))
      )
        return true;
  }
  return false;
}

/**
 * The side that is the other's bare stem, when one is the other with a name-forming ending added
 * (Azad of Azadi, Qadhaf of Qadhafi); undefined otherwise (endings of two kinds, or none).
 */
export function bareStem(a: string, b: string, nisba = true): string | undefined {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (!long.startsWith(short) || short.length < MIN_STEM) return undefined;
  const ending = long.slice(short.length);
  for (const [derived, kind] of DERIVED_ENDINGS)
    if (derived === ending) return kind === NISBA && (!nisba || !NISBA_STEM.test(short)) ? undefined : short;
  return undefined;
}

const VOWEL_END = /[aeo]$/;

/** Another inflection of one stem (Antonio / Antonia, Martin / Martina): see partSimilarity. */
export function inflected(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.length === short.length + 1 && long.startsWith(short)) return long.endsWith('a');
  return long.length === short.length && VOWEL_END.test(a) && VOWEL_END.test(b) && a.slice(0, -1) === b.slice(0, -1);
}
