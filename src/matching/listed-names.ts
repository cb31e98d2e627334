/**
 * The listed names as the candidate index is built from them (candidate-index.ts): every name of
 * every record normalized once (a record's repeats left out), what the index stores of each
 * (NameEntry), and the document frequency of words, counted per record.
 */
import type { ListRecord, NameKind, NameQuality } from '../lists/index.js';
import { type NamePart, normalizeName } from './normalize.js';
import type { ScoredPart } from './part-similarity.js';
import { inOtherScript } from './transliterate.js';

export interface NameEntry {
  record: number;
  name: string;
  kind: NameKind;
  quality: NameQuality;
  parts: ScoredPart[];
  /** Sum of word weights, to prefer candidates whose weight the query covers. */
  weight: number;
  /** The record is not a person (names are compared as organizations'). */
  organization: boolean;
  /**
   * The name is written in Arabic, Hebrew or Japanese kana, and its record has a name in Latin
   * letters too: a rendering, for readers of that script, of a name the record spells in Latin.
   * Which of the scripts (see renderingScript); undefined for other names.
   */
  rendering?: RenderingScript;
}

/** Scripts in which lists render names spelled in Latin (vowels left out, or sounds changed). */
export type RenderingScript = 'arabic' | 'hebrew' | 'kana';
const RENDERING_SCRIPTS: [RegExp, RenderingScript][] = [
  [/\p{Script=Arabic}/u, 'arabic'],
  [/\p{Script=Hebrew}/u, 'hebrew'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'kana'],
];

/** The rendering script a name is written in (see NameEntry.rendering), if any. */
export function renderingScript(name: string): RenderingScript | undefined {
  for (const [pattern, script] of RENDERING_SCRIPTS) if (pattern.test(name)) return script;
  return undefined;
}

/** A listed name normalized, before its parts are interned (see CandidateIndex.build). */
export interface NormalizedEntry {
  record: number;
  name: string;
  kind: NameKind;
  quality: NameQuality;
  parts: NamePart[];
}

/** What reading the records gives the build. */
export interface ListedNames {
  names: NormalizedEntry[];
  /** Every record's normalized primary name, which clustering links on. */
  primaryParts: (NamePart[] | undefined)[];
  /** Per record, 1 when it has a name written in Latin letters (see NameEntry.rendering). */
  latinNamed: Uint8Array;
  /** Records whose names hold each word or patronymic. */
  documentFrequency: Map<string, number>;
  /** Words the lists hold in persons' names. */
  personWords: Set<string>;
}

/** What tells listed parts apart (kind, transliteration, text): one shared ScoredPart each (see interned). */
export function internKey(p: NamePart): string {
  return `${p.kind}|${p.translit ?? ''}|${p.text}`;
}

export function isWordLike(p: { kind: NamePart['kind'] }): boolean {
  return p.kind === 'word' || p.kind === 'patronymic';
}

/**
 * Read every record's names (yielding every `step` records, see MatchingIndex.buildAsync). Document
 * frequency is counted per record, not per alias, so that a name repeated in ten aliases of one
 * entry does not look common.
 */
export function* readListedNames(records: ListRecord[], step: number): Generator<void, ListedNames, void> {
  const documentFrequency = new Map<string, number>();
  const personWords = new Set<string>();
  const normalized: NormalizedEntry[] = [];
  const primaryParts: (NamePart[] | undefined)[] = [];
  const latinNamed = new Uint8Array(records.length);
  for (let r = 0; r < records.length; r++) {
    const rec = records[r]!;
    latinNamed[r] = !inOtherScript(rec.name) || rec.aliases.some((a) => !inOtherScript(a.name)) ? 1 : 0;
    const person = rec.entityType === 'person';
    const seen = new Set<string>();
    const first = normalized.length;
    const add = (name: string, kind: NameKind, quality: NameQuality): void => {
      const read = normalizeName(name, person);
      if (kind === 'primary') primaryParts.push(read.parts);
      // A rendering (a katakana カワ・ハマワンディ) reads as the Latin name it renders: both are kept,
      // as a Latin query is not compared with renderings (see NameEntry.rendering).
      const key = `${renderingScript(name) ?? ''}|${read.key}`;
      if (read.parts.length === 0 || seen.has(key)) return;
      seen.add(key);
      normalized.push({ record: r, name, kind, quality, parts: read.parts });
    };
    add(rec.name, 'primary', 'strong');
    for (const alias of rec.aliases) add(alias.name, alias.kind, alias.quality);
    const tokens = new Set<string>();
    for (let i = first; i < normalized.length; i++) {
      for (const part of normalized[i]!.parts) if (isWordLike(part)) tokens.add(part.text);
    }
    for (const token of tokens) {
      documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
      if (person) personWords.add(token);
    }
    if (r % step === 0) yield;
  }
  return { names: normalized, primaryParts, latinNamed, documentFrequency, personWords };
}
