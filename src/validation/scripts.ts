import { foldText, type ScreenOutcome } from '../matching/index.js';

/** The scripts a name is counted under in the false-alert figures, in the order they are shown. */
export const SCRIPTS = [
  'Latin',
  'Arabic script',
  'Han',
  'Hangul',
  'kana',
  'Cyrillic',
  'Greek',
  'Hebrew',
  'Indic',
  'Thai',
  'Armenian',
  'Georgian',
  'other',
] as const;
export type Script = (typeof SCRIPTS)[number];

const SCRIPT_TESTS: [Script, RegExp][] = [
  ['Arabic script', /\p{Script=Arabic}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  // Japanese names mix kanji and kana: any kana makes the name Japanese.
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['Han', /\p{Script=Han}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  [
    'Indic',
    /[\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]/u,
  ],
  ['Thai', /\p{Script=Thai}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Georgian', /\p{Script=Georgian}/u],
];

export function scriptOf(name: string): Script {
  for (const [script, pattern] of SCRIPT_TESTS) if (pattern.test(name)) return script;
  return /^[\p{Script=Latin}\p{M}\p{P}\p{Zs}\d]+$/u.test(name) ? 'Latin' : 'other';
}

/** The words of a name, folded to Latin and sorted: two names with the same words in any order compare equal. */
export function foldedWords(s: string): string {
  return foldText(s)
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .sort()
    .join(' ');
}

/** The query is the listed name that matched, up to folding and word order. */
export function isNamesake(query: string, outcome: ScreenOutcome): boolean {
  const top = outcome.matches[0];
  return top !== undefined && foldedWords(query) === foldedWords(top.explanation.matchedName);
}
