/**
 * Wade-Giles, the romanization of Mandarin in use before Pinyin (and still in Taiwan and in older
 * records): Mao Tse-tung / Mao Zedong, Hsi Chin-p'ing / Xi Jinping, Chiang Ching-kuo / Jiang Jingguo.
 * With the aspiration apostrophes lost, as lists and customers write them, one Wade-Giles syllable
 * stands for one or a few Pinyin syllables. Only syllables that Pinyin cannot spell (hs-, ts-, tz-,
 * chi- with more letters, -ih, -ieh, -ien, -ueh, -erh) mark a name as Wade-Giles; the others of the
 * same given name then follow.
 */
import { remembering } from './remembered.js';

// Wade-Giles initial -> Pinyin initials (aspirated and unaspirated fall together without the apostrophe).
const INITIALS: [string, string[]][] = [
  ['hs', ['x']],
  ['ts', ['z', 'c']],
  ['tz', ['z', 'c']],
  ['ss', ['s']],
  ['sz', ['s']],
  ['ch', ['zh', 'j', 'ch', 'q']],
  ['sh', ['sh']],
  ['p', ['b', 'p']],
  ['t', ['d', 't']],
  ['k', ['g', 'k']],
  ['j', ['r']],
  ['m', ['m']],
  ['f', ['f']],
  ['n', ['n']],
  ['l', ['l']],
  ['h', ['h']],
  ['s', ['s']],
  ['w', ['w']],
  ['y', ['y']],
  ['', ['']],
];
// Wade-Giles finals -> Pinyin finals.
const FINALS = new Map<string, string[]>([
  ['a', ['a']],
  ['ai', ['ai']],
  ['an', ['an']],
  ['ang', ['ang']],
  ['ao', ['ao']],
  ['e', ['e']],
  ['eh', ['e']],
  ['ei', ['ei']],
  ['en', ['en']],
  ['eng', ['eng']],
  ['erh', ['er']],
  ['i', ['i']],
  ['ia', ['ia']],
  ['iang', ['iang']],
  ['iao', ['iao']],
  ['ieh', ['ie']],
  ['ien', ['ian']],
  ['ih', ['i']],
  ['in', ['in']],
  ['ing', ['ing']],
  ['iu', ['iu']],
  ['iung', ['iong']],
  ['o', ['o', 'e', 'uo']],
  ['ou', ['ou']],
  ['u', ['u', 'i']],
  ['ua', ['ua']],
  ['uai', ['uai']],
  ['uan', ['uan']],
  ['uang', ['uang']],
  ['ui', ['ui']],
  ['uei', ['ui']],
  ['un', ['un']],
  ['ung', ['ong']],
  ['uo', ['uo']],
  ['ueh', ['ue']],
]);
const MARKED_FINALS = new Set(['ih', 'ieh', 'ien', 'ueh', 'erh']);

export interface WadeGiles {
  /** Pinyin spellings the syllable may stand for. */
  pinyin: string[];
  /** Pinyin cannot spell this syllable: the name is in Wade-Giles. */
  marked: boolean;
}

const rememberedReading = remembering((syllable) => read(syllable) ?? null, 50_000);

/** Read one part as a Wade-Giles syllable; undefined when it is not one. */
export function wadeGiles(syllable: string): WadeGiles | undefined {
  return rememberedReading(syllable) ?? undefined;
}

function read(s: string): WadeGiles | undefined {
  if (s.length === 0 || s.length > 6) return undefined;
  for (const [wadeInitial, pinyinInitials] of INITIALS) {
    if (!s.startsWith(wadeInitial)) continue;
    const fin = s.slice(wadeInitial.length);
    const finals = FINALS.get(fin);
    if (!finals) continue;
    // -u after a sibilant is the apical vowel: tzu = zi, ssu = si.
    const sibilant = wadeInitial === 'ts' || wadeInitial === 'tz' || wadeInitial === 'ss' || wadeInitial === 'sz';
    const pinyin = new Set<string>();
    for (const initial of pinyinInitials)
      for (const final of finals) if (!(fin === 'u' && final === 'i' && !sibilant)) pinyin.add(initial + final);
    const marked =
      wadeInitial === 'hs' ||
      sibilant ||
      MARKED_FINALS.has(fin) ||
      (wadeInitial === 'ch' && fin.startsWith('i') && fin.length > 1);
    return { pinyin: [...pinyin], marked };
  }
  return undefined;
}

/** wadeGilesSpells for one syllable, without building the spellings (part pairs call it very often). */
export function wadeGilesSpellsSyllable(syllable: string, pinyin: string): boolean {
  const readings = wadeGiles(syllable);
  return readings !== undefined && readings.marked && readings.pinyin.includes(pinyin);
}

/**
 * True when `parts` could spell some Pinyin as Wade-Giles: every one is a Wade-Giles syllable and one
 * of them a syllable only Wade-Giles writes. When false, wadeGilesSpells is false for any Pinyin.
 */
export function mayBeWadeGiles(parts: readonly string[]): boolean {
  let marked = false;
  for (const part of parts) {
    const readings = wadeGiles(part);
    if (!readings) return false;
    marked ||= readings.marked;
  }
  return marked;
}

/**
 * True when `parts` (one syllable, or the syllables of a hyphenated given name) in Wade-Giles spell
 * `pinyin`, and at least one of them is a syllable only Wade-Giles writes.
 */
export function wadeGilesSpells(parts: string[], pinyin: string): boolean {
  let marked = false;
  let spellings = [''];
  for (const part of parts) {
    const readings = wadeGiles(part);
    if (!readings) return false;
    if (readings.marked) marked = true;
    const next: string[] = [];
    for (const head of spellings)
      for (const tail of readings.pinyin) if (pinyin.startsWith(head + tail)) next.push(head + tail);
    if (next.length === 0) return false;
    spellings = next;
  }
  return marked && spellings.includes(pinyin);
}
