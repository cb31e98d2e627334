/**
 * Readers of the scripts transliterate.ts reads letter by letter or syllable by syllable: Hangul
 * syllables, Devanagari runs, Khmer syllables, Ethiopic characters; and the pair tables of
 * transliterate.ts are written with `table`.
 */

export const isEthiopic = (c: number): boolean => c >= 0x1200 && c <= 0x137f;
export const isDevanagari = (c: number): boolean => c >= 0x0900 && c <= 0x097f;

export function table(pairs: string): Map<string, string> {
  const readings = new Map<string, string>();
  for (const entry of pairs.trim().split(/\s+/)) {
    const equals = entry.indexOf('=');
    readings.set(entry.slice(0, equals), entry.slice(equals + 1));
  }
  return readings;
}

const HANGUL_INITIAL = [
  'k',
  'kk',
  'n',
  'd',
  'tt',
  'r',
  'm',
  'b',
  'pp',
  's',
  'ss',
  '',
  'j',
  'jj',
  'ch',
  'k',
  't',
  'p',
  'h',
];
const HANGUL_MEDIAL = [
  'a',
  'ae',
  'ya',
  'yae',
  'o',
  'e',
  'yo',
  'ye',
  'o',
  'wa',
  'wae',
  'oe',
  'yo',
  'u',
  'wo',
  'we',
  'wi',
  'yu',
  'u',
  'ui',
  'i',
];
const HANGUL_FINAL = [
  '',
  'k',
  'k',
  'k',
  'n',
  'n',
  'n',
  't',
  'l',
  'k',
  'm',
  'l',
  'l',
  'l',
  'p',
  'l',
  'm',
  'p',
  'p',
  't',
  't',
  'ng',
  't',
  't',
  'k',
  't',
  'p',
  't',
];

export function hangulSyllable(code: number): string {
  const syllable = code - 0xac00;
  const initial = Math.floor(syllable / 588);
  const medial = Math.floor((syllable % 588) / 28);
  const final = syllable % 28;
  return (HANGUL_INITIAL[initial] ?? '') + (HANGUL_MEDIAL[medial] ?? '') + (HANGUL_FINAL[final] ?? '');
}

// Devanagari (Hindi, Marathi, Nepali), Hunterian-like as Indian names are written in Latin. ङ, the
// velar nasal, is ng as names write it (गुरुङ Gurung, तामाङ Tamang).
const DEVA_CONSONANTS = table(`
क=k ख=kh ग=g घ=gh ङ=ng च=ch छ=chh ज=j झ=jh ञ=n ट=t ठ=th ड=d ढ=dh ण=n त=t थ=th द=d ध=dh न=n प=p फ=ph ब=b भ=bh
म=m य=y र=r ल=l व=v श=sh ष=sh स=s ह=h ळ=l क़=q ख़=kh ग़=gh ज़=z ड़=r ढ़=rh फ़=f य़=y
`);
const DEVA_VOWELS = table(`
अ=a आ=a इ=i ई=i उ=u ऊ=u ऋ=ri ए=e ऐ=ai ओ=o औ=au ऑ=o
`);
const DEVA_SIGNS = table(`
ा=a ि=i ी=i ु=u ू=u ृ=ri े=e ै=ai ो=o ौ=au ॉ=o
`);
/** Consonant + nukta: the Perso-Arabic sounds (क़ = q, ज़ = z, फ़ = f). */
const NUKTA = new Map([
  ['k', 'q'],
  ['g', 'gh'],
  ['j', 'z'],
  ['d', 'r'],
  ['dh', 'rh'],
  ['ph', 'f'],
]);

/**
 * A run of Devanagari letters: consonants carry an inherent "a" unless a vowel sign or the virama
 * follows; the inherent "a" of a word's last consonant is not pronounced in Hindi (पुतिन = putin)
 * unless it closes a conjunct (नरेन्द्र = narendra).
 */
export function devanagari(chars: string[], start: number): [string, number] {
  let out = '';
  let at = start;
  let prevVirama = false;
  while (at < chars.length) {
    const char = chars[at]!;
    const code = char.codePointAt(0)!;
    if (!isDevanagari(code)) break;
    let cons = DEVA_CONSONANTS.get(char);
    if (cons !== undefined) {
      let after = at + 1;
      if (chars[after] === '\u093c') {
        cons = NUKTA.get(cons) ?? cons;
        after++;
      }
      const next = chars[after] ?? '';
      const nextCode = next.codePointAt(0) ?? 0;
      const conjunct = prevVirama;
      out += cons;
      prevVirama = false;
      if (next === '\u094d') {
        prevVirama = true;
        after++;
      } else if (DEVA_SIGNS.has(next)) {
        out += DEVA_SIGNS.get(next)!;
        after++;
      } else if (isDevanagari(nextCode) && next !== '\u0902' && next !== '\u0901' && next !== '\u0903') out += 'a';
      else if (next === '\u0902' || next === '\u0901' || next === '\u0903') out += 'a';
      else if (conjunct) out += 'a';
      at = after;
      continue;
    }
    prevVirama = false;
    const vowel = DEVA_VOWELS.get(char);
    if (vowel !== undefined) out += vowel;
    else if (char === '\u0902' || char === '\u0901') out += 'n';
    else if (char === '\u0903') out += 'h';
    at++;
  }
  return [out, at - 1];
}

/** Khmer consonants whose inherent vowel is o (the "o series"); the others' is a. */
const KHMER_O_SERIES = new Set('គឃងជឈញឌឍទធនពភមយរលវ');
const isKhmerConsonant = (ch: string | undefined): boolean => ch !== undefined && ch >= '\u1780' && ch <= '\u17a2';

/**
 * Khmer is written in syllables whose vowel a consonant carries unwritten: a consonant followed by
 * another with no vowel sign between is read with its inherent vowel (ពត pot, ផន phan), which
 * any-ascii leaves out. The musikatoan turns ប into p (ប៉ុល Pol) and a consonant into the a series;
 * the triisap turns one into the o series. Other runs pass through as they are.
 */
export function readKhmer(run: string[]): string {
  if (!run.some((ch) => isKhmerConsonant(ch))) return run.join('');
  let out = '';
  for (let k = 0; k < run.length; k++) {
    const char = run[k]!;
    if (!isKhmerConsonant(char) || run[k - 1] === '\u17d2') {
      out += char;
      continue;
    }
    let series = KHMER_O_SERIES.has(char) ? 'o' : 'a';
    let letter = char;
    let next = k + 1;
    if (run[next] === '\u17c9') {
      series = 'a';
      if (char === 'ប') letter = 'p';
      next++;
    } else if (run[next] === '\u17ca') {
      series = 'o';
      next++;
    }
    out += letter;
    if (isKhmerConsonant(run[next])) out += series;
    else
      out += run
        .slice(k + 1, next)
        .filter((m) => m !== '\u17c9' && m !== '\u17ca')
        .join('');
    k = next - 1;
  }
  return out;
}

// Ethiopic (Ge'ez script: Amharic, Tigrinya): each character is a consonant (rows of eight from
// U+1200) in one of seven vowel orders. Consonants as lists romanize them; the glottal and pharyngeal
// carriers (አ, ዐ) write only their vowel. A row marked with "w" is labialized (ቈ qwe).
const ETHIOPIC_ROWS =
  'h l h m s r s sh q qw q qw b v t ch h hw n ny - k kw h hw w - z zh y d d j g gw g t ch p ts ts f p'.split(' ');
// Orders: first (ä) e, second u, third i, fourth a, fifth e, sixth (ə, mostly unwritten), seventh o, eighth wa.
const ETHIOPIC_VOWELS = ['e', 'u', 'i', 'a', 'e', '', 'o', 'wa'];

export function ethiopic(code: number): string {
  if (code >= 0x1360) return code > 0x1368 ? '' : ' '; // word space and punctuation separate; numerals are dropped
  const consonant = ETHIOPIC_ROWS[(code - 0x1200) >> 3];
  if (consonant === undefined) return '';
  const vowel = ETHIOPIC_VOWELS[code & 7]!;
  if (consonant === '-') return vowel === 'e' && (code & 7) === 0 ? 'a' : vowel === '' ? '' : vowel;
  return consonant + vowel;
}
