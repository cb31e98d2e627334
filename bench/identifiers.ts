/**
 * Identifier screening figures (issues 15 and 27), part of `npm run bench:quality`
 * (`--only=identifiers`), or alone: node dist/bench/identifiers.js. Every query is checked first as
 * the API checks it (screening/identifiers-input.ts), then screened against all loaded lists:
 * 1. every identifier the list adapters read from the files (a screening type), per source and type:
 *    how many the records carry, how many the identifier index holds for that record, how many the
 *    API refuses (not even well-formed) or screens with a warning (check digit), and how many, queried
 *    under an unrelated name with the listing's own entity type, find their listing as the top party
 *    at high (ties at the top score count: one number on several rows of one party); misses printed;
 *    the company IMO numbers (a non-vessel listing, the company scheme's check digit) apart;
 * 2. 10,000 random well-formed identifiers (ship and company IMO, LEI, BIC, MMSI, 2,000 each) that
 *    no list holds, under an unrelated name: no medium or high result;
 * 3. every listed vessel's IMO number under another name ("Ocean Star"): high;
 * 4. every listed passport number written with spaces and with dashes, under the listed name: matched by it.
 * The figures go to bench/results/identifiers.json as rows of {name, value, unit, target}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { imoSchemeOf, isScreeningIdentifierType } from '../src/identifiers/identifier-rules.js';
import type { ListRecord } from '../src/lists/model.js';
import { IdentifierIndex, readIdentifiers } from '../src/matching/identifier-index.js';
import { HIGH_BOUNDARY, MatchingIndex } from '../src/matching/index.js';
import type { Match, MatchQuery, QueryIdentifier } from '../src/matching/types.js';
import { type IdentifierWarning, matchIdentifiers, validateIdentifiers } from '../src/screening/identifiers-input.js';
import { isRequestCountryCode } from '../src/identifiers/countries.js';
import { identifierMakers } from '../src/validation/identifier-draws.js';
import { rng } from './query-mix.js';

/** A name no list holds anything like. */
const UNRELATED = 'Qwxzy Vbnmkj';

/** The types whose exact match is high whatever the name (matching/decisive-identifiers.ts). */
const DECISIVE = new Set(['imo', 'mmsi', 'lei', 'bic', 'crypto_wallet', 'aircraft_serial']);

/** One figure of bench/results/identifiers.json. */
interface Figure {
  name: string;
  value: number;
  unit: string;
  target: number | null;
}

function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(2)}%`;
}
const share = (n: number, d: number): number => (d === 0 ? 0 : Math.round((10000 * n) / d) / 100);

/** The identifier as the API would pass it to the engine (with its warnings), or the API's refusal. */
function asApi(
  id: QueryIdentifier,
  entityType: MatchQuery['entityType'],
): { ids: QueryIdentifier[]; warnings: IdentifierWarning[] } | string {
  try {
    const warnings: IdentifierWarning[] = [];
    return { ids: matchIdentifiers(validateIdentifiers([id], entityType ?? null, 'identifiers', warnings)), warnings };
  } catch (error) {
    return (error as Error).message;
  }
}

const byId = (m: Match): string => m.entity.id;

interface Tally {
  printed: number;
  indexed: number;
  refused: number;
  warned: number;
  screened: number;
  topHigh: number;
}
const tally = (): Tally => ({ printed: 0, indexed: 0, refused: 0, warned: 0, screened: 0, topHigh: 0 });

/** The identifier index alone (the engine keeps its own private): which records a number reaches. */
function identifierIndexOf(records: ListRecord[]): IdentifierIndex {
  const build = IdentifierIndex.build(records, 1 << 30);
  for (;;) {
    const step = build.next();
    if (step.done) return step.value;
  }
}

export function identifierBench(idx: MatchingIndex, records: ListRecord[], resultsDir = 'bench/results'): Figure[] {
  console.log(`identifier screening (${idx.identifierCount} distinct identifiers indexed):`);
  const figures: Figure[] = [];
  const ids = identifierIndexOf(records);
  // 1. Every identifier the adapters read, per source and type.
  const perSourceType = new Map<string, Tally>();
  const perType = new Map<string, Tally>();
  const company = tally();
  let ms = 0;
  const misses: string[] = [];
  let otherMisses = 0;
  const refusals: string[] = [];
  const notIndexed: string[] = [];
  const listed = new Set<string>();
  records.forEach((r, ri) => {
    for (const id of r.identifiers) {
      const kind = id.kind;
      if (!kind || !isScreeningIdentifierType(kind) || !id.normalized) continue;
      listed.add(`${kind}:${id.normalized}`);
      const isCompany = kind === 'imo' && r.entityType !== 'vessel' && imoSchemeOf(id.normalized) === 'company';
      const tallies = [`${r.source}\t${kind}`, kind].map((k, i) => {
        const map = i === 0 ? perSourceType : perType;
        const t = map.get(k) ?? tally();
        map.set(k, t);
        return t;
      });
      if (isCompany) tallies.push(company);
      const add = (field: keyof Tally): void => tallies.forEach((t) => t[field]++);
      add('printed');
      if (ids.recordsWith(readIdentifiers([{ type: kind, value: id.normalized }])).has(ri)) add('indexed');
      else if (notIndexed.length < 10) notIndexed.push(`not indexed: ${r.source}:${r.id} ${kind} "${id.value}"`);
      const api = asApi(
        {
          type: kind,
          value: id.value,
          // A country a request can name (not the lists' YU or FX): a user sends RS or FR, or none.
          ...(id.country && isRequestCountryCode(id.country) ? { country: id.country } : {}),
          ...(id.currency ? { currency: id.currency } : {}),
        },
        r.entityType,
      );
      if (typeof api === 'string') {
        add('refused');
        if (refusals.length < 20) refusals.push(`refused: ${r.source}:${r.id} ${kind} "${id.value}": ${api}`);
        continue;
      }
      if (api.warnings.length > 0) add('warned');
      add('screened');
      const t0 = performance.now();
      const o = idx.screen({ name: UNRELATED, entityType: r.entityType, identifiers: api.ids }, { maxMatches: 50 });
      ms += performance.now() - t0;
      const want = `${r.source}:${r.id}`;
      const best = o.matches[0]?.matchScore ?? 0;
      const ok = best >= HIGH_BOUNDARY && o.matches.some((m) => byId(m) === want && m.matchScore === best);
      if (ok) add('topHigh');
      else if (DECISIVE.has(kind) ? misses.length < 60 : otherMisses++ < 10)
        misses.push(
          `missed: ${want} (${r.entityType}) ${kind} "${id.value}" -> ${o.matches[0] ? `${byId(o.matches[0])} ${o.matches[0].matchScore}` : 'nothing'}${o.matches.find((m) => byId(m) === want) ? `; the listing ${o.matches.find((m) => byId(m) === want)!.matchScore}` : ''}`,
        );
    }
  });
  const all = [...perType.values()].reduce((a, t) => {
    for (const k of Object.keys(a) as (keyof Tally)[]) a[k] += t[k];
    return a;
  }, tally());
  const decisive = [...perType]
    .filter(([k]) => DECISIVE.has(k))
    .reduce((a, [, t]) => {
      for (const k of Object.keys(a) as (keyof Tally)[]) a[k] += t[k];
      return a;
    }, tally());
  console.log(
    `  every identifier read from the lists (${all.printed}; ${all.indexed} indexed, ${all.refused} refused by the API as malformed, ${all.warned} screened with a warning), under an unrelated name with the listing's entity type: top party at high ${pct(all.topHigh, all.screened)} (${all.topHigh}/${all.screened}); decisive types ${pct(decisive.topHigh, decisive.screened)} (${decisive.topHigh}/${decisive.screened}); ${(ms / Math.max(1, all.screened)).toFixed(3)} ms a query`,
  );
  console.log(
    `  company IMO numbers (non-vessel listings, company check digit): top party at high ${pct(company.topHigh, company.screened)} (${company.topHigh}/${company.screened})`,
  );
  console.log('    per type (top at high / screened; refused; warned):');
  for (const [k, t] of [...perType].sort((a, b) => b[1].printed - a[1].printed))
    console.log(
      `      ${k}${DECISIVE.has(k) ? ' (decisive)' : ''}: ${t.topHigh}/${t.screened}; ${t.refused} refused; ${t.warned} warned`,
    );
  console.log('    per source and type (read / indexed):');
  const sources = [...new Set([...perSourceType.keys()].map((k) => k.split('\t')[0]!))].sort();
  for (const source of sources)
    console.log(
      `      ${source}: ` +
        [...perSourceType]
          .filter(([k]) => k.startsWith(`${source}\t`))
          .sort((a, b) => b[1].printed - a[1].printed)
          .map(([k, t]) => `${k.split('\t')[1]} ${t.printed}/${t.indexed}`)
          .join(', '),
    );
  for (const m of [...notIndexed, ...misses, ...refusals]) console.log(`    ${m}`);
  figures.push(
    { name: 'identifiers read from the lists', value: all.printed, unit: 'identifiers', target: null },
    { name: 'identifiers read and indexed', value: share(all.indexed, all.printed), unit: '%', target: 100 },
    {
      name: 'decisive identifiers (imo, mmsi, lei, bic, crypto_wallet, aircraft_serial) under an unrelated name: listing top at high',
      value: share(decisive.topHigh, decisive.screened),
      unit: '%',
      target: 100,
    },
    {
      name: 'company IMO numbers under an unrelated name: listing top at high',
      value: share(company.topHigh, company.screened),
      unit: '%',
      target: 100,
    },
    { name: 'company IMO numbers screened', value: company.screened, unit: 'identifiers', target: null },
    {
      name: 'all identifiers under an unrelated name: listing top at high',
      value: share(all.topHigh, all.screened),
      unit: '%',
      target: null,
    },
    { name: 'identifiers refused by the API as malformed', value: all.refused, unit: 'identifiers', target: null },
    { name: 'identifiers screened with a warning', value: all.warned, unit: 'identifiers', target: null },
  );
  for (const [k, t] of [...perType].sort((a, b) => a[0].localeCompare(b[0])))
    figures.push({
      name: `${k} under an unrelated name: listing top at high`,
      value: share(t.topHigh, t.screened),
      unit: '%',
      target: DECISIVE.has(k) ? 100 : null,
    });
  for (const [k, t] of [...perSourceType].sort((a, b) => a[0].localeCompare(b[0]))) {
    const [source, type] = k.split('\t') as [string, string];
    figures.push(
      { name: `${source} ${type} read`, value: t.printed, unit: 'identifiers', target: null },
      { name: `${source} ${type} indexed`, value: t.indexed, unit: 'identifiers', target: t.printed },
    );
  }

  // 2. Random well-formed identifiers no list holds.
  const makers = identifierMakers(rng(27), { companyImo: true });
  let made = 0;
  let held = 0;
  let flagged = 0;
  let hits = 0;
  let raised = 0;
  const hitList: string[] = [];
  for (const { type, make, entityType } of makers) {
    // 2,000 of each that no list holds and the API takes without a warning (others are drawn again).
    for (let kept = 0; kept < 2000;) {
      const value = make();
      const api = asApi({ type, value }, entityType);
      if (typeof api === 'string' || api.warnings.length > 0) {
        flagged++;
        if (hitList.length < 10) hitList.push(`drawn but not clean: ${typeof api === 'string' ? api : value}`);
        continue;
      }
      if (listed.has(`${type}:${api.ids[0]!.value}`)) {
        held++;
        continue;
      }
      made++;
      kept++;
      const o = idx.screen({ name: UNRELATED, entityType, identifiers: api.ids }, { floor: 0, maxMatches: 50 });
      const found = o.matches.filter((m) => m.explanation.corroboration.identifier?.outcome === 'match');
      hits += found.length;
      if (o.riskLevel !== 'low') raised++;
      if ((found.length || o.riskLevel !== 'low') && hitList.length < 10)
        hitList.push(`${type} ${value} -> ${o.riskLevel} ${found.map(byId).join(', ')}`);
    }
  }
  console.log(
    `  ${made} random well-formed identifiers no list holds (ship and company imo, lei, bic, mmsi; ${held} drawn that a list holds, ${flagged} refused or warned, drawn again): ${raised} medium or high, ${hits} identifier hits`,
  );
  for (const h of hitList) console.log(`    ${h}`);
  figures.push(
    { name: 'random well-formed identifiers no list holds', value: made, unit: 'identifiers', target: null },
    {
      name: 'random well-formed identifiers no list holds: medium or high results',
      value: raised,
      unit: 'screenings',
      target: 0,
    },
  );

  // 3. Every listed vessel renamed.
  let vessels = 0;
  let high = 0;
  const lows: string[] = [];
  for (const r of records) {
    if (r.entityType !== 'vessel') continue;
    const imo = r.identifiers.find((i) => i.kind === 'imo' && i.valid !== false);
    if (!imo) continue;
    const api = asApi({ type: 'imo', value: imo.value }, 'vessel');
    if (typeof api === 'string') continue;
    vessels++;
    const o = idx.screen({ name: 'Ocean Star', entityType: 'vessel', identifiers: api.ids });
    const m = o.matches.find((x) => byId(x) === `${r.source}:${r.id}`);
    if (m && m.matchScore >= 80 && o.riskLevel === 'high') high++;
    else if (lows.length < 10) lows.push(`${r.source}:${r.id} ${r.name} ${imo.value} -> ${m?.matchScore ?? '-'}`);
  }
  console.log(
    `  listed vessels renamed "Ocean Star", same IMO number: high ${pct(high, vessels)} (${high}/${vessels})`,
  );
  for (const l of lows) console.log(`    ${l}`);
  figures.push({
    name: 'listed vessels renamed, same IMO number: high',
    value: share(high, vessels),
    unit: '%',
    target: 100,
  });

  // 4. Passport numbers written with spaces and dashes.
  let passports = 0;
  let matched = 0;
  const spaced: string[] = [];
  for (const r of records) {
    for (const id of r.identifiers) {
      if (id.kind !== 'passport' || !id.normalized || id.normalized.length < 4) continue;
      for (const sep of [' ', '-']) {
        const value = id.normalized.replace(/(.{3})(?=.)/g, `$1${sep}`);
        const api = asApi({ type: 'passport', value }, 'person');
        if (typeof api === 'string') continue;
        passports++;
        const o = idx.screen({ name: r.name, identifiers: api.ids }, { maxMatches: 50 });
        const m = o.matches.find((x) => byId(x) === `${r.source}:${r.id}`);
        if (m?.explanation.corroboration.identifier?.outcome === 'match') matched++;
        else if (spaced.length < 10) spaced.push(`${r.source}:${r.id} "${value}"`);
      }
    }
  }
  console.log(
    `  listed passport numbers written with spaces or dashes, under the listed name: matched ${pct(matched, passports)} (${matched}/${passports})`,
  );
  for (const s of spaced) console.log(`    ${s}`);
  figures.push({
    name: 'listed passport numbers written with spaces or dashes, under the listed name: matched by the number',
    value: share(matched, passports),
    unit: '%',
    target: 100,
  });
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, 'identifiers.json');
  writeFileSync(file, JSON.stringify(figures, null, 2) + '\n');
  console.log(`  figures written to ${file}`);
  return figures;
}

if (process.argv[1] && /identifiers\.(ts|js)$/.test(process.argv[1])) {
  // Not a top-level await: quality.js imports this module, which must have finished evaluating.
  import('./quality.js')
    .then(async ({ loadAllLists }) => {
      const all = [...(await loadAllLists()).values()].flat();
      identifierBench(MatchingIndex.build(all), all);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}
