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
import { machine, ownMatch, percentile, round, sample, screenEach } from './run-queries.js';
import { entityIdOf, listedNameSteps, selfScreen } from './self-screen.js';
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

  const all = await collectInTurns(listedNameSteps(input.records));
  const focus = new Set(input.focus ?? []);
  const focused = all.filter((listed) => focus.has(entityIdOf(listed.record)));
  const rest = focus.size > 0 ? all.filter((listed) => !focus.has(entityIdOf(listed.record))) : all;
  const self = await selfScreen({ focused, sampled: sample(rest, sizes.selfScreen, rand), focus }, run);

  const tools = perturbTools(input.seed);
  const kinds = validationKinds(tools);
  const listedOnly = input.records.filter((r) => r.source !== 'us_ofac_50');
  const perturbed = await collectInTurns(perturbSteps(listedOnly, sizes.perturbationsPerKind, tools, kinds));
  const perturbations = await perturbationRecall(
    perturbed,
    kinds.map(([kind]) => kind),
    run,
  );

  const negatives = await belowTheLine(sizes.negatives, { ...run, seed: input.seed });
  const identifiers = await identifierChecks(input.records, { ...run, seed: input.seed, rand, sizes });

  // Latency: listed names and their perturbations alike.
  const timed = sample(
    [
      ...all.map((listed): MatchQuery => ({ name: listed.name })),
      ...perturbed.map((p): MatchQuery => ({ name: p.query })),
    ],
    sizes.latencySamples,
    rand,
  );
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
