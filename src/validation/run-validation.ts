import type { ListRecord, SourceId } from '../lists/index.js';
import type { MatchOptions, MatchQuery } from '../matching/index.js';
import { belowTheLine } from './below-the-line.js';
import {
  type Cutoffs,
  FULL_SIZES,
  type KindFigures,
  type LatencyFigures,
  QUICK_SIZES,
  type RunSizes,
  type ValidationDeps,
  type ValidationFigures,
} from './figures.js';
import { identifierChecks } from './identifier-checks.js';
import { type Perturbed, perturbSteps, perturbTools, validationKinds } from './perturbations.js';
import { machine, ownMatch, percentile, round, samplePositions, screenEach } from './run-queries.js';
import { ListedNames, type SelfName, entityIdOf, namesOf, selfScreen } from './self-screen.js';
import { collectInTurns, rng } from './seeded.js';

/**
 * A validation run (issue 31): the deployment's engine screened against its own lists in force, in
 * five parts, each a question an examiner asks of a screening system.
 *   1. Self-screen: does every listed name (primary and aliases) find its own listing? (self-screen.ts)
 *   2. Perturbation recall: does a listed name still find its listing when written differently?
 *   3. Below the line: how many innocent people, written in their own scripts, raise an alert? (below-the-line.ts)
 *   4. Identifiers: is every printed identifier found, and no random valid one? (identifier-checks.ts)
 *   5. Latency of the engine on this machine.
 * The queries of a part go to the engine many at a time (the matching threads share them out); the
 * figures are folded from the answers in the order of the queries, so the same seed gives the same
 * figures however many threads answered. The figures are plain data (figures.ts); report.ts judges,
 * signs and renders them.
 */

export const DEFAULT_SEED = 20260522;

/** Perturbed names not found at medium shown per kind. */
const KIND_MISSES_SHOWN = 20;

export interface ValidationInput {
  records: readonly ListRecord[];
  quick: boolean;
  seed: number;
  cutoffs: Cutoffs;
  /** The deployment's reporting floor (MATCH_FLOOR): matches below it are not reported. */
  floor: number;
  /** What the screening profile gives the engine (its floor, sources, per-row floors, knobs). */
  engineOptions?: Pick<MatchOptions, 'floor' | 'sources' | 'rowFloors' | 'knobs'>;
  sizes?: Partial<RunSizes>;
  /** Entity ids self-screened in full before the sample (an activation's new and changed entries). */
  focus?: readonly string[];
}

interface PhaseRun {
  deps: ValidationDeps;
  options: MatchOptions;
  cutoffs: Cutoffs;
}

async function perturbationRecall(perturbed: Perturbed[], kindNames: string[], run: PhaseRun): Promise<KindFigures[]> {
  const kinds = new Map<string, KindFigures>();
  for (const kind of kindNames) kinds.set(kind, { kind, n: 0, medium: 0, high: 0, misses: [] });
  const owns = await screenEach(
    perturbed,
    async (p) => ownMatch(await run.deps.engine({ name: p.query }, run.options), entityIdOf(p.record))?.score ?? null,
    run.deps,
    'perturbations',
  );
  perturbed.forEach((p, at) => {
    const ownScore = owns[at]!;
    const figures = kinds.get(p.kind)!;
    figures.n++;
    if (ownScore !== null && ownScore >= run.cutoffs.medium) figures.medium++;
    else if (figures.misses.length < KIND_MISSES_SHOWN)
      figures.misses.push({ query: p.query, listed: p.record.name, entityId: entityIdOf(p.record), ownScore });
    if (ownScore !== null && ownScore >= run.cutoffs.high) figures.high++;
  });
  return [...kinds.values()];
}

/** One query at a time, timed. */
async function latency(queries: MatchQuery[], run: PhaseRun): Promise<LatencyFigures> {
  const engine = run.deps.latencyEngine ?? run.deps.engine;
  const now = run.deps.now ?? (() => performance.now());
  const times = await screenEach(
    queries,
    async (query) => {
      const startedAt = now();
      await engine(query, run.options);
      return now() - startedAt;
    },
    { ...run.deps, concurrency: 1 },
    'latency',
  );
  times.sort((a, b) => a - b);
  return {
    samples: times.length,
    p50Ms: round(percentile(times, 50)),
    p99Ms: round(percentile(times, 99)),
    meanMs: round(times.reduce((sum, t) => sum + t, 0) / Math.max(1, times.length)),
  };
}

/**
 * The names self-screened: every name of the focus's records (an activation's new and changed
 * entries), then `size` of the rest drawn in a seeded order (all of them in a full run).
 */
async function chooseNames(
  listed: ListedNames,
  records: readonly ListRecord[],
  focus: ReadonlySet<string>,
  size: number,
  rand: () => number,
  pace?: () => Promise<void>,
): Promise<{ focused: SelfName[]; sampled: SelfName[] }> {
  const focused: SelfName[] = [];
  // The numbers of the focus's names, ascending: the rest are numbered as if these were not there.
  const skipped: number[] = [];
  const inFocus = (record: ListRecord) => focus.size > 0 && focus.has(entityIdOf(record));
  records.forEach((record, r) => {
    if (!inFocus(record)) return;
    const names = namesOf(record);
    focused.push(...names);
    names.forEach((_, k) => skipped.push(listed.startOf(r) + k));
  });
  if (size >= listed.count - skipped.length) {
    const rest = function* () {
      for (const record of records) if (!inFocus(record)) yield* namesOf(record);
    };
    return { focused, sampled: await collectInTurns(rest(), pace) };
  }
  const sampled = samplePositions(listed.count - skipped.length, size, rand).map((rest) => {
    let position = rest;
    for (const focusAt of skipped) if (focusAt <= position) position++;
    return listed.at(position);
  });
  return { focused, sampled };
}

export async function runValidation(input: ValidationInput, deps: ValidationDeps): Promise<ValidationFigures> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const sizes: RunSizes = { ...(input.quick ? QUICK_SIZES : FULL_SIZES), ...input.sizes };
  const { cutoffs } = input;
  const run: PhaseRun = {
    deps,
    cutoffs,
    options: { floor: Math.min(input.floor, cutoffs.medium), ...input.engineOptions, maxMatches: 50 },
  };
  const rand = rng(input.seed);

  const listed = await ListedNames.of(input.records, deps.pace);
  const focus = new Set(input.focus ?? []);
  const { focused, sampled } = await chooseNames(listed, input.records, focus, sizes.selfScreen, rand, deps.pace);
  const self = await selfScreen({ focused, sampled, focus }, run);

  const tools = perturbTools(input.seed);
  const kinds = validationKinds(tools);
  const listedOnly = input.records.filter((r) => r.source !== 'us_ofac_50');
  const perturbed = await collectInTurns(perturbSteps(listedOnly, sizes.perturbationsPerKind, tools, kinds), deps.pace);
  const perturbations = await perturbationRecall(
    perturbed,
    kinds.map(([kind]) => kind),
    run,
  );

  const negatives = await belowTheLine(sizes.negatives, { ...run, seed: input.seed });
  const identifiers = await identifierChecks(input.records, { ...run, seed: input.seed, rand, sizes });

  // Latency: listed names and their perturbations alike, drawn from the two as if they were one list.
  const timed = samplePositions(listed.count + perturbed.length, sizes.latencySamples, rand).map((at): MatchQuery => ({
    name: at < listed.count ? listed.at(at).name : perturbed[at - listed.count]!.query,
  }));
  return {
    quick: input.quick,
    seed: input.seed,
    cutoffs,
    sizes,
    selfScreen: self,
    perturbations,
    negatives,
    identifiers,
    latency: await latency(timed, run),
    machine: machine(),
    durationMs: Math.round(now() - started),
  };
}

/** The sources a run covered, for its context. */
export function sourcesOf(records: readonly ListRecord[]): SourceId[] {
  return [...new Set(records.map((r) => r.source))].sort();
}
