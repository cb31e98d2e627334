/**
 * String similarity primitives: Levenshtein distance, Jaro / Jaro-Winkler and a phonetic key
 * tuned for names that went through transliteration (vowels are unreliable across scripts,
 * Arabic and Hebrew write none, so the key is a consonant skeleton with merged classes).
 */
import { remembering } from './remembered.js';

/** Levenshtein distance (insert, delete, substitute, each cost 1). Optional early exit above `max`. */
export function levenshtein(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (a.length < b.length) [a, b] = [b, a];
  const lengthA = a.length;
  const lengthB = b.length;
  if (lengthB === 0) return lengthA;
  if (lengthA - lengthB > max) return max + 1;
  // Two rows in reused scratch buffers: this runs for many part pairs per query.
  if (rowA.length <= lengthB) {
    rowA = new Int32Array(lengthB * 2 + 2);
    rowB = new Int32Array(lengthB * 2 + 2);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= lengthB; j++) prev[j] = j;
  for (let i = 1; i <= lengthA; i++) {
    cur[0] = i;
    let rowMin = i;
    const codeA = a.charCodeAt(i - 1);
    for (let j = 1; j <= lengthB; j++) {
      const cost = codeA === b.charCodeAt(j - 1) ? 0 : 1;
      let best = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      if (ins < best) best = ins;
      const sub = prev[j - 1]! + cost;
      if (sub < best) best = sub;
      cur[j] = best;
      if (best < rowMin) rowMin = best;
    }
    if (rowMin > max) return max + 1;
    const swap = prev;
    prev = cur;
    cur = swap;
  }
  return prev[lengthB]!;
}

let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
/** jaro's matched-letter flags, reused (cleared over the lengths in use) and grown when a word is longer. */
let flagsA = new Uint8Array(64);
let flagsB = new Uint8Array(64);

/** Jaro similarity, 0..1 (Jaro 1989; matching window floor(max/2)-1). */
export function jaro(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 1 : 1;
  const lengthA = a.length;
  const lengthB = b.length;
  if (lengthA === 0 || lengthB === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(lengthA, lengthB) / 2) - 1);
  if (flagsA.length < lengthA) flagsA = new Uint8Array(lengthA * 2);
  if (flagsB.length < lengthB) flagsB = new Uint8Array(lengthB * 2);
  const aFlags = flagsA.fill(0, 0, lengthA);
  const bFlags = flagsB.fill(0, 0, lengthB);
  let matches = 0;
  for (let i = 0; i < lengthA; i++) {
    const windowStart = Math.max(0, i - window);
    const windowEnd = Math.min(lengthB - 1, i + window);
    const code = a.charCodeAt(i);
    for (let j = windowStart; j <= windowEnd; j++) {
      if (bFlags[j] === 0 && b.charCodeAt(j) === code) {
        aFlags[i] = 1;
        bFlags[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let matchedAt = 0;
  let transpositions = 0;
  for (let i = 0; i < lengthA; i++) {
    if (aFlags[i] === 0) continue;
    while (bFlags[matchedAt] === 0) matchedAt++;
    if (a.charCodeAt(i) !== b.charCodeAt(matchedAt)) transpositions++;
    matchedAt++;
  }
  const halfTranspositions = transpositions / 2;
  return (matches / lengthA + matches / lengthB + (matches - halfTranspositions) / matches) / 3;
}

/** Jaro-Winkler (Winkler 1990): prefix scale 0.1, prefix up to 4 characters. */
export function jaroWinkler(a: string, b: string): number {
  const jaroScore = jaro(a, b);
  let prefix = 0;
  const max = Math.min(4, a.length, b.length);
  while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return jaroScore + prefix * 0.1 * (1 - jaroScore);
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);

/**
 * Phonetic key of one Latin-lowercase name part. Consonant classes merge the letters that
 * transliteration systems swap (q/k/g/c, t/d/th/dh, s/z/ts/x, f/v/w/ph, b/p, j/zh/dj/dzh/ch...),
 * doubled letters collapse, vowels (and mid-word w/y/h, which are vowel carriers in Arabic,
 * Persian and Hebrew romanizations) are dropped; a leading vowel becomes 'A'.
 * Mohammed/Muhammad/Mohamad -> MHMT, Usama/Osama -> ASM, Qaddafi/Gaddafi/Kadhafi -> KTF.
 */
export function phoneticKey(token: string): string {
  let out = '';
  let last = '';
  for (let i = 0; i < token.length; i++) {
    const letter = token[i]!;
    // A doubled consonant is one sound, and the second may begin a digraph (ddzh, Ddzhamel / Djamel).
    // (Not c: Italian cch is k.)
    if (token[i + 1] === letter && letter !== 'c' && !VOWELS.has(letter)) continue;
    digraphRest = 0;
    const code = letterCode(token, i);
    if (code === DROPPED) continue;
    if (code === VOWEL_GAP) {
      last = VOWEL_GAP;
      continue;
    }
    i += digraphRest;
    if (code !== last) out += code;
    last = code;
  }
  return out;
}

/** letterCode's answer for a letter that leaves no trace (a final h, a final glide j, punctuation). */
const DROPPED = '';
/** letterCode's answer for a vowel or a vowel carrier inside a word: no code, but it parts consonants. */
const VOWEL_GAP = '_';
/** How many letters after the current one the last letterCode read as its digraph (kh, tsch...). */
let digraphRest = 0;

/** The consonant class of the letter at `i` of a name part (phoneticKey), setting digraphRest. */
function letterCode(part: string, i: number): string {
  const letter = part[i]!;
  switch (letter) {
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u':
    case 'y':
      return i === 0 ? 'A' : VOWEL_GAP;
    case 'w':
      return i === 0 ? 'F' : VOWEL_GAP;
    case 'h':
      // Digraph h (kh, sh, th...) is consumed with its consonant; a word-final h is a vowel
      // carrier that romanizations drop at will (Abdullah/Abdulla, Fatimah/Fatima).
      return i > 0 && i === part.length - 1 ? DROPPED : 'H';
    case 'b':
    case 'p':
      return letter === 'p' && part[i + 1] === 'h' ? digraph(1, 'F') : 'B';
    case 'f':
    case 'v':
      return 'F';
    case 'c':
      return cCode(part, i);
    case 'k':
    case 'q':
    case 'g':
      return velarCode(part, i);
    case 'x':
      return i === 0 ? 'S' : 'KS';
    case 'j':
      // Word-final -ij / -yj: the й of -ий / -ый (Selenskyj), a vowel glide like a final y.
      if (i === part.length - 1 && i > 1 && (part[i - 1] === 'i' || part[i - 1] === 'y' || part[i - 1] === 'e'))
        return DROPPED;
      return 'J';
    case 'd':
    case 't':
      return dentalCode(part, i);
    case 's':
      return sibilantCode(part, i);
    case 'z':
      return part[i + 1] === 'h' ? digraph(1, 'J') : 'S';
    case 'l':
    case 'm':
    case 'n':
    case 'r':
      return letter.toUpperCase();
    default:
      return letter >= '0' && letter <= '9' ? letter : DROPPED;
  }
}

/** The code of a digraph whose first letter is the current one, `rest` letters more. */
function digraph(rest: number, code: string): string {
  digraphRest = rest;
  return code;
}

/** c: ch, cz and cs are J, ck is K, c before e, i, y is S, else K. */
function cCode(part: string, i: number): string {
  const next = part[i + 1];
  if (next === 'h') return digraph(1, 'J');
  if (next === 'k') return digraph(1, 'K');
  if (next === 'e' || next === 'i' || next === 'y') return 'S';
  if (next === 'z' || next === 's') return digraph(1, 'J');
  return 'K';
}

/** k, q, g: gh is K; kh and h are one sound for most romanizations of Arabic, Russian and Korean. */
function velarCode(part: string, i: number): string {
  const letter = part[i];
  const next = part[i + 1];
  if (letter === 'g' && next === 'h') return digraph(1, 'K');
  // (Khaled/Haled, хва/hwa.)
  if (letter === 'k' && next === 'h') return digraph(1, 'H');
  return 'K';
}

/** d, t: th/dh is T; dj, dzh, tsch, tch are J; ts, tz are S; else T. */
function dentalCode(part: string, i: number): string {
  const letter = part[i];
  const next = part[i + 1];
  if (next === 'h') return digraph(1, 'T');
  if (letter === 'd' && next === 'j') return digraph(1, 'J');
  if (letter === 'd' && next === 'z' && part[i + 2] === 'h') return digraph(2, 'J');
  if (letter === 't' && next === 's' && part[i + 2] === 'c' && part[i + 3] === 'h') return digraph(3, 'J');
  if (letter === 't' && next === 'c' && part[i + 2] === 'h') return digraph(2, 'J');
  if (letter === 't' && (next === 's' || next === 'z')) return digraph(1, 'S');
  return 'T';
}

/** s: sh, sch, sz are X; else S. */
function sibilantCode(part: string, i: number): string {
  const next = part[i + 1];
  if (next === 'h') return digraph(1, 'X');
  if (next === 'c' && part[i + 2] === 'h') return digraph(2, 'X');
  if (next === 'z') return digraph(1, 'X');
  return 'S';
}

/** spellingFold of a particle or of two listed words joined, remembered. */
export const rememberedFold = remembering(spellingFold);

/**
 * A spelling skeleton that keeps vowels but folds the spellings romanization systems disagree on:
 * kh/h, gh/g, dh/d, th/t, ph/f, x/ks, zh/dzh/dj/j, sch/sz/sh, tch/tsch/tsj/cz/ch (German, Dutch, Polish), ck/c/q/k, w/v, y/i, ou/oo/u, ee/i, ay/ei/ae/ai,
 * doubled letters and a word-final h. Two parts with the same phonetic key and the same fold are
 * one name in two spellings (Yehya/Iehia, Saeed/Said, Khamavandi/Hamawandi, Dzho/Jo).
 */
export function spellingFold(token: string): string {
  let folded = token
    // Doubled consonants first, so that a digraph after one is still read as a digraph (Ddzhamel / Djamel).
    // (Doubled vowels are digraphs themselves: ee, oo.)
    .replace(/([^aeiouy])\1+/g, '$1')
    // Cyrillic е first in a name is ye in English romanization, e in others (Yevgeniy / Evgeny, Yegor /
    // Egor, Yelena / Elena), ie in some (Iehia / Yehya).
    .replace(/^[yi]e/, 'e')
    // Cyrillic ё is written е in print, and е is e in romanization: yo after a consonant or first in a
    // name comes back as e (Fyodor / Fedor, Pyotr / Petr, Semyon / Semen; Korean Kyong / Кён / Ken).
    .replace(/(^|[bcdfghjklmnprstvz])yo(?![ou])/g, '$1e')
    // Cyrillic й after i/y at the end (-ий, -ый) is j in German, Polish and Czech romanization, y in English (Selenskyj / Zelenskyy).
    .replace(/([iy])j$/, '$1')
    // ...and after e, ей (Sergej / Sergey, Aleksej / Alexey).
    .replace(/ej$/, 'ei')
    // kh before the other h digraphs: Cyrillic writes a Latin h as х (kh), so Latin dh, gh, ph, th come
    // back from Cyrillic as dkh, gkh, pkh, tkh (Кадхафи Kadkhafi / Qadhafi, Джосепх / Joseph).
    .replace(/kh/g, 'h')
    // x is ks (Maxim / Maksim, Xiaoming / Ksiaoming as Cyrillic writes it).
    .replace(/x/g, 'ks')
    .replace(/tsch|tsj|cz/g, 'ch')
    .replace(/sz/g, 'sh')
    .replace(/dzh|dj|zh/g, 'j')
    .replace(/sch/g, 'sh')
    .replace(/tch/g, 'ch')
    .replace(/([gdtp])h/g, (_m, c: string) => (c === 'p' ? 'f' : c))
    .replace(/ck|q|c(?!h)/g, 'k')
    .replace(/w/g, 'v')
    .replace(/y/g, 'i')
    .replace(/ou|oo/g, 'u')
    .replace(/ee|ie|ii/g, 'i')
    .replace(/ay|ei|ae/g, 'ai');
  folded = folded.replace(/(.)\1+/g, '$1');
  if (folded.length > 3 && folded.endsWith('h')) folded = folded.slice(0, -1);
  return folded;
}

/**
 * One Korean name in the romanizations lists and customers use, reduced to what they agree on:
 * McCune-Reischauer without its breves (ŏ, ŭ as o, u), Revised Romanization (eo, eu, g, d, b, j) and
 * the popular spellings (Sung, Hyun, Lee, Shin, Choi): voiced and plain consonants as one, the
 * vowels o and u (and eo, eu, oo) as one, oi as oe, the English r of Park (never a Korean sound before a consonant) dropped, doubled letters single, an initial r or l before i or y dropped
 * (Ri, Li, Yi and I; Ryong and Yong).
 */
export function koreanFold(t: string, fromHangul = false): string {
  // No syllable of a romanization ends in -eou: Seou is Seo-u (서우), two syllables. A part read from
  // Hangul that ends in -ou is two syllables too (서우 sou), where a romanization writes one (Sou,
  // the French spelling of 수 Su): the fold keeps them apart.
  if (fromHangul && t.endsWith('ou') && !t.endsWith('eou')) return koreanFold(t.slice(0, -2) + 'o') + '.o';
  return rememberedKoreanFold(t);
}
// A Hangul query meets the same listed parts name after name: folds are kept (bounded).
const rememberedKoreanFold = remembering(foldKorean);

function foldKorean(t: string): string {
  return t
    .replace(/eou$/, 'eo.u')
    .replace(/^[rl](?=[iy])/, '')
    .replace(/^yi/, 'i')
    .replace(/ee/g, 'i')
    .replace(/([aeiou])r(?=[^aeiouy]|$)/g, '$1')
    .replace(/oi/g, 'oe')
    .replace(/eo|eu|oo|u/g, 'o')
    .replace(/sh/g, 's')
    .replace(/g/g, 'k')
    .replace(/b/g, 'p')
    .replace(/d/g, 't')
    .replace(/j/g, 'ch')
    .replace(/l/g, 'r')
    .replace(/(.)\1+/g, '$1');
}

/** At most one slip apart: a letter dropped, added or replaced, or two neighbouring letters swapped. */
export function withinOneSlip(a: string, b: string): boolean {
  return levenshtein(a, b, 1) <= 1 || isTransposition(a, b);
}

/** True when b is a with two neighbouring letters swapped (one slip, though Levenshtein counts two). */
export function isTransposition(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let at = 0;
  while (at < a.length && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at + 1 < a.length && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}
