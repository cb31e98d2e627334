/**
 * Matching quality benchmark. Reads ../shared/data in place (paths from the repository root) and
 * prints, per data set, agreement / recall / false-positive rates at the medium and high boundaries.
 *   node --import tsx bench/quality.ts        or        node dist/bench/quality.js
 * Options: --quick (10,000 of the 50,000 negatives, 300 perturbations a kind); --seed=N (another draw of
 * perturbations, to see how much the figures move with the names drawn); --only=perturbations (or
 * pairs, positives, negatives, multicultural, identifiers, mix);
 * --extra (ten more kinds of perturbation, labelled "extra:", that the seven do not make);
 * --multicultural=N (N names of the multicultural set instead of 50,000; its draw follows --seed too).
 * At the end it prints two digests: SHA-256 over every row's outcome (scores, risk, confidence, top
 * match) of the sets that ran, and the outcome digest of the performance benchmarks' query mix (see
 * outcomeDigest). A change of the engine's code that claims "same outcomes" must leave both unchanged.
 */
import { createHash, type Hash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { toCountryCode } from '../src/identifiers/index.js';
import type { EntityType, ListRecord, OfficialSourceId, SourceAdapter } from '../src/lists/model.js';
import { MatchingIndex, MEDIUM_BOUNDARY, HIGH_BOUNDARY } from '../src/matching/index.js';
import { identifierBench } from './identifiers.js';
import { type ResultRow, benchNote, writeResult } from './results.js';
import { printDigest, queryMix } from './query-mix.js';
import {
  type Perturbed,
  TO_CYRILLIC,
  benchKinds,
  perturbTools,
  perturbWith,
  translit,
  words,
} from '../src/validation/perturbations.js';
import { DEFAULT_MULTICULTURAL_SEED, MULTICULTURAL_SIZE, multiculturalBench } from './quality-multicultural.js';

const DATA = path.resolve(process.cwd(), '../shared/data');
const MATCHING = path.join(DATA, 'matching');

const ADAPTER_MODULES: [OfficialSourceId, string, string][] = [
  ['us_ofac', 'us-ofac.js', 'usOfacAdapter'],
  ['us_csl', 'us-csl.js', 'usCslAdapter'],
  ['eu_csl', 'eu-csl.js', 'euCslAdapter'],
  ['uk_csl', 'uk-csl.js', 'ukCslAdapter'],
  ['un_csl', 'un-csl.js', 'unCslAdapter'],
  ['au_dfat', 'au-dfat.js', 'auDfatAdapter'],
  ['ch_seco', 'ch-seco.js', 'chSecoAdapter'],
  ['ca_gac', 'ca-gac.js', 'caGacAdapter'],
  ['jp_mof', 'jp-mof.js', 'jpMofAdapter'],
];

/** Load every list whose adapter exists and parses; absent or failing ones are reported and skipped. */
export async function loadAllLists(
  only?: OfficialSourceId[],
  log: (s: string) => void = console.log,
): Promise<Map<OfficialSourceId, ListRecord[]>> {
  const out = new Map<OfficialSourceId, ListRecord[]>();
  for (const [source, file, exportName] of ADAPTER_MODULES) {
    if (only && !only.includes(source)) continue;
    const dir = path.join(DATA, 'lists', source);
    if (!existsSync(dir)) {
      log(`  ${source}: no data directory`);
      continue;
    }
    let adapter: SourceAdapter | undefined;
    try {
      const mod = (await import(new URL(`../src/lists/adapters/${file}`, import.meta.url).href)) as Record<
        string,
        unknown
      >;
      adapter = mod[exportName] as SourceAdapter | undefined;
    } catch {
      adapter = undefined;
    }
    if (!adapter) {
      log(`  ${source}: adapter not available`);
      continue;
    }
    try {
      const t0 = performance.now();
      const parsed = await adapter.parse(dir);
      out.set(source, parsed.records);
      log(`  ${source}: ${parsed.records.length} records (${Math.round(performance.now() - t0)} ms)`);
    } catch (err) {
      log(`  ${source}: parse failed: ${(err as Error).message.slice(0, 120)}`);
    }
  }
  return out;
}

export async function csv(file: string): Promise<Record<string, string>[]> {
  return parse(await readFile(file, 'utf8'), {
    columns: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Record<string, string>[];
}

/** The headline quality figures of this run, for bench/results/quality.json. */
const figures: ResultRow[] = [];

function figure(name: string, n: number, d: number, headline = false): void {
  if (d > 0)
    figures.push({ name, value: Number(((100 * n) / d).toFixed(2)), unit: '%', ...(headline ? { headline } : {}) });
}

function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(2)}%`;
}

function schemaType(schema: string): EntityType {
  if (schema === 'Person') return 'person';
  if (schema === 'Vessel') return 'vessel';
  return 'organization';
}

function nameBench(idx: MatchingIndex, rows: Record<string, string>[], digest: Hash): void {
  let agree = 0,
    tp = 0,
    fn = 0,
    fp = 0,
    tn = 0;
  const misses: string[] = [];
  for (const r of rows) {
    const s = idx.scorePair(r.name1 ?? '', r.name2 ?? '', schemaType(r.schema ?? ''));
    digest.update(`pair ${s}\n`);
    const said = s >= MEDIUM_BOUNDARY;
    const truth = r.is_match === 'true';
    if (said === truth) agree++;
    if (truth && said) tp++;
    else if (truth) fn++;
    else if (said) fp++;
    else tn++;
    if (said !== truth && misses.length < 400)
      misses.push(`    ${truth ? 'FN' : 'FP'} ${s.toFixed(1)}  ${r.name1} | ${r.name2}  (${r.notes ?? ''})`);
  }
  figure(`judged name pairs (nomenklatura, ${rows.length}): agreement`, agree, rows.length, true);
  console.log(
    `  agreement ${pct(agree, rows.length)} (${agree}/${rows.length}); true pairs matched ${pct(tp, tp + fn)}, false pairs rejected ${pct(tn, tn + fp)}`,
  );
  if (process.argv.includes('--verbose')) console.log(misses.join('\n'));
}

export type { Perturbed };

export function perturb(records: ListRecord[], perKind: number, seed: number, extra = false): Perturbed[] {
  const tools = perturbTools(seed);
  const kinds = benchKinds(tools);
  if (extra) kinds.push(...extraKinds(tools.rand, tools.pick, tools.typo, tools.typoWhere));
  return perturbWith(records, perKind, tools, kinds);
}

const TO_CYRILLIC_PLAIN: [string, string][] = [
  ['shch', 'щ'],
  ['kh', 'х'],
  ['zh', 'ж'],
  ['ch', 'ч'],
  ['sh', 'ш'],
  ['ts', 'ц'],
  ['yu', 'ю'],
  ['ya', 'я'],
  ['yo', 'ё'],
  ['ph', 'ф'],
  ['th', 'т'],
  ['dh', 'д'],
  ['gh', 'г'],
  ['ee', 'и'],
  ['oo', 'у'],
  ['ou', 'у'],
  ['ck', 'к'],
  ...TO_CYRILLIC.filter(([l]) => l.length === 1),
];
/** Russian Cyrillic read back in other romanizations than the lists' (English BGN/PCGN-like). */
const FROM_CYRILLIC: Record<string, Record<string, string>> = {
  // German (Duden): ж sch, ч tsch, ш sch, щ schtsch, х ch, в w, з s, ц z, й j, ю ju, я ja, е e, у u.
  german: {
    а: 'a',
    б: 'b',
    в: 'w',
    г: 'g',
    д: 'd',
    е: 'e',
    ё: 'jo',
    ж: 'sch',
    з: 's',
    и: 'i',
    й: 'j',
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
    х: 'ch',
    ц: 'z',
    ч: 'tsch',
    ш: 'sch',
    щ: 'schtsch',
    ъ: '',
    ы: 'y',
    ь: '',
    э: 'e',
    ю: 'ju',
    я: 'ja',
  },
  // French: ж j, ч tch, ш ch, х kh, у ou, в v, ц ts, й i, ю iou, я ia.
  french: {
    а: 'a',
    б: 'b',
    в: 'v',
    г: 'g',
    д: 'd',
    е: 'e',
    ё: 'io',
    ж: 'j',
    з: 'z',
    и: 'i',
    й: 'i',
    к: 'k',
    л: 'l',
    м: 'm',
    н: 'n',
    о: 'o',
    п: 'p',
    р: 'r',
    с: 's',
    т: 't',
    у: 'ou',
    ф: 'f',
    х: 'kh',
    ц: 'ts',
    ч: 'tch',
    ш: 'ch',
    щ: 'chtch',
    ъ: '',
    ы: 'y',
    ь: '',
    э: 'e',
    ю: 'iou',
    я: 'ia',
  },
  // Scholarly / ISO 9 with the diacritics dropped: ж z, ч c, ш s, щ sc, х h (or x), ц c, й j, ю ju, я ja.
  iso: {
    а: 'a',
    б: 'b',
    в: 'v',
    г: 'g',
    д: 'd',
    е: 'e',
    ё: 'e',
    ж: 'z',
    з: 'z',
    и: 'i',
    й: 'j',
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
    х: 'h',
    ц: 'c',
    ч: 'c',
    ш: 's',
    щ: 'sc',
    ъ: '',
    ы: 'y',
    ь: '',
    э: 'e',
    ю: 'ju',
    я: 'ja',
  },
};
const LATIN_TO_ARABIC: [string, string][] = [
  ['sh', 'ش'],
  ['kh', 'خ'],
  ['gh', 'غ'],
  ['th', 'ث'],
  ['dh', 'ذ'],
  ['ch', 'تش'],
  ['aa', 'ا'],
  ['ee', 'ي'],
  ['ii', 'ي'],
  ['oo', 'و'],
  ['ou', 'و'],
  ['uu', 'و'],
  ['a', 'ا'],
  ['b', 'ب'],
  ['c', 'ك'],
  ['d', 'د'],
  ['e', 'ي'],
  ['f', 'ف'],
  ['g', 'ج'],
  ['h', 'ه'],
  ['i', 'ي'],
  ['j', 'ج'],
  ['k', 'ك'],
  ['l', 'ل'],
  ['m', 'م'],
  ['n', 'ن'],
  ['o', 'و'],
  ['p', 'ب'],
  ['q', 'ق'],
  ['r', 'ر'],
  ['s', 'س'],
  ['t', 'ت'],
  ['u', 'و'],
  ['v', 'ف'],
  ['w', 'و'],
  ['x', 'كس'],
  ['y', 'ي'],
  ['z', 'ز'],
];
/** Words that mark a name as Arabic (the names an Arabic-script query is written for). */
const ARABIC_NAME =
  /\b(al|el|bin|ibn|abu|abd|abdul|abdel|abdal|muhammad|mohammed|mohamed|mohammad|ahmad|ahmed|ali|hassan|hasan|hussein|husayn|omar|umar|khalid|ibrahim|yusuf|said|saeed|salim|abdullah|abdallah)\b/i;
const DIACRITICS: Record<string, string[]> = {
  a: ['á', 'à', 'â', 'ä', 'ã'],
  e: ['é', 'è', 'ê', 'ë'],
  i: ['í', 'ï', 'î'],
  o: ['ó', 'ö', 'ô', 'õ'],
  u: ['ú', 'ü', 'û'],
  c: ['ç', 'č'],
  n: ['ñ'],
  s: ['š', 'ş'],
  z: ['ž'],
  g: ['ğ'],
};

/**
 * Kinds of changes another generator might make that the seven above do not (--extra, labelled
 * "extra:"): two slips, a slip in a short word, a missing space and a slip, diacritics added or German
 * umlauts written out, other romanizations of Russian, Arabic script, initials for given names,
 * hyphens for spaces, every word in reverse order.
 */
function extraKinds(
  rand: () => number,
  pick: <T>(xs: T[]) => T,
  typo: (w: string) => string,
  typoWhere: (r: ListRecord, ok: (w: string) => boolean) => string | undefined,
): [string, (r: ListRecord) => string | undefined][] {
  const surnameAt = (r: ListRecord, ws: string[]): number => {
    // "LAST, First" or the one word written in capitals among mixed-case ones; else the last word.
    if (r.name.includes(',')) return 0;
    const caps = ws.map((w, i) => [w, i] as const).filter(([w]) => /[a-z]/i.test(w) && w === w.toUpperCase());
    return caps.length >= 1 && caps.length < ws.length ? caps[caps.length - 1]![1] : ws.length - 1;
  };
  return [
    [
      'extra: two typos',
      (r) => {
        const ws = words(r.name);
        const cand = ws.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5);
        if (cand.length === 0 || ws.join('').length < 14) return undefined;
        const [w1, i1] = pick(cand);
        ws[i1] = typo(w1);
        const rest = cand.filter(([, i]) => i !== i1);
        if (rest.length > 0) {
          const [w2, i2] = pick(rest);
          ws[i2] = typo(w2);
        } else if (w1.length >= 8) ws[i1] = typo(ws[i1]!);
        else return undefined;
        return ws.join(' ');
      },
    ],
    ['extra: typo in a short word', (r) => typoWhere(r, (w) => /^[a-z]{3,4}$/i.test(w))],
    [
      'extra: missing space and a typo',
      (r) => {
        const ws = words(r.name);
        if (ws.length < 3) return undefined;
        const i = Math.floor(rand() * (ws.length - 1));
        const joined = [...ws.slice(0, i), ws[i]! + ws[i + 1]!, ...ws.slice(i + 2)];
        const cand = joined.map((w, k) => [w, k] as const).filter(([w, k]) => w.length >= 5 && k !== i);
        if (cand.length === 0) return undefined;
        const [w, k] = pick(cand);
        joined[k] = typo(w);
        return joined.join(' ');
      },
    ],
    [
      'extra: diacritics added or umlauts written out',
      (r) => {
        if (/[^\x20-\x7e]/.test(r.name)) return undefined;
        const chars = [...r.name];
        const at = chars.map((c, i) => [c.toLowerCase(), i] as const).filter(([c]) => DIACRITICS[c] !== undefined);
        if (at.length === 0) return undefined;
        for (let k = 0; k < 2 && at.length > 0; k++) {
          const [c, i] = pick(at);
          const d = pick(DIACRITICS[c]!);
          chars[i] = chars[i] === c ? d : d.toUpperCase();
        }
        // German and Turkish writers without the letters: ä ae, ö oe, ü ue.
        return rand() < 0.3
          ? chars
              .join('')
              .replace(/ä/g, 'ae')
              .replace(/ö/g, 'oe')
              .replace(/ü/g, 'ue')
              .replace(/Ä/g, 'AE')
              .replace(/Ö/g, 'OE')
              .replace(/Ü/g, 'UE')
          : chars.join('');
      },
    ],
    [
      'extra: Russian name, other romanization',
      (r) => {
        if (r.entityType !== 'person') return undefined;
        const n = r.name.toLowerCase().replace(/[^a-z ]/g, ' ');
        // Only names a Russian spelling fits (a patronymic, or an -ov/-ev/-in/-sky surname).
        if (!/(vich|vna|ov|ev|in|sky|skiy|skii|enko)\b/.test(n)) return undefined;
        const cyr = translit(n, TO_CYRILLIC);
        const table = FROM_CYRILLIC[pick(['german', 'french', 'iso'])]!;
        return [...cyr].map((c) => table[c] ?? c).join('');
      },
    ],
    [
      'extra: to Cyrillic, as spoken',
      (r) => {
        if (r.entityType !== 'person') return undefined;
        return translit(r.name.toLowerCase().replace(/[^a-z ]/g, ' '), TO_CYRILLIC_PLAIN);
      },
    ],
    [
      'extra: Arabic name to Arabic script',
      (r) => {
        if (r.entityType !== 'person' || !ARABIC_NAME.test(r.name)) return undefined;
        let n = r.name
          .toLowerCase()
          .replace(/[^a-z -]/g, '')
          .replace(/\b[ae]l-/g, 'al ')
          .replace(/\bel\b/g, 'al')
          .replace(/-/g, ' ');
        n = n.replace(/([a-z])\1/g, '$1');
        // A vowel that begins a word is carried by an alif (Ibrahim ابراهيم, Umar امر).
        n = n.replace(/\b[aeiou]+/g, 'a');
        // The article is written onto its word (ال), short vowels inside a word mostly not at all.
        n = n
          .split(/\s+/)
          .map((w) =>
            w.length > 3
              ? w[0] + w.slice(1, -1).replace(/[aeiou](?=[^aeiou])/g, (v) => (rand() < 0.6 ? '' : v)) + w.slice(-1)
              : w,
          )
          .join(' ');
        return translit(n, LATIN_TO_ARABIC).replace(/(^|\s)ال\s/g, '$1ال');
      },
    ],
    [
      'extra: initials for given names',
      (r) => {
        if (r.entityType !== 'person') return undefined;
        const ws = words(r.name);
        if (ws.length < 2) return undefined;
        const s = surnameAt(r, ws);
        const out = ws.map((w, i) => (i === s || w.length <= 2 ? w : `${w[0]!.toUpperCase()}.`));
        return out.join(' ');
      },
    ],
    [
      'extra: hyphens',
      (r) => {
        const ws = words(r.name);
        if (ws.length < 2) return undefined;
        if (r.name.includes('-') && rand() < 0.5) return r.name.replace(/-/g, ' ');
        const i = Math.floor(rand() * (ws.length - 1));
        return [...ws.slice(0, i), `${ws[i]}-${ws[i + 1]}`, ...ws.slice(i + 2)].join(' ');
      },
    ],
    [
      'extra: reversed order',
      (r) => {
        const ws = words(r.name);
        if (ws.length < 3) return undefined;
        return [...ws].reverse().join(' ');
      },
    ],
  ];
}

export async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  console.log('Matching quality benchmark');
  console.log('Loading lists (../shared/data/lists):');
  const t0 = performance.now();
  // --lists-json=<file>: records saved earlier (JSON array of ListRecord), to iterate without re-parsing.
  const cacheArg = process.argv.find((a) => a.startsWith('--lists-json='));
  const lists = cacheArg
    ? groupBySource(JSON.parse(await readFile(cacheArg.slice(13), 'utf8')) as ListRecord[])
    : await loadAllLists();
  const all: ListRecord[] = [...lists.values()].flat();
  const idx = MatchingIndex.build(all);
  console.log(
    `Index: ${idx.size} records, ${idx.nameCount} names, sources ${idx.sources.join(', ')} (loaded+built in ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );

  const onlyArg = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
  const section = (
    name: 'pairs' | 'positives' | 'negatives' | 'multicultural' | 'perturbations' | 'identifiers' | 'mix',
  ): boolean => onlyArg === undefined || onlyArg === name;
  // Every row's outcome, in the order the sets run.
  const digest = createHash('sha256');
  let digested = 0;
  const row = (line: string): void => {
    digest.update(line + '\n');
    digested++;
  };

  const nbFile = path.join(MATCHING, 'opensanctions_nomenklatura/name_bench_cases.csv');
  if (section('pairs') && existsSync(nbFile)) {
    const rows = await csv(nbFile);
    console.log(
      `nomenklatura name_bench_cases.csv (${rows.length} judged pairs, match = score >= ${MEDIUM_BOUNDARY}, part weights from the loaded lists):`,
    );
    nameBench(idx, rows, digest);
    digested += rows.length;
  }

  const ebFile = path.join(MATCHING, 'opensanctions_nomenklatura/entity_bench_checks.yml');
  if (section('pairs') && existsSync(ebFile)) {
    const checks = parseChecks(await readFile(ebFile, 'utf8'));
    let agree = 0;
    const disagree: string[] = [];
    for (const c of checks) {
      const s = idx.scorePair(c.query, c.candidate, schemaType(c.schema));
      row(`check ${s}`);
      if (s >= MEDIUM_BOUNDARY === c.match) agree++;
      else disagree.push(`${c.match ? 'FN' : 'FP'} ${s}  ${c.query} | ${c.candidate}`);
    }
    console.log(
      `nomenklatura entity_bench_checks.yml (${checks.length} checks, names only):\n  agreement ${pct(agree, checks.length)}`,
    );
    if (process.argv.includes('--verbose')) console.log('    ' + disagree.join('\n    '));
  }

  const putinFile = path.join(MATCHING, 'opensanctions_nomenklatura/putin_names.txt');
  if (section('pairs') && existsSync(putinFile)) {
    const variants = (await readFile(putinFile, 'utf8'))
      .split('\n')
      .map((s) => s.trim())
      .filter(Boolean);
    let hit = 0;
    const missed: string[] = [];
    for (const v of variants) {
      const s = idx.scorePair(v, 'Vladimir Vladimirovich PUTIN', 'person');
      row(`putin ${s}`);
      if (s >= MEDIUM_BOUNDARY) hit++;
      else missed.push(v);
    }
    figure(`spellings of Putin's name (${variants.length}) matched`, hit, variants.length, true);
    console.log(
      `putin_names.txt (${variants.length} spellings vs "Vladimir Vladimirovich PUTIN"):\n  matched ${pct(hit, variants.length)}; missed: ${missed.join(' | ')}`,
    );
  }

  const csFile = path.join(MATCHING, 'watchman/cross_script_pairs.csv');
  if (section('pairs') && existsSync(csFile)) {
    const lines = (await readFile(csFile, 'utf8')).split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    let hit = 0;
    const missed: string[] = [];
    for (const l of lines) {
      const [a, b] = l.split(',');
      const s = idx.scorePair(a ?? '', b ?? '', 'person');
      row(`script ${s}`);
      if (s >= MEDIUM_BOUNDARY) hit++;
      else missed.push(`${a}/${b} ${s}`);
    }
    console.log(
      `watchman cross_script_pairs.csv (${lines.length} pairs):\n  matched ${pct(hit, lines.length)}; missed: ${missed.join(' | ')}`,
    );
  }

  const un = lists.get('un_csl');
  const posFile = path.join(MATCHING, 'opensanctions_yente/candidate_generation_benchmark/positives_un_untreated.csv');
  if (!section('positives')) {
    // not asked for
  } else if (un && existsSync(posFile)) {
    const rows = await csv(posFile);
    let med = 0,
      high = 0;
    const missed: string[] = [];
    for (const r of rows) {
      const o = idx.screen(
        {
          name: r.full_name ?? '',
          birthDate: r.date_of_birth || undefined,
          country: r.nationality || undefined,
          entityType: 'person',
        },
        { maxMatches: 50 },
      );
      const best = Math.max(0, ...o.matches.filter((m) => m.dataset === 'un_csl').map((m) => m.matchScore));
      row(`positive ${best} ${o.riskScore} ${o.confidence} ${o.matches[0]?.entity.id ?? '-'}`);
      if (best >= MEDIUM_BOUNDARY) med++;
      else if (missed.length < 40) missed.push(`${r.full_name} ${r.date_of_birth} ${r.nationality} -> ${best}`);
      if (best >= HIGH_BOUNDARY) high++;
    }
    console.log(
      `yente positives_un_untreated.csv vs UN list (${rows.length} queries with birth date and nationality):`,
    );
    console.log(`  recall at medium ${pct(med, rows.length)}, at high ${pct(high, rows.length)}`);
    figure(`UN listed persons (yente positives, ${rows.length}): recall at medium`, med, rows.length, true);
    figure(`UN listed persons (yente positives, ${rows.length}): recall at high`, high, rows.length);
    if (process.argv.includes('--verbose')) console.log('    ' + missed.join('\n    '));
  } else console.log('yente positives_un_untreated.csv: skipped (UN list not loaded)');

  for (const [label, rel, limit] of [
    [
      'yente candidate_generation_benchmark/negatives_us.csv',
      'opensanctions_yente/candidate_generation_benchmark/negatives_us.csv',
      quick ? 10_000 : Infinity,
    ],
    ['yente validation_report/negatives_us.csv', 'opensanctions_yente/validation_report/negatives_us.csv', Infinity],
  ] as const) {
    const file = path.join(MATCHING, rel);
    if (!section('negatives') || !existsSync(file)) continue;
    const rows = (await csv(file)).slice(0, limit);
    let med = 0,
      high = 0,
      medNoCorr = 0,
      highNoCorr = 0;
    const hits: string[] = [];
    const bareHits: string[] = [];
    for (const r of rows) {
      const country = toCountryCode(r.nationality) ?? undefined;
      const o = idx.screen({
        name: r.full_name ?? '',
        birthDate: r.date_of_birth || undefined,
        country,
        entityType: 'person',
      });
      if (o.riskScore >= MEDIUM_BOUNDARY) {
        med++;
        if (hits.length < 30) hits.push(`${r.full_name} -> ${o.matches[0]?.entity.name} ${o.riskScore}`);
      }
      if (o.riskScore >= HIGH_BOUNDARY) high++;
      const bare = idx.screen({ name: r.full_name ?? '' });
      row(
        `negative ${o.riskScore} ${o.confidence} ${o.matches[0]?.entity.id ?? '-'} ${bare.riskScore} ${bare.confidence} ${bare.matches[0]?.entity.id ?? '-'}`,
      );
      if (bare.riskScore >= MEDIUM_BOUNDARY) {
        medNoCorr++;
        if (bareHits.length < 400)
          bareHits.push(
            `${r.full_name} -> ${bare.matches[0]?.entity.name} ${bare.riskScore}: ${bare.matches[0]?.explanation.summary ?? ''}`,
          );
      }
      if (bare.riskScore >= HIGH_BOUNDARY) highNoCorr++;
    }
    console.log(`${label} (${rows.length} innocent persons) vs all loaded lists:`);
    figure(
      `${label} (${rows.length}): false positives at medium+, with birth date and nationality`,
      med,
      rows.length,
      true,
    );
    figure(`${label} (${rows.length}): false positives at medium+, name only`, medNoCorr, rows.length);
    console.log(
      `  with birth date + nationality + type: false positives at medium+ ${pct(med, rows.length)}, at high ${pct(high, rows.length)}`,
    );
    console.log(
      `  name only:                            false positives at medium+ ${pct(medNoCorr, rows.length)}, at high ${pct(highNoCorr, rows.length)}`,
    );
    if (process.argv.includes('--verbose')) {
      console.log('    ' + hits.join('\n    '));
      console.log('  name only, the first 400 false positives:\n    ' + bareHits.join('\n    '));
    }
  }

  const seedArg = process.argv.find((a) => a.startsWith('--seed='));
  if (section('multicultural')) {
    const sizeArg = process.argv.find((a) => a.startsWith('--multicultural='));
    const size = sizeArg ? Number(sizeArg.slice(16)) : quick ? 10_000 : MULTICULTURAL_SIZE;
    const r = multiculturalBench(
      idx,
      seedArg ? Number(seedArg.slice(7)) : DEFAULT_MULTICULTURAL_SEED,
      size,
      row,
      process.argv.includes('--verbose'),
    );
    const met = (x: number, t: number): string =>
      `${(100 * x).toFixed(2)}% (target <= ${t}%: ${100 * x <= t ? 'met' : 'NOT met'})`;
    console.log(
      `  targets: name only medium ${met(r.nameOnly.medium, 0.3)}, high ${met(r.nameOnly.high, 0.02)}; with fields medium ${met(r.withFields.medium, 0.1)}, high ${met(r.withFields.high, 0.01)}`,
    );
  }

  const source = all.filter(
    (r) => r.source === 'un_csl' || r.source === 'us_ofac' || r.source === 'eu_csl' || r.source === 'uk_csl',
  );
  if (section('perturbations') && source.length > 0) {
    const perts = perturb(
      source,
      quick ? 300 : 1000,
      seedArg ? Number(seedArg.slice(7)) : 20260522,
      process.argv.includes('--extra'),
    );
    const byKind = new Map<string, { n: number; med: number; high: number; missed: string[] }>();
    for (const p of perts) {
      const o = idx.screen({ name: p.query }, { maxMatches: 50 });
      const want = `${p.record.source}:${p.record.id}`;
      const m = o.matches.find((x) => x.entity.id === want);
      row(`perturbed ${m?.matchScore ?? '-'} ${o.riskScore} ${o.confidence} ${o.matches[0]?.entity.id ?? '-'}`);
      const k = byKind.get(p.kind) ?? { n: 0, med: 0, high: 0, missed: [] };
      k.n++;
      if (m && m.matchScore >= MEDIUM_BOUNDARY) k.med++;
      else if (k.missed.length < 8) k.missed.push(`${p.query} [${p.record.name}] ${m?.matchScore ?? '-'}`);
      if (m && m.matchScore >= HIGH_BOUNDARY) k.high++;
      byKind.set(p.kind, k);
    }
    console.log(`perturbations of real list names (UN, OFAC, EU, UK; name only, no corroboration):`);
    for (const [kind, k] of byKind) {
      console.log(`  ${kind.padEnd(34)} n=${k.n}  recall at medium ${pct(k.med, k.n)}, at high ${pct(k.high, k.n)}`);
      if (process.argv.includes('--verbose')) console.log('      missed: ' + k.missed.join(' | '));
    }
  }
  // Identifier screening: its own figures, outside the rows' digest (bench/identifiers.ts).
  if (section('identifiers')) identifierBench(idx, all);
  const rowsDigest = digest.digest('hex');
  console.log(`\noutcome digest of the ${digested} rows above: ${rowsDigest}`);
  const mix = section('mix') ? printDigest(idx, queryMix(all)) : undefined;
  const complete = onlyArg === undefined && !quick && cacheArg === undefined;
  const digests: ExpectedDigests = {
    rows: rowsDigest,
    rowsCount: digested,
    ...(mix ? { mixNamesAlone: mix.plain, mixGroupedByCluster: mix.grouped, mixWithFields: mix.fields } : {}),
  };
  if (process.argv.includes('--check') || process.argv.includes('--write-digests')) {
    if (!complete) throw new Error('--check compares a full run: leave out --only, --quick and --lists-json');
    if (process.argv.includes('--check')) {
      process.exitCode = checkDigests(digests);
      return;
    }
    writeFileSync(EXPECTED_DIGESTS_FILE, JSON.stringify(digests, null, 2) + '\n');
    console.log(`digests written to ${EXPECTED_DIGESTS_FILE}`);
  }
  if (complete) {
    writeResult({
      benchmark: 'quality',
      title: 'Matching quality (labelled data in ../shared/data/matching, all lists)',
      command: 'npm run bench:quality',
      ...(benchNote() ? { note: benchNote() } : {}),
      rows: [
        ...figures,
        { name: 'outcome digest of the labelled rows', value: rowsDigest.slice(0, 8), unit: '' },
        ...(mix
          ? [{ name: 'outcome digest of the query mix (names alone)', value: mix.plain.slice(0, 8), unit: '' }]
          : []),
      ],
    });
  }
}

/** bench/expected-digests.json: the outcome digests the engine gives today (issue 26). */
export interface ExpectedDigests {
  rows: string;
  rowsCount: number;
  mixNamesAlone?: string;
  mixGroupedByCluster?: string;
  mixWithFields?: string;
}

export const EXPECTED_DIGESTS_FILE = path.join(process.cwd(), 'bench', 'expected-digests.json');

/**
 * `--check`: 0 when every digest equals bench/expected-digests.json, 1 (naming each that moved) when
 * one does not. A change that claims the same outcomes proves it with this; a change that means to
 * move outcomes updates the file in the same commit (`--write-digests`) and says why.
 */
function checkDigests(actual: ExpectedDigests): number {
  const expected = JSON.parse(readFileSync(EXPECTED_DIGESTS_FILE, 'utf8')) as ExpectedDigests;
  const moved = (Object.keys(expected) as (keyof ExpectedDigests)[]).filter((k) => expected[k] !== actual[k]);
  if (moved.length === 0) {
    console.log(`digests check: all ${Object.keys(expected).length} equal ${EXPECTED_DIGESTS_FILE}`);
    return 0;
  }
  for (const k of moved) console.log(`digests check: ${k} moved: expected ${expected[k]}, got ${actual[k]}`);
  return 1;
}

function groupBySource(records: ListRecord[]): Map<OfficialSourceId, ListRecord[]> {
  const out = new Map<OfficialSourceId, ListRecord[]>();
  for (const r of records) {
    if (r.source === 'us_ofac_50') continue;
    const list = out.get(r.source) ?? [];
    list.push(r);
    out.set(r.source, list);
  }
  return out;
}

interface Check {
  match: boolean;
  schema: string;
  query: string;
  candidate: string;
}

/** The checks file has one shape only (match, schema, query{...}, candidate{...}); a full YAML parser is not needed. */
function parseChecks(text: string): Check[] {
  const out: Check[] = [];
  let cur: { match: boolean; schema: string; q: Record<string, string>; c: Record<string, string> } | undefined;
  let side: 'q' | 'c' = 'q';
  const flush = (): void => {
    if (!cur) return;
    const name = (p: Record<string, string>): string =>
      p.name ?? [p.firstName, p.fatherName, p.middleName, p.lastName].filter(Boolean).join(' ');
    out.push({ match: cur.match, schema: cur.schema, query: name(cur.q), candidate: name(cur.c) });
  };
  for (const line of text.split('\n')) {
    const m = /^\s*-?\s*(\w+):\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!;
    const value = m[2]!.trim().replace(/^["']|["']$/g, '');
    if (line.trimStart().startsWith('- match:')) {
      flush();
      cur = { match: value === 'true', schema: '', q: {}, c: {} };
      continue;
    }
    if (!cur) continue;
    if (key === 'schema') cur.schema = value;
    else if (key === 'query') side = 'q';
    else if (key === 'candidate') side = 'c';
    else if (key !== 'label' && value) cur[side][key] = value;
  }
  flush();
  return out;
}

if (process.argv[1] && /quality\.(ts|js)$/.test(process.argv[1])) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
