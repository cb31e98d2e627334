import { availableParallelism, cpus, hostname, platform, release, totalmem } from 'node:os';
import type { ListRecord, SourceId } from '../lists/index.js';
import { HIGH_BOUNDARY, type MatchQuery, MEDIUM_BOUNDARY, type QueryIdentifier } from '../matching/index.js';
import { isRequestCountryCode, isScreeningIdentifierType } from '../identifiers/index.js';
import { validateIdentifiers } from '../screening/index.js';
import type { EngineAnswer, ValidationEngine } from './engine.js';
import { identifierMakers } from './identifier-draws.js';
import { negativeNames } from './negatives.js';
import { perturbTools, perturbWith, validationKinds } from './perturbations.js';
import { SCRIPTS, type Script, foldedWords, scriptOf } from './scripts.js';
import { rng } from './seeded.js';

/**
 * A validation run (issue 31): the deployment's engine screened against its own lists in force, in
 * five parts, each a question an examiner asks of a screening system.
 *   1. Self-screen: does every listed name (primary and aliases) find its own listing?
 *   2. Perturbation recall: does a listed name still find its listing when written differently?
 *   3. Below the line: how many innocent people, written in their own scripts, raise an alert?
 *   4. Identifiers: is every printed identifier found, and no random valid one?
 *   5. Latency of the engine on this machine.
 * The figures are plain data (ValidationFigures); report.ts judges, signs and renders them.
 */

export interface Cutoffs {
  /** A match at or above this score counts as found at medium (the deployment's boundary: 50). */
  medium: number;
  high: number;
}

export interface RunSizes {
  /** Listed names self-screened; Infinity: all of them. */
  selfScreen: number;
  perturbationsPerKind: number;
  negatives: number;
  /** Listed identifiers screened; Infinity: all of them. */
  listedIdentifiers: number;
  randomIdentifiersPerType: number;
  latencySamples: number;
}

export const FULL_SIZES: RunSizes = {
  selfScreen: Infinity,
  perturbationsPerKind: 1000,
  negatives: 20_000,
  listedIdentifiers: Infinity,
  randomIdentifiersPerType: 250,
  latencySamples: 1000,
};

export const QUICK_SIZES: RunSizes = {
  selfScreen: 2000,
  perturbationsPerKind: 100,
  negatives: 2000,
  listedIdentifiers: 500,
  randomIdentifiersPerType: 25,
  latencySamples: 200,
};

export const DEFAULT_SEED = 20260522;

export interface ValidationInput {
  records: ListRecord[];
  quick: boolean;
  seed: number;
  cutoffs: Cutoffs;
  /** The deployment's reporting floor (MATCH_FLOOR): matches below it are not reported. */
  floor: number;
  sizes?: Partial<RunSizes>;
  /** Entity ids self-screened in full before the sample (an activation's new and changed entries). */
  focus?: readonly string[];
}

export interface Progress {
  phase: Phase;
  done: number;
  total: number;
}

export type Phase = 'self-screen' | 'perturbations' | 'negatives' | 'identifiers' | 'latency';

export interface ValidationDeps {
  engine: ValidationEngine;
  /** Timed one query at a time for the latency figures (default: engine). */
  latencyEngine?: ValidationEngine;
  /** Queries in flight at once. */
  concurrency?: number;
  /** Awaited between groups of queries: a server slows the run while interactive requests wait. */
  pace?: () => Promise<void>;
  onProgress?: (progress: Progress) => void;
  now?: () => number;
}

export interface RecallRow {
  key: string;
  names: number;
  found: number;
  top: number;
}

export interface SelfScreenMiss {
  entityId: string;
  source: string;
  entityType: string;
  name: string;
  /** primary, or the alias kind (aka, fka...). */
  nameKind: string;
  /** strong, or weak (a publisher's "low quality" alias). */
  quality: string;
  ownScore: number | null;
  topId: string | null;
  topScore: number | null;
}

export interface SelfScreenFigures {
  names: number;
  found: number;
  top: number;
  bySource: RecallRow[];
  byType: RecallRow[];
  /** Strong names and weak aliases (a publisher's "low quality" a.k.a.) apart. */
  byQuality: RecallRow[];
  /** Names whose own listing is not found at medium: every one. */
  misses: SelfScreenMiss[];
  /** Names found but not as the top party (another party scored higher): every one. */
  notTop: SelfScreenMiss[];
  /** Entity ids of the focus (an activation's new entries) that were not all found. */
  focusMissed: string[];
  /** Names and listings of the focus (an activation's new and changed entries). */
  focusNames: number;
  focusEntities: number;
}

export interface KindFigures {
  kind: string;
  n: number;
  medium: number;
  high: number;
  /** Up to 20 of the perturbed names not found at medium. */
  misses: { query: string; listed: string; entityId: string; ownScore: number | null }[];
}

export interface ScriptFigures {
  script: Script;
  n: number;
  medium: number;
  high: number;
  mediumWithBirthDate: number;
  highWithBirthDate: number;
  /** Alerts at medium (name only) on a name that is, folded, the listed name that matched: counted in medium too. */
  namesakes: number;
}

export interface NegativeFigures {
  size: number;
  locales: number;
  byScript: ScriptFigures[];
  total: ScriptFigures;
  /** The 30 highest-scoring alerts (name only), namesakes marked. */
  alerts: { locale: string; name: string; score: number; matchedId: string; matchedName: string; namesake: boolean }[];
}

export interface IdentifierFigures {
  listed: {
    tried: number;
    found: number;
    refused: number;
    misses: { entityId: string; type: string; value: string; topId: string | null }[];
  };
  random: { tried: number; hits: number; examples: { type: string; value: string; matchedId: string }[] };
}

export interface LatencyFigures {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
}

export interface Machine {
  hostname: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
}

export interface ValidationFigures {
  quick: boolean;
  seed: number;
  cutoffs: Cutoffs;
  sizes: RunSizes;
  selfScreen: SelfScreenFigures;
  perturbations: KindFigures[];
  negatives: NegativeFigures;
  identifiers: IdentifierFigures;
  latency: LatencyFigures;
  machine: Machine;
  durationMs: number;
}

/** A name no list holds anything like: the identifier checks screen numbers under it. */
const UNRELATED = 'Qwxzy Vbnmkj';

interface SelfName {
  record: ListRecord;
  name: string;
  nameKind: string;
  quality: string;
}

/** Every name of every record, primary then aliases, each distinct name of a record once. */
export function listedNames(records: readonly ListRecord[]): SelfName[] {
  const out: SelfName[] = [];
  for (const record of records) {
    if (record.source === 'us_ofac_50') continue;
    const seen = new Set<string>();
    const add = (name: string, nameKind: string, quality: string) => {
      const key = name.trim();
      if (key === '' || seen.has(key)) return;
      seen.add(key);
      out.push({ record, name: key, nameKind, quality });
    };
    add(record.name, 'primary', 'strong');
    for (const alias of record.aliases) add(alias.name, alias.kind, alias.quality);
  }
  return out;
}

/** `n` of `xs` drawn without replacement in a seeded order (all of them, in their order, when n >= length). */
function sample<T>(xs: readonly T[], n: number, rand: () => number): T[] {
  if (n >= xs.length) return [...xs];
  const copy = [...xs];
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rand() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, n);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

function machine(): Machine {
  return {
    hostname: hostname(),
    platform: `${platform()} ${release()}`,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
  };
}

/** Runs `fn` over `items` with at most `limit` calls in flight, in order of start; reports progress. */
async function each<T>(
  items: readonly T[],
  fn: (item: T) => Promise<void>,
  deps: ValidationDeps,
  phase: Phase,
): Promise<void> {
  const limit = Math.max(1, deps.concurrency ?? 16);
  const total = items.length;
  let next = 0;
  let done = 0;
  let lastReport = 0;
  deps.onProgress?.({ phase, done: 0, total });
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      if (i % 64 === 0 && deps.pace) await deps.pace();
      await fn(items[i]!);
      done++;
      if (done - lastReport >= 256 || done === total) {
        lastReport = done;
        deps.onProgress?.({ phase, done, total });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, Math.max(1, items.length)) }, worker));
}

function ownMatch(answer: EngineAnswer, entityId: string) {
  return answer.matches.find((m) => m.id === entityId);
}

function topScore(answer: EngineAnswer): number | null {
  return answer.matches.reduce<number | null>((best, m) => (best === null || m.score > best ? m.score : best), null);
}

export async function runValidation(input: ValidationInput, deps: ValidationDeps): Promise<ValidationFigures> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const sizes: RunSizes = { ...(input.quick ? QUICK_SIZES : FULL_SIZES), ...input.sizes };
  const options = { floor: Math.min(input.floor, input.cutoffs.medium), maxMatches: 50 };
  const { cutoffs } = input;
  const rand = rng(input.seed);

  // 1. Self-screen.
  const all = listedNames(input.records);
  const focus = new Set(input.focus ?? []);
  const focused = all.filter((n) => focus.has(`${n.record.source}:${n.record.id}`));
  const rest = focus.size > 0 ? all.filter((n) => !focus.has(`${n.record.source}:${n.record.id}`)) : all;
  const chosen = [...focused, ...sample(rest, sizes.selfScreen, rand)];
  const bySource = new Map<string, RecallRow>();
  const byType = new Map<string, RecallRow>();
  const byQuality = new Map<string, RecallRow>();
  const row = (map: Map<string, RecallRow>, key: string) => {
    let r = map.get(key);
    if (!r) map.set(key, (r = { key, names: 0, found: 0, top: 0 }));
    return r;
  };
  const misses: SelfScreenMiss[] = [];
  const notTop: SelfScreenMiss[] = [];
  const focusMissed = new Set<string>();
  let found = 0;
  let top = 0;
  await each(
    chosen,
    async (n) => {
      const entityId = `${n.record.source}:${n.record.id}`;
      const answer = await deps.engine({ name: n.name, entityType: n.record.entityType }, options);
      const own = ownMatch(answer, entityId);
      const best = topScore(answer);
      const isFound = own !== undefined && own.score >= cutoffs.medium;
      // The top party: a match at the top score is this listing or the same party on another list.
      const isTop = isFound && answer.matches.some((m) => m.score === best && m.cluster === own.cluster);
      const rows = [row(bySource, n.record.source), row(byType, n.record.entityType), row(byQuality, n.quality)];
      for (const r of rows) {
        r.names++;
        if (isFound) r.found++;
        if (isTop) r.top++;
      }
      if (isFound) found++;
      if (isTop) top++;
      if (!isTop) {
        const leader = answer.matches.find((m) => m.score === best);
        const miss: SelfScreenMiss = {
          entityId,
          source: n.record.source,
          entityType: n.record.entityType,
          name: n.name,
          nameKind: n.nameKind,
          quality: n.quality,
          ownScore: own?.score ?? null,
          topId: leader?.id ?? null,
          topScore: best,
        };
        (isFound ? notTop : misses).push(miss);
        if (!isFound && focus.has(entityId)) focusMissed.add(entityId);
      }
    },
    deps,
    'self-screen',
  );
  const byKey = (a: RecallRow, b: RecallRow) => a.key.localeCompare(b.key);
  const byEntity = (a: SelfScreenMiss, b: SelfScreenMiss) =>
    a.entityId.localeCompare(b.entityId) || a.name.localeCompare(b.name);

  // 2. Perturbations.
  const tools = perturbTools(input.seed);
  const perturbed = perturbWith(
    input.records.filter((r) => r.source !== 'us_ofac_50'),
    sizes.perturbationsPerKind,
    tools,
    validationKinds(tools),
  );
  const kinds = new Map<string, KindFigures>();
  for (const [kind] of validationKinds(tools)) kinds.set(kind, { kind, n: 0, medium: 0, high: 0, misses: [] });
  await each(
    perturbed,
    async (p) => {
      const entityId = `${p.record.source}:${p.record.id}`;
      const answer = await deps.engine({ name: p.query }, options);
      const own = ownMatch(answer, entityId);
      const k = kinds.get(p.kind)!;
      k.n++;
      if (own && own.score >= cutoffs.medium) k.medium++;
      else if (k.misses.length < 20)
        k.misses.push({ query: p.query, listed: p.record.name, entityId, ownScore: own?.score ?? null });
      if (own && own.score >= cutoffs.high) k.high++;
    },
    deps,
    'perturbations',
  );

  // 3. Below the line.
  const negatives = negativeNames(sizes.negatives, input.seed);
  const tally = (script: Script): ScriptFigures => ({
    script,
    n: 0,
    medium: 0,
    high: 0,
    mediumWithBirthDate: 0,
    highWithBirthDate: 0,
    namesakes: 0,
  });
  const perScript = new Map<Script, ScriptFigures>(SCRIPTS.map((s) => [s, tally(s)]));
  const total = tally('other');
  const alerts: NegativeFigures['alerts'] = [];
  await each(
    negatives,
    async (g) => {
      const bare = await deps.engine({ name: g.name }, options);
      const full = await deps.engine({ name: g.name, birthDate: g.birthDate, entityType: 'person' }, options);
      const leader = bare.matches[0];
      const namesake = leader !== undefined && foldedWords(g.name) === foldedWords(leader.matchedName);
      for (const t of [perScript.get(scriptOf(g.name))!, total]) {
        t.n++;
        if (bare.riskScore >= cutoffs.medium) t.medium++;
        if (bare.riskScore >= cutoffs.high) t.high++;
        if (full.riskScore >= cutoffs.medium) t.mediumWithBirthDate++;
        if (full.riskScore >= cutoffs.high) t.highWithBirthDate++;
        if (bare.riskScore >= cutoffs.medium && namesake) t.namesakes++;
      }
      if (bare.riskScore >= cutoffs.medium && leader)
        alerts.push({
          locale: g.locale,
          name: g.name,
          score: bare.riskScore,
          matchedId: leader.id,
          matchedName: leader.matchedName,
          namesake,
        });
    },
    deps,
    'negatives',
  );
  alerts.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));

  // 4. Identifiers.
  const listedIds: { entityId: string; type: string; value: string; query: QueryIdentifier[] }[] = [];
  const held = new Set<string>();
  let refused = 0;
  for (const r of input.records) {
    for (const id of r.identifiers) {
      const kind = id.kind;
      if (!kind || !isScreeningIdentifierType(kind) || !id.normalized) continue;
      held.add(`${kind}:${id.normalized}`);
      if (id.valid === false) continue;
      try {
        const checked = validateIdentifiers(
          [
            {
              type: kind,
              value: id.value,
              ...(id.country && isRequestCountryCode(id.country) ? { country: id.country } : {}),
              ...(id.currency ? { currency: id.currency } : {}),
            },
          ],
          null,
        );
        listedIds.push({
          entityId: `${r.source}:${r.id}`,
          type: kind,
          value: id.value,
          query: checked.map((c) => ({
            type: c.type,
            value: c.value,
            ...(c.country ? { country: c.country } : {}),
            ...(c.currency ? { currency: c.currency } : {}),
          })),
        });
      } catch {
        refused++;
      }
    }
  }
  const idFigures: IdentifierFigures = {
    listed: { tried: 0, found: 0, refused, misses: [] },
    random: { tried: 0, hits: 0, examples: [] },
  };
  await each(
    sample(listedIds, sizes.listedIdentifiers, rand),
    async (l) => {
      const answer = await deps.engine({ name: UNRELATED, identifiers: l.query }, options);
      const own = ownMatch(answer, l.entityId);
      idFigures.listed.tried++;
      if (own && own.score >= (topScore(answer) ?? 0)) idFigures.listed.found++;
      else
        idFigures.listed.misses.push({
          entityId: l.entityId,
          type: l.type,
          value: l.value,
          topId: answer.matches[0]?.id ?? null,
        });
    },
    deps,
    'identifiers',
  );
  const drawn: QueryIdentifier[] = [];
  const draw = rng(input.seed ^ 0x1d);
  for (const [type, make] of identifierMakers(draw)) {
    for (
      let kept = 0, tries = 0;
      kept < sizes.randomIdentifiersPerType && tries < sizes.randomIdentifiersPerType * 20;
      tries++
    ) {
      const value = make();
      try {
        const [checked] = validateIdentifiers([{ type, value }], null);
        if (!checked || held.has(`${type}:${checked.normalized}`)) continue;
        drawn.push({ type, value: checked.value });
        kept++;
      } catch {
        // a draw its check refuses is drawn again
      }
    }
  }
  await each(
    drawn,
    async (id) => {
      const answer = await deps.engine({ name: UNRELATED, identifiers: [id] }, { ...options, floor: 0 });
      idFigures.random.tried++;
      const hits = answer.matches.filter((m) => m.byIdentifier);
      idFigures.random.hits += hits.length;
      for (const h of hits)
        if (idFigures.random.examples.length < 20)
          idFigures.random.examples.push({ type: id.type, value: id.value, matchedId: h.id });
    },
    deps,
    'identifiers',
  );

  // 5. Latency: one query at a time, listed names and their perturbations alike.
  const timed = sample(
    [...all.map((n) => ({ name: n.name }) as MatchQuery), ...perturbed.map((p) => ({ name: p.query }) as MatchQuery)],
    sizes.latencySamples,
    rand,
  );
  const latencyEngine = deps.latencyEngine ?? deps.engine;
  const times: number[] = [];
  await each(
    timed,
    async (q) => {
      const t0 = now();
      await latencyEngine(q, options);
      times.push(now() - t0);
    },
    { ...deps, concurrency: 1 },
    'latency',
  );
  times.sort((a, b) => a - b);

  return {
    quick: input.quick,
    seed: input.seed,
    cutoffs,
    sizes,
    selfScreen: {
      names: chosen.length,
      found,
      top,
      bySource: [...bySource.values()].sort(byKey),
      byType: [...byType.values()].sort(byKey),
      byQuality: [...byQuality.values()].sort(byKey),
      misses: misses.sort(byEntity),
      notTop: notTop.sort(byEntity),
      focusMissed: [...focusMissed].sort(),
      focusNames: focused.length,
      focusEntities: new Set(focused.map((n) => `${n.record.source}:${n.record.id}`)).size,
    },
    perturbations: [...kinds.values()],
    negatives: {
      size: negatives.length,
      locales: new Set(negatives.map((n) => n.locale)).size,
      byScript: [...perScript.values()].filter((s) => s.n > 0),
      total: { ...total, script: 'other' },
      alerts: alerts.slice(0, 30),
    },
    identifiers: idFigures,
    latency: {
      samples: times.length,
      p50Ms: round(percentile(times, 50)),
      p99Ms: round(percentile(times, 99)),
      meanMs: round(times.reduce((s, t) => s + t, 0) / Math.max(1, times.length)),
    },
    machine: machine(),
    durationMs: Math.round(now() - started),
  };
}

export const DEFAULT_CUTOFFS: Cutoffs = { medium: MEDIUM_BOUNDARY, high: HIGH_BOUNDARY };

/** The sources a run covered, for its context. */
export function sourcesOf(records: readonly ListRecord[]): SourceId[] {
  return [...new Set(records.map((r) => r.source))].sort();
}
