/** Names as listed: aliases, their scripts, the "LAST, First" order, genders. */
import type { ListName, ListRecord, NameKind, NameQuality } from '../../model.js';
import { clean } from '../../../formats/index.js';

/** Scripts told apart by their characters, named as ISO 15924 names them. Kana decides Japanese first. */
const SCRIPTS: [RegExp, string][] = [
  [/\p{Script=Cyrillic}/u, 'Cyrillic'],
  [/\p{Script=Arabic}/u, 'Arabic'],
  [/\p{Script=Hangul}/u, 'Hangul'],
  [/\p{Script=Greek}/u, 'Greek'],
  [/\p{Script=Hebrew}/u, 'Hebrew'],
  [/\p{Script=Georgian}/u, 'Georgian'],
  [/\p{Script=Armenian}/u, 'Armenian'],
  [/\p{Script=Thai}/u, 'Thai'],
  [/\p{Script=Myanmar}/u, 'Myanmar'],
  [/\p{Script=Ethiopic}/u, 'Ethiopic'],
  [/\p{Script=Devanagari}/u, 'Devanagari'],
  [/\p{Script=Khmer}/u, 'Khmer'],
];

/** The script of a name that is not Latin, else undefined. */
export function scriptOf(name: string): string | undefined {
  const kana = /[\p{Script=Katakana}\p{Script=Hiragana}]/u.test(name);
  const han = /\p{Script=Han}/u.test(name);
  if (kana) return han ? 'Japanese' : 'Katakana';
  if (han) return 'Han';
  for (const [pattern, label] of SCRIPTS) if (pattern.test(name)) return label;
  return undefined;
}

/**
 * When two names are one alias. The publishers print one name in capitals in one place and in
 * mixed case in another (OFAC's "LAST, First", the UN's capitals, the EU's mixed case), MOF writes
 * Latin names in full-width letters inside Japanese cells, and merged rows bring the same accented
 * letter precomposed or with a combining mark. So the key folds compatibility forms and composition
 * (NFKC), letter case without a locale (a server in a Turkish locale must de-duplicate the same
 * way), and ß to ss (German capitals write it SS). Accents, hyphens and spacing are kept: "Müller"
 * and "Muller" are two spellings the list printed, which matching compares for itself.
 */
export function aliasKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/ß/g, 'ss');
}

/** Adds an alias unless it is the primary name or an alias already present (see aliasKey). */
export function addAlias(
  record: ListRecord,
  name: string | undefined,
  quality: NameQuality,
  kind: NameKind,
  script?: string,
): void {
  const text = clean(name);
  if (!text) return;
  const key = aliasKey(text);
  if (aliasKey(record.name) === key) return;
  const existing = record.aliases.find((a) => aliasKey(a.name) === key);
  if (existing) {
    // A name listed both strong and weak is matched as strong.
    if (quality === 'strong') existing.quality = 'strong';
    return;
  }
  const alias: ListName = { name: text, quality, kind };
  const detected = script ?? scriptOf(text);
  if (detected) alias.script = detected;
  record.aliases.push(alias);
}

/**
 * Makes `name` the primary name of a record first created under one of its aliases (the list's
 * rows came in another order); the old primary name becomes an alias.
 */
export function promoteToPrimary(
  record: ListRecord,
  name: string,
  previous: { quality: NameQuality; kind: NameKind },
): void {
  const old = record.name;
  record.name = name;
  const key = aliasKey(name);
  record.aliases = record.aliases.filter((a) => aliasKey(a.name) !== key);
  addAlias(record, old, previous.quality, previous.kind);
}

/** "LAST, First" to "First LAST"; undefined when the name has no single comma split. */
export function reorderLastFirst(name: string | undefined): string | undefined {
  const parts = (name ?? '').split(',');
  if (parts.length !== 2) return undefined;
  const last = parts[0]!.trim();
  const first = parts[1]!.trim();
  if (!last || !first) return undefined;
  return `${first} ${last}`;
}

/**
 * A person listed "LAST, First" (OFAC's order) is also matched as "First LAST", a variation of the
 * same quality. Nothing for organizations, whose commas are part of the name.
 */
export function addNaturalOrder(record: ListRecord, name: string | undefined, quality: NameQuality): void {
  if (record.entityType === 'person') addAlias(record, reorderLastFirst(name), quality, 'variation');
}

export function genderOf(value: string | undefined): 'male' | 'female' | undefined {
  const lowered = value?.trim().toLowerCase();
  if (lowered === 'male' || lowered === 'm') return 'male';
  if (lowered === 'female' || lowered === 'f') return 'female';
  return undefined;
}
