/**
 * What an abjad (Arabic, Persian, Urdu, Hebrew) writes of a name, read against a romanization of it:
 * the long vowels (lettersWritten) and, in a short name, every consonant (consonantsKept). Used by
 * partSimilarity and the common-name tables.
 */
import { SCORING } from './scoring-table.js';

/** Letters of a short name read from an abjad (see partSimilarity). */
export const SHORT_ABJAD = SCORING.SHORT_ABJAD.value;
const ABJAD_VOWEL = /[aeiouwy]/;

/** Every consonant of the abjad reading stands, in order, in the romanization. */
export function consonantsKept(abjad: string, latin: string): boolean {
  let latinAt = 0;
  for (let i = 0; i < abjad.length; i++) {
    const letter = abjad[i]!;
    if (ABJAD_VOWEL.test(letter)) continue;
    while (latinAt < latin.length && latin[latinAt] !== letter) latinAt++;
    if (latinAt === latin.length) return false;
    latinAt++;
  }
  return true;
}

/**
 * An abjad writes no short vowels but does write the long ones, with the letters alif (a), waw (w, o)
 * and ya (y, i, and Urdu ے e), and a final ه/ة for a final -a or -e (Amina آمنہ, not Amin). A
 * romanization of the same name has a vowel (or w/v, y) for each of them, in order: حسين (hsyn) is
 * Husayn or Hussein, not Hassan; محمدی (mhmdy) is Mohammadi, not Mohammed; عمیر (amyr) is Umair or
 * Amir, not Omar. The first letter is left out (an alif or waw there carries a vowel or is a
 * consonant), and so is a final waw (the silent one of عمرو, Amr).
 */
export function lettersWritten(abjad: string, latin: string): boolean {
  const letterCount = abjad.length;
  // (The romanization is read from its first letter: after an initial alif the waw or ya is the
  // first vowel, أوندوا Ondoa.)
  let at = 0;
  const find = (re: RegExp): boolean => {
    while (at < latin.length) if (re.test(latin[at++]!)) return true;
    return false;
  };
  for (let i = 1; i < letterCount; i++) {
    const letter = abjad[i]!;
    const last = i === letterCount - 1;
    if (letter === 'y' || letter === 'i' || letter === 'e') {
      if (!find(Y_LETTER) || (last && !Y_LETTER.test(latin[latin.length - 1]!))) return false;
    } else if (letter === 'w' || letter === 'o') {
      if (!last && !find(W_LETTER)) return false;
    } else if (letter === 'a') {
      if (!find(A_LETTER) || (last && !FINAL_VOWEL.test(latin))) return false;
    } else if (letter === 'h' && last && !DIGRAPH_FIRST.test(abjad[i - 1]!) && !FINAL_A.test(latin)) return false;
  }
  // The other way round, a romanization's final -i or -u after a consonant is a long vowel, and the
  // script writes it (کمالی Kamali, ابو Abu): کمال kmal is Kamal, not Kamali, and حمزہ hmzh Hamza, not
  // Hamcho. (Hebrew ends a few names' -o with he, שלמה Shlomo: those are left to the skeleton.)
  const end = latin.length - 1;
  if (end >= 2 && !VOWEL.test(latin[end - 1]!)) {
    if (Y_LETTER.test(latin[end]!) && latin[end] !== 'e' && !Y_LETTER.test(abjad[letterCount - 1]!)) return false;
    if ((latin[end] === 'u' || latin[end] === 'o') && !FINAL_W.test(abjad[letterCount - 1]!)) return false;
  }
  return true;
}
const VOWEL = /[aeiou]/;
const FINAL_W = /[wo]/;
const Y_LETTER = /[iey]/;
const W_LETTER = /[ouwv]/;
const A_LETTER = /[aoe]/;
const FINAL_VOWEL = /([aeiouy]h?)$/;
/** A final ه, ہ or ة after a consonant is the -a or -e of Fatima, Aisha, Fatemeh, Hamza (or the h of Allah, Shah). */
const FINAL_A = /([ae]h?|[ae]t)$/;
/** The first letters of the digraphs the tables write (sh, kh, th, dh, gh, ch, zh): their h is no final -a. */
const DIGRAPH_FIRST = /[sktdgcz]/;
