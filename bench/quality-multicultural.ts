/**
 * The multicultural negative set of the quality benchmark: person names generated with @faker-js/faker
 * from every faker locale that has person names of its own (first or last names in the locale's data,
 * not inherited from English), an equal share per locale, as faker writes them (native script, titles
 * and suffixes). None of them is meant to be a listed party, so every medium or high result is a false
 * alert, except a true namesake: a query whose words, folded, are the words of the listed name that
 * matched (counted, and also shown apart).
 */
import * as fakerModule from '@faker-js/faker';
import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { HIGH_BOUNDARY, MEDIUM_BOUNDARY, type MatchingIndex } from '../src/matching/index.js';
import { SCRIPTS, type Script, isNamesake, scriptOf } from '../src/validation/scripts.js';
import { rng } from './query-mix.js';

export const MULTICULTURAL_SIZE = 50_000;
export const DEFAULT_MULTICULTURAL_SEED = 20260522;

export interface GeneratedName {
  locale: string;
  name: string;
  birthDate: string;
}

/** The faker instances (each with its fallback chain to English and base) whose locale has person names. */
function personLocales(): [string, Faker][] {
  const all = fakerModule.allLocales as Record<string, LocaleDefinition>;
  const exported = fakerModule as unknown as Record<string, unknown>;
  const byLower = new Map(Object.keys(exported).map((k) => [k.toLowerCase(), k]));
  const out: [string, Faker][] = [];
  for (const locale of Object.keys(all).sort()) {
    const person = all[locale]?.person;
    if (!person || (!person.first_name && !person.last_name)) continue;
    const key = byLower.get(`faker${locale.toLowerCase()}`);
    const instance = key ? (exported[key] as Faker) : undefined;
    if (instance) out.push([locale, instance]);
  }
  return out;
}

/** `size` names, an equal share per locale (the remainder to the first locales), reproducible by seed. */
export function multiculturalNames(size: number, seed: number): GeneratedName[] {
  const locales = personLocales();
  const rand = rng(seed ^ 0x5eed);
  const out: GeneratedName[] = [];
  locales.forEach(([locale, faker], i) => {
    const share = Math.floor(size / locales.length) + (i < size % locales.length ? 1 : 0);
    faker.seed(seed + i * 1_000_003);
    for (let k = 0; k < share; k++) {
      const name = faker.person.fullName();
      const year = 1935 + Math.floor(rand() * 70);
      const month = 1 + Math.floor(rand() * 12);
      const day = 1 + Math.floor(rand() * 28);
      const birthDate = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      out.push({ locale, name, birthDate });
    }
  });
  return out;
}

interface Tally {
  n: number;
  med: number;
  high: number;
  medDob: number;
  highDob: number;
}
const tally = (): Tally => ({ n: 0, med: 0, high: 0, medDob: 0, highDob: 0 });

function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(2)}%`;
}

export interface MulticulturalResult {
  nameOnly: { medium: number; high: number };
  withFields: { medium: number; high: number };
}

/**
 * Screen every generated name alone and with its birth date and entityType person; print the
 * false-alert rates overall and per script, the 20 highest-scoring false hits with their explanation,
 * and the true namesakes apart. `row` receives one line per name for the outcome digest.
 */
export function multiculturalBench(
  idx: MatchingIndex,
  seed: number,
  size: number,
  row: (line: string) => void,
  verbose = false,
): MulticulturalResult {
  const t0 = performance.now();
  const names = multiculturalNames(size, seed);
  const total = tally();
  const perScript = new Map<Script, Tally>(SCRIPTS.map((s) => [s, tally()]));
  const namesakes: string[] = [];
  let namesakeMed = 0;
  const top: { score: number; line: string }[] = [];
  for (const g of names) {
    const bare = idx.screen({ name: g.name });
    const full = idx.screen({ name: g.name, birthDate: g.birthDate, entityType: 'person' });
    row(
      `multi ${bare.riskScore} ${bare.confidence} ${bare.matches[0]?.entity.id ?? '-'} ${full.riskScore} ${full.matches[0]?.entity.id ?? '-'}`,
    );
    const t = perScript.get(scriptOf(g.name))!;
    for (const x of [t, total]) {
      x.n++;
      if (bare.riskScore >= MEDIUM_BOUNDARY) x.med++;
      if (bare.riskScore >= HIGH_BOUNDARY) x.high++;
      if (full.riskScore >= MEDIUM_BOUNDARY) x.medDob++;
      if (full.riskScore >= HIGH_BOUNDARY) x.highDob++;
    }
    if (bare.riskScore < MEDIUM_BOUNDARY) continue;
    const m = bare.matches[0]!;
    const line = `${bare.riskScore.toFixed(1)} [${g.locale}] ${g.name} -> ${m.entity.name} (${m.entity.entityType}, ${m.entity.id}): ${m.explanation.summary}`;
    if (isNamesake(g.name, bare)) {
      namesakeMed++;
      namesakes.push(line);
      continue;
    }
    top.push({ score: bare.riskScore, line });
  }
  const secs = ((performance.now() - t0) / 1000).toFixed(0);
  console.log(
    `multicultural negatives (${names.length} faker person names, ${personLocales().length} locales, seed ${seed}; ${secs} s):`,
  );
  console.log(
    `  ${'script'.padEnd(14)} ${'names'.padStart(6)}  name only: medium+   high   with birth date + type: medium+   high`,
  );
  for (const [s, x] of [...perScript, ['all' as Script, total] as const]) {
    if (x.n === 0) continue;
    console.log(
      `  ${s.padEnd(14)} ${String(x.n).padStart(6)}  ${pct(x.med, x.n).padStart(18)} ${pct(x.high, x.n).padStart(6)}  ${pct(x.medDob, x.n).padStart(31)} ${pct(x.highDob, x.n).padStart(6)}`,
    );
  }
  console.log(
    `  true namesakes (query = listed name after folding): ${namesakeMed} of the ${total.med} name-only alerts (${pct(total.med - namesakeMed, total.n)} without them)`,
  );
  top.sort((a, b) => b.score - a.score);
  console.log('  highest-scoring false hits (name only):');
  for (const t of top.slice(0, verbose ? 2000 : 20)) console.log(`    ${t.line}`);
  if (namesakes.length > 0) {
    console.log('  true namesakes:');
    for (const l of namesakes.slice(0, 20)) console.log(`    ${l}`);
  }
  return {
    nameOnly: { medium: total.med / total.n, high: total.high / total.n },
    withFields: { medium: total.medDob / total.n, high: total.highDob / total.n },
  };
}
