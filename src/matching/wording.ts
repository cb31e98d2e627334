/**
 * English wording for explanations: the indefinite article by the sound that follows, not the letter
 * ("a variation name", "an alias", "a user", "an hour", "an fka name" read as letters).
 */

// Words spelt with a vowel that begin with a consonant sound (you-, wu-).
const VOWEL_LETTER_CONSONANT_SOUND = /^(uni|unanim|use|usu|uti|ure|uro|eu|ewe|one\b|once\b|ouija)/;
// Words spelt with an h that is not sounded.
const SILENT_H = /^(hour|honest|honou?r|heir)/;
// Letters whose spoken name begins with a vowel sound: a, e, f (eff), h (aitch), i, l (ell), m (em),
// n (en), o, r (ar), s (ess), x (ex).
const VOWEL_SOUND_LETTERS = new Set([...'aefhilmnorsx']);
/** Abbreviations read letter by letter in explanations (kinds of names, entity types). */
const READ_AS_LETTERS = new Set(['fka', 'nka', 'aka', 'imo', 'un', 'uk', 'us', 'eu', 'llc', 'jsc']);

export function indefiniteArticle(phrase: string): 'a' | 'an' {
  const first = phrase.trim().split(/\s+/)[0] ?? '';
  const word = first.toLowerCase();
  if (word.length === 0) return 'a';
  const initial = word[0]!;
  // An abbreviation (written in capitals, or a known one) is read by its letters.
  if (READ_AS_LETTERS.has(word) || (first.length > 1 && first === first.toUpperCase() && /^[A-Z]+$/.test(first))) {
    return VOWEL_SOUND_LETTERS.has(initial) ? 'an' : 'a';
  }
  if (SILENT_H.test(word)) return 'an';
  if (VOWEL_LETTER_CONSONANT_SOUND.test(word)) return 'a';
  return 'aeiou'.includes(initial) ? 'an' : 'a';
}

/** The phrase with its indefinite article: "a variation name", "an alias". */
export function withArticle(phrase: string): string {
  return `${indefiniteArticle(phrase)} ${phrase}`;
}
