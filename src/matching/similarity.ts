/**
 * String similarity primitives: Levenshtein distance, Jaro / Jaro-Winkler and a phonetic key
 * tuned for names that went through transliteration (vowels are unreliable across scripts,
 * Arabic and Hebrew write none, so the key is a consonant skeleton with merged classes).
 */

/** Levenshtein distance (insert, delete, substitute, each cost 1). Optional early exit above `max`. */
export function levenshtein(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (a.length < b.length) [a, b] = [b, a];
  const la = a.length;
  const lb = b.length;
  if (lb === 0) return la;
  if (la - lb > max) return max + 1;
  // Two rows in reused scratch buffers: this runs for many part pairs per query.
  if (rowA.length <= lb) {
    rowA = new Int32Array(lb * 2 + 2);
    rowB = new Int32Array(lb * 2 + 2);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  for (let i = 1; i <= la; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let v = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      if (ins < v) v = ins;
      const sub = prev[j - 1]! + cost;
      if (sub < v) v = sub;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[lb]!;
}

let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/** Jaro similarity, 0..1 (Jaro 1989; matching window floor(max/2)-1). */
export function jaro(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 1 : 1;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(la, lb) / 2) - 1);
  const aFlags = new Uint8Array(la);
  const bFlags = new Uint8Array(lb);
  let matches = 0;
  for (let i = 0; i < la; i++) {
    const lo = Math.max(0, i - window);
    const hi = Math.min(lb - 1, i + window);
    const c = a.charCodeAt(i);
    for (let j = lo; j <= hi; j++) {
      if (bFlags[j] === 0 && b.charCodeAt(j) === c) {
        aFlags[i] = 1;
        bFlags[j] = 1;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let k = 0;
  let transpositions = 0;
  for (let i = 0; i < la; i++) {
    if (aFlags[i] === 0) continue;
    while (bFlags[k] === 0) k++;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions++;
    k++;
  }
  const t = transpositions / 2;
  return (matches / la + matches / lb + (matches - t) / matches) / 3;
}

/** Jaro-Winkler (Winkler 1990): prefix scale 0.1, prefix up to 4 characters. */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  let prefix = 0;
  const max = Math.min(4, a.length, b.length);
  while (prefix < max && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  return j + prefix * 0.1 * (1 - j);
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
  const s = token;
  let out = '';
  let last = '';
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s[i]!;
    const next = s[i + 1] ?? '';
    // A doubled consonant is one sound, and the second may begin a digraph (ddzh, Ddzhamel / Djamel).
    // (Not c: Italian cch is k.)
    if (next === c && c !== 'c' && !VOWELS.has(c)) continue;
    let code = '';
    let skip = 0;
    switch (c) {
      case 'a':
      case 'e':
      case 'i':
      case 'o':
      case 'u':
      case 'y':
        if (i === 0) code = 'A';
        else {
          last = '_';
          continue;
        }
        break;
      case 'w':
        if (i === 0) code = 'F';
        else {
          last = '_';
          continue;
        }
        break;
      case 'h':
        // Digraph h (kh, sh, th...) is consumed with its consonant; a word-final h is a vowel
        // carrier that romanizations drop at will (Abdullah/Abdulla, Fatimah/Fatima).
        if (i > 0 && i === n - 1) continue;
        code = 'H';
        break;
      case 'b':
      case 'p':
        code = c === 'p' && next === 'h' ? 'F' : 'B';
        if (c === 'p' && next === 'h') skip = 1;
        break;
      case 'f':
      case 'v':
        code = 'F';
        break;
      case 'c':
        if (next === 'h') {
          code = 'J';
          skip = 1;
        } else if (next === 'k') {
          code = 'K';
          skip = 1;
        } else if (next === 'e' || next === 'i' || next === 'y') code = 'S';
        else if (next === 'z') {
          code = 'J';
          skip = 1;
        } else if (next === 's') {
          code = 'J';
          skip = 1;
        } else code = 'K';
        break;
      case 'k':
      case 'q':
      case 'g':
        if (c === 'g' && next === 'h') {
          code = 'K';
          skip = 1;
        }
        // kh and h are one sound for most romanizations of Arabic, Russian and Korean (Khaled/Haled, хва/hwa).
        else if (c === 'k' && next === 'h') {
          code = 'H';
          skip = 1;
        } else if (c === 'g' && (next === 'e' || next === 'i') && i > 0) code = 'K';
        else code = 'K';
        break;
      case 'x':
        code = i === 0 ? 'S' : 'KS';
        break;
      case 'j':
        // Word-final -ij / -yj: the й of -ий / -ый (Selenskyj), a vowel glide like a final y.
        if (i === n - 1 && i > 1 && (s[i - 1] === 'i' || s[i - 1] === 'y' || s[i - 1] === 'e')) continue;
        code = 'J';
        break;
      case 'd':
      case 't':
        if (next === 'h') {
          code = 'T';
          skip = 1;
        } else if (c === 'd' && next === 'j') {
          code = 'J';
          skip = 1;
        } else if (c === 'd' && next === 'z' && s[i + 2] === 'h') {
          code = 'J';
          skip = 2;
        } else if (c === 't' && next === 's' && s[i + 2] === 'c' && s[i + 3] === 'h') {
          code = 'J';
          skip = 3;
        } else if (c === 't' && next === 'c' && s[i + 2] === 'h') {
          code = 'J';
          skip = 2;
        } else if (c === 't' && (next === 's' || next === 'z')) {
          code = 'S';
          skip = 1;
        } else code = 'T';
        break;
      case 's':
        if (next === 'h') {
          code = 'X';
          skip = 1;
        } else if (next === 'c' && s[i + 2] === 'h') {
          code = 'X';
          skip = 2;
        } else if (next === 'z') {
          code = 'X';
          skip = 1;
        } else code = 'S';
        break;
      case 'z':
        if (next === 'h') {
          code = 'J';
          skip = 1;
        } else code = 'S';
        break;
      case 'l':
        code = 'L';
        break;
      case 'm':
        code = 'M';
        break;
      case 'n':
        code = 'N';
        break;
      case 'r':
        code = 'R';
        break;
      default:
        if (c >= '0' && c <= '9') code = c;
        else continue;
    }
    i += skip;
    if (code !== last) out += code;
    last = code;
  }
  return out;
}

/**
 * A spelling skeleton that keeps vowels but folds the spellings romanization systems disagree on:
 * kh/h, gh/g, dh/d, th/t, ph/f, x/ks, zh/dzh/dj/j, sch/sz/sh, tch/tsch/tsj/cz/ch (German, Dutch, Polish), ck/c/q/k, w/v, y/i, ou/oo/u, ee/i, ay/ei/ae/ai,
 * doubled letters and a word-final h. Two parts with the same phonetic key and the same fold are
 * one name in two spellings (Yehya/Iehia, Saeed/Said, Khamavandi/Hamawandi, Dzho/Jo).
 */
export function spellingFold(token: string): string {
  let s = token
    // Doubled consonants first, so that a digraph after one is still read as a digraph (Ddzhamel / Djamel).
    // (Doubled vowels are digraphs themselves: ee, oo.)
    .replace(/([^aeiouy])\1+/g, '$1')
    // Cyrillic е first in a name is ye in English romanization, e in others (Yevgeniy / Evgeny, Yegor /
    // Egor, Yelena / Elena), ie in some (Iehia / Yehya).
    .replace(/^[yi]e/, 'e')
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
  s = s.replace(/(.)\1+/g, '$1');
  if (s.length > 3 && s.endsWith('h')) s = s.slice(0, -1);
  return s;
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
  let f = koreanFolds.get(t);
  if (f === undefined) {
    // A Hangul query meets the same listed parts name after name: folds are kept (bounded).
    if (koreanFolds.size >= 100_000) koreanFolds.clear();
    f = foldKorean(t);
    koreanFolds.set(t, f);
  }
  return f;
}
const koreanFolds = new Map<string, string>();

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
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}
