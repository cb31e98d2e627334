/**
 * Identifier screening figures (issue 15), part of `npm run bench:quality` (`--only=identifiers`),
 * or alone: node dist/bench/identifiers.js. Every query is checked first as the API checks it
 * (screening/identifiers-input.ts), then screened against all loaded lists:
 * 1. every identifier the list files print (a screening type, passing its check as printed), under an
 *    unrelated name: its listing must be the top match (ties at the top score count: one number on
 *    several rows of one party); misses printed;
 * 2. 10,000 random identifiers with valid checks (IMO, LEI, BIC, MMSI, 2,500 each) that no list
 *    holds: no match found by an identifier;
 * 3. every listed vessel's IMO number under another name ("Ocean Star"): high;
 * 4. every listed passport number written with spaces and with dashes, under the listed name: matched by it.
 */
import { isScreeningIdentifierType } from '../src/lists/adapters/kit/identifiers.js';
import type { ListRecord } from '../src/lists/model.js';
import { MatchingIndex } from '../src/matching/index.js';
import type { Match, MatchQuery, QueryIdentifier } from '../src/matching/types.js';
import { matchIdentifiers, validateIdentifiers } from '../src/screening/identifiers-input.js';
import { isRequestCountryCode } from '../src/screening/request-country.js';
import { identifierMakers } from '../src/validation/identifier-draws.js';
import { rng } from './query-mix.js';

/** A name no list holds anything like. */
const UNRELATED = 'Qwxzy Vbnmkj';

function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(2)}%`;
}

/** The identifier as the API would pass it to the engine, or the API's refusal. */
function asApi(id: QueryIdentifier, entityType: MatchQuery['entityType']): QueryIdentifier[] | string {
  try {
    return matchIdentifiers(validateIdentifiers([id], entityType ?? null));
  } catch (error) {
    return (error as Error).message;
  }
}

const byId = (m: Match): string => m.entity.id;

export function identifierBench(idx: MatchingIndex, records: ListRecord[]): void {
  console.log(`identifier screening (${idx.identifierCount} distinct identifiers indexed):`);
  // 1. Every printed identifier under an unrelated name.
  let tried = 0;
  let top = 0;
  let first = 0;
  let refused = 0;
  let among = 0;
  let ms = 0;
  const perKind = new Map<string, { n: number; top: number }>();
  const misses: string[] = [];
  const refusals: string[] = [];
  const listed = new Set<string>();
  for (const r of records) {
    for (const id of r.identifiers) {
      const kind = id.kind;
      if (!kind || !isScreeningIdentifierType(kind) || !id.normalized) continue;
      listed.add(`${kind}:${id.normalized}`);
      if (id.valid === false) continue;
      const ids = asApi(
        {
          type: kind,
          value: id.value,
          // A country a request can name (not the lists' YU or FX): a user sends RS or FR, or none.
          ...(id.country && isRequestCountryCode(id.country) ? { country: id.country } : {}),
          ...(id.currency ? { currency: id.currency } : {}),
        },
        undefined,
      );
      if (typeof ids === 'string') {
        refused++;
        if (refusals.length < 20) refusals.push(`refused: ${r.source}:${r.id} ${kind} "${id.value}": ${ids}`);
        continue;
      }
      tried++;
      const t0 = performance.now();
      const o = idx.screen({ name: UNRELATED, identifiers: ids }, { maxMatches: 50 });
      ms += performance.now() - t0;
      const want = `${r.source}:${r.id}`;
      const best = o.matches[0]?.matchScore;
      const ok = o.matches.some((m) => byId(m) === want && m.matchScore === best);
      if (ok) top++;
      if (o.matches.some((m) => byId(m) === want)) among++;
      if (o.matches[0] && byId(o.matches[0]) === want) first++;
      const k = perKind.get(kind) ?? { n: 0, top: 0 };
      k.n++;
      if (ok) k.top++;
      perKind.set(kind, k);
      if (!ok && misses.length < 40)
        misses.push(`missed: ${want} ${kind} "${id.value}" -> ${o.matches[0] ? byId(o.matches[0]) : 'nothing'}`);
    }
  }
  console.log(
    `  every listed identifier under an unrelated name: top match ${pct(top, tried)} (${top}/${tried}; first row ${pct(first, tried)}; among the matches ${pct(among, tried)}), ${refused} refused by the API's checks; ${(ms / Math.max(1, tried)).toFixed(3)} ms a query`,
  );
  console.log(
    '    ' +
      [...perKind]
        .sort((a, b) => b[1].n - a[1].n)
        .map(([k, v]) => `${k} ${v.top}/${v.n}`)
        .join(', '),
  );
  for (const m of [...misses, ...refusals]) console.log(`    ${m}`);

  // 2. Random valid identifiers no list holds.
  const rand = rng(15);
  const makers = identifierMakers(rand);
  let made = 0;
  let held = 0;
  let hits = 0;
  let invalid = 0;
  const hitList: string[] = [];
  for (const [type, make] of makers) {
    // 2,500 of each type that no list holds (a number a list holds is drawn again).
    for (let kept = 0; kept < 2500;) {
      const value = make();
      const ids = asApi({ type, value }, undefined);
      if (typeof ids === 'string') {
        invalid++;
        if (hitList.length < 10) hitList.push(`drawn but refused: ${ids}`);
        continue;
      }
      if (listed.has(`${type}:${ids[0]!.value}`)) {
        held++;
        continue;
      }
      made++;
      kept++;
      const o = idx.screen({ name: UNRELATED, identifiers: ids }, { floor: 0, maxMatches: 50 });
      const found = o.matches.filter((m) => m.explanation.corroboration.identifier?.outcome === 'match');
      hits += found.length;
      if (found.length && hitList.length < 10) hitList.push(`${type} ${value} -> ${found.map(byId).join(', ')}`);
    }
  }
  console.log(
    `  ${made} random valid identifiers no list holds (imo, lei, bic, mmsi; ${held} drawn that a list holds, ${invalid} failing their check, skipped): ${hits} identifier hits`,
  );
  for (const h of hitList) console.log(`    ${h}`);

  // 3. Every listed vessel renamed.
  let vessels = 0;
  let high = 0;
  const lows: string[] = [];
  for (const r of records) {
    if (r.entityType !== 'vessel') continue;
    const imo = r.identifiers.find((i) => i.kind === 'imo' && i.valid !== false);
    if (!imo) continue;
    const ids = asApi({ type: 'imo', value: imo.value }, 'vessel');
    if (typeof ids === 'string') continue;
    vessels++;
    const o = idx.screen({ name: 'Ocean Star', entityType: 'vessel', identifiers: ids });
    const m = o.matches.find((x) => byId(x) === `${r.source}:${r.id}`);
    if (m && m.matchScore >= 80 && o.riskLevel === 'high') high++;
    else if (lows.length < 10) lows.push(`${r.source}:${r.id} ${r.name} ${imo.value} -> ${m?.matchScore ?? '-'}`);
  }
  console.log(
    `  listed vessels renamed "Ocean Star", same IMO number: high ${pct(high, vessels)} (${high}/${vessels})`,
  );
  for (const l of lows) console.log(`    ${l}`);

  // 4. Passport numbers written with spaces and dashes.
  let passports = 0;
  let matched = 0;
  const spaced: string[] = [];
  for (const r of records) {
    for (const id of r.identifiers) {
      if (id.kind !== 'passport' || !id.normalized || id.normalized.length < 4) continue;
      for (const sep of [' ', '-']) {
        const value = id.normalized.replace(/(.{3})(?=.)/g, `$1${sep}`);
        const ids = asApi({ type: 'passport', value }, 'person');
        if (typeof ids === 'string') continue;
        passports++;
        const o = idx.screen({ name: r.name, identifiers: ids }, { maxMatches: 50 });
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
