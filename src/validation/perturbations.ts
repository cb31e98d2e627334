import type { ListRecord } from '../lists/index.js';
import { rng } from './seeded.js';

/**
 * Listed names changed the way a name reaches a screening system in practice: a slip of the keyboard,
 * a letter dropped, parts in another order, a middle part left out, parts joined, a name written in
 * Cyrillic and read back, lower case without punctuation, another spelling of the legal form. Each
 * kind is a named function of the listed record; a seed draws the same sample on every machine. The
 * quality benchmark (bench/quality.ts) draws its perturbations with the same tools.
 */

export interface Perturbed {
  kind: string;
  query: string;
  record: ListRecord;
}

/** A kind of perturbation: its name and what it makes of a record (undefined: not applicable). */
export type PerturbKind = [string, (r: ListRecord) => string | undefined];

/** The seeded draws the kinds share (their order of use fixes the sample). */
export interface PerturbTools {
  rand: () => number;
  pick: <T>(xs: T[]) => T;
  /** One slip inside a word (not its first letter): a letter dropped, added, replaced, or two swapped. */
  typo: (w: string) => string;
  /** One slip in one of the name's words that `ok` accepts, picked at random. */
  typoWhere: (r: ListRecord, ok: (w: string) => boolean) => string | undefined;
}

/** Latin spellings a transliterated name takes in other hands (Russian, Arabic, Persian names). */
const LATIN_VARIANTS: [RegExp, string][] = [
  [/ou/g, 'u'],
  [/kh/g, 'h'],
  [/y/g, 'i'],
  [/ee/g, 'i'],
  [/ph/g, 'f'],
  [/sh/g, 'sch'],
  [/q/g, 'k'],
  [/dh/g, 'd'],
  [/u/g, 'ou'],
  [/j/g, 'dj'],
  [/i/g, 'y'],
  [/ch/g, 'tch'],
  [/w/g, 'v'],
  [/v/g, 'w'],
  [/x/g, 'ks'],
  [/c/g, 'k'],
];

/** Latin letters to Russian Cyrillic, longest first (BGN/PCGN read backwards). */
export const TO_CYRILLIC: [string, string][] = [
  ['shch', 'щ'],
  ['kh', 'х'],
  ['zh', 'ж'],
  ['ch', 'ч'],
  ['sh', 'ш'],
  ['ts', 'ц'],
  ['yu', 'ю'],
  ['ya', 'я'],
  ['yo', 'ё'],
  ['a', 'а'],
  ['b', 'б'],
  ['v', 'в'],
  ['g', 'г'],
  ['d', 'д'],
  ['e', 'е'],
  ['z', 'з'],
  ['i', 'и'],
  ['y', 'й'],
  ['k', 'к'],
  ['l', 'л'],
  ['m', 'м'],
  ['n', 'н'],
  ['o', 'о'],
  ['p', 'п'],
  ['r', 'р'],
  ['s', 'с'],
  ['t', 'т'],
  ['u', 'у'],
  ['f', 'ф'],
  ['h', 'х'],
  ['c', 'к'],
  ['q', 'к'],
  ['w', 'в'],
  ['x', 'кс'],
  ['j', 'дж'],
];

/** Russian Cyrillic back to Latin, BGN/PCGN without its diacritics: what a clerk types from a Russian document. */
const FROM_CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ы: 'y',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};

/** Legal forms and their other spellings (the same company as another register writes it). */
const LEGAL_SWAPS: [RegExp, string[]][] = [
  [/\bLIMITED LIABILITY COMPANY\b|\bLLC\b/i, ['OOO', 'L.L.C.', 'GmbH', 'Limited Liability Company']],
  [/\bJOINT[- ]STOCK COMPANY\b|\bJSC\b/i, ['AO', 'J.S.C.', 'Joint Stock Company']],
  [/\bLIMITED\b|\bLTD\.?/i, ['Ltd', 'Limited', 'Co. Ltd']],
  [/\bCOMPANY\b|\bCO\.?(?=\s|$)/i, ['Co', 'Company']],
  [/\bCORPORATION\b|\bCORP\.?/i, ['Corp.', 'Corporation']],
  [/\bINCORPORATED\b|\bINC\.?/i, ['Inc', 'Incorporated']],
  [/\bS\.?A\.?(?=\s|$)/i, ['SA', 'S.A.', 'Sociedad Anonima']],
  [/\bGMBH\b/i, ['LLC', 'G.m.b.H.']],
];

export function words(name: string): string[] {
  return name
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

export function translit(text: string, table: [string, string][]): string {
  let swapped = text;
  for (const [latin, confusable] of table) swapped = swapped.split(latin).join(confusable);
  return swapped;
}

export function perturbTools(seed: number): PerturbTools {
  const rand = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const typo = (w: string): string => {
    const cut = 1 + Math.floor(rand() * (w.length - 2));
    const operation = Math.floor(rand() * 4);
    return operation === 0
      ? w.slice(0, cut) + w.slice(cut + 1)
      : operation === 1
        ? w.slice(0, cut) + pick([...letters]) + w.slice(cut)
        : operation === 2
          ? w.slice(0, cut) + pick([...letters]) + w.slice(cut + 1)
          : w.slice(0, cut) + (w[cut + 1] ?? '') + w[cut] + w.slice(cut + 2);
  };
  const typoWhere = (r: ListRecord, ok: (w: string) => boolean): string | undefined => {
    const nameWords = words(r.name);
    const cand = nameWords.map((w, i) => [w, i] as const).filter(([w]) => ok(w));
    if (cand.length === 0) return undefined;
    const [word, index] = pick(cand);
    nameWords[index] = typo(word);
    return nameWords.join(' ');
  };
  return { rand, pick, typo, typoWhere };
}

const swappedParts: PerturbKind[1] = (r) => {
  const nameWords = words(r.name);
  return [...nameWords.slice(1), nameWords[0]!].join(' ');
};

const legalFormVariant =
  (t: PerturbTools): PerturbKind[1] =>
  (r) => {
    if (r.entityType !== 'organization') return undefined;
    for (const [pattern, reps] of LEGAL_SWAPS) if (pattern.test(r.name)) return r.name.replace(pattern, t.pick(reps));
    return undefined;
  };

const droppedMiddlePart =
  (t: PerturbTools): PerturbKind[1] =>
  (r) => {
    if (r.entityType !== 'person') return undefined;
    const nameWords = words(r.name);
    if (nameWords.length < 4) return undefined;
    const index = 1 + Math.floor(t.rand() * (nameWords.length - 2));
    return [...nameWords.slice(0, index), ...nameWords.slice(index + 1)].join(' ');
  };

const joinedParts =
  (t: PerturbTools): PerturbKind[1] =>
  (r) => {
    const nameWords = words(r.name);
    const index = Math.floor(t.rand() * (nameWords.length - 1));
    return [
      ...nameWords.slice(0, index),
      nameWords[index]! + nameWords[index + 1]!.toLowerCase(),
      ...nameWords.slice(index + 2),
    ].join(' ');
  };

const toCyrillic = (name: string): string => translit(name.toLowerCase().replace(/[^a-z ]/g, ' '), TO_CYRILLIC);

/** The seven kinds of the quality benchmark, in its order (its outcome digest depends on it). */
export function benchKinds(t: PerturbTools): PerturbKind[] {
  return [
    ['typo', (r) => t.typoWhere(r, (w) => w.length >= 5)],
    ['swapped parts', swappedParts],
    ['dropped middle part', droppedMiddlePart(t)],
    [
      'transliteration (Latin spelling)',
      (r) => {
        if (r.entityType !== 'person') return undefined;
        const lowered = r.name.toLowerCase().replace(/,/g, '');
        const applicable = LATIN_VARIANTS.filter(([re]) => {
          re.lastIndex = 0;
          return re.test(lowered);
        });
        if (applicable.length === 0) return undefined;
        const [pattern, rep] = t.pick(applicable);
        pattern.lastIndex = 0;
        return lowered.replace(pattern, rep);
      },
    ],
    ['transliteration (to Cyrillic)', (r) => (r.entityType === 'person' ? toCyrillic(r.name) : undefined)],
    ['legal-form variant', legalFormVariant(t)],
    ['joined parts', joinedParts(t)],
  ];
}

/** The kinds a validation report measures (issue 31), each a change a screening system must survive. */
export const VALIDATION_KINDS = [
  'typo',
  'dropped letter',
  'swapped parts',
  'dropped middle part',
  'joined parts',
  'Cyrillic and back',
  'lower case and punctuation',
  'legal-form variant',
] as const;

export function validationKinds(t: PerturbTools): PerturbKind[] {
  const made: Record<(typeof VALIDATION_KINDS)[number], PerturbKind[1]> = {
    typo: (r) => t.typoWhere(r, (w) => w.length >= 5),
    'dropped letter': (r) => {
      const nameWords = words(r.name);
      const cand = nameWords.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5);
      if (cand.length === 0) return undefined;
      const [word, index] = t.pick(cand);
      const cut = 1 + Math.floor(t.rand() * (word.length - 1));
      nameWords[index] = word.slice(0, cut) + word.slice(cut + 1);
      return nameWords.join(' ');
    },
    'swapped parts': swappedParts,
    'dropped middle part': droppedMiddlePart(t),
    'joined parts': joinedParts(t),
    'Cyrillic and back': (r) =>
      r.entityType === 'person'
        ? [...toCyrillic(r.name)]
            .map((c) => FROM_CYRILLIC[c] ?? c)
            .join('')
            .replace(/\s+/g, ' ')
            .trim()
        : undefined,
    'lower case and punctuation': (r) =>
      r.name
        .toLowerCase()
        .replace(/[.,;:'"()\-/&]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    'legal-form variant': legalFormVariant(t),
  };
  return VALIDATION_KINDS.map((k) => [k, made[k]]);
}

/**
 * Up to `perKind` perturbed names of each kind, drawn from the records written in printable ASCII with
 * two words or more (the kinds are written for Latin names); a record a kind does not apply to, or
 * whose change leaves the name as it was, is drawn again (50 tries a wanted name at most).
 */
export function perturbWith(
  records: ListRecord[],
  perKind: number,
  t: PerturbTools,
  kinds: PerturbKind[],
): Perturbed[] {
  return [...perturbSteps(records, perKind, t, kinds)].filter((made): made is Perturbed => made !== null);
}

/** perturbWith's work a step at a time: each record looked at and each try is a step (null when it makes nothing). */
export function* perturbSteps(
  records: ListRecord[],
  perKind: number,
  t: PerturbTools,
  kinds: PerturbKind[],
): Generator<Perturbed | null> {
  const latin: ListRecord[] = [];
  for (const record of records) {
    if (/^[\x20-\x7e]+$/.test(record.name) && words(record.name).length >= 2) latin.push(record);
    yield null;
  }
  if (latin.length === 0) return;
  for (const [kind, perturb] of kinds) {
    let made = 0;
    for (let tries = 0; made < perKind && tries < perKind * 50; tries++) {
      const record = t.pick(latin);
      const perturbed = perturb(record);
      if (!perturbed || perturbed.trim() === '' || perturbed === record.name) {
        yield null;
        continue;
      }
      yield { kind, query: perturbed, record: record };
      made++;
    }
  }
}
