import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { KeyObject } from 'node:crypto';
import type { ListRecord, LoadedVersion } from '../lists/index.js';
import { engineVersion } from '../screening/index.js';
import type { ValidationEngine } from './engine.js';
import { type SignedFiles, buildReport, signReport } from './report.js';
import { renderReportHtml } from './report-html.js';
import type { Cutoffs, Progress, RunSizes } from './figures.js';
import type { RunProfile } from './run-profile.js';
import { DEFAULT_SEED, runValidation } from './run-validation.js';
import { type Thresholds, defaultThresholds } from './thresholds.js';

/** What a run was asked for, as stored with it. */
export interface RunOptions {
  quick: boolean;
  seed: number;
  thresholds: Thresholds;
  /** The cut-offs asked for; left out, the profile's. */
  cutoffs?: Cutoffs;
  /** The screening profile asked for; left out, the organization's own (run-profile.ts). */
  profile?: string;
  sizes?: Partial<RunSizes>;
  focus?: string[];
  /** An activation run: the list versions in force before the activation (their changed entries are the focus). */
  activation?: { previous: { source: string; version: string }[]; current: { source: string; version: string }[] };
}

export function runOptions(partial: Partial<RunOptions> = {}): RunOptions {
  return {
    quick: partial.quick ?? false,
    seed: partial.seed ?? DEFAULT_SEED,
    thresholds: partial.thresholds ?? defaultThresholds(),
    ...(partial.cutoffs ? { cutoffs: partial.cutoffs } : {}),
    ...(partial.profile ? { profile: partial.profile } : {}),
    ...(partial.sizes ? { sizes: partial.sizes } : {}),
    ...(partial.focus ? { focus: partial.focus } : {}),
    ...(partial.activation ? { activation: partial.activation } : {}),
  };
}

export interface ProduceInput {
  runId: string;
  organization: { slug: string; name: string } | null;
  records: readonly ListRecord[];
  versions: LoadedVersion[];
  options: RunOptions;
  /** The profile the run measures (resolveRunProfile). */
  profile: RunProfile;
  floor: number;
  engine: ValidationEngine;
  latencyEngine?: ValidationEngine;
  concurrency?: number;
  pace?: () => Promise<void>;
  onProgress?: (p: Progress) => void;
  key: KeyObject;
  now: () => Date;
}

/** Runs the validation and returns the signed report's two files; the command line and the server's job share it. */
export async function produceReport(input: ProduceInput): Promise<SignedFiles> {
  const startedAt = input.now().toISOString();
  const { profile } = input;
  const screened = profile.sources ? new Set<string>(profile.sources) : undefined;
  const figures = await runValidation(
    {
      // The lists the profile screens against: a listing it leaves out is not expected to be found.
      records: screened ? input.records.filter((r) => screened.has(r.source)) : input.records,
      quick: input.options.quick,
      seed: input.options.seed,
      cutoffs: input.options.cutoffs ?? profile.cutoffs,
      floor: input.floor,
      engineOptions: profile.engineOptions,
      ...(input.options.sizes ? { sizes: input.options.sizes } : {}),
      ...(input.options.focus ? { focus: input.options.focus } : {}),
    },
    {
      engine: input.engine,
      ...(input.latencyEngine ? { latencyEngine: input.latencyEngine } : {}),
      ...(input.concurrency !== undefined ? { concurrency: input.concurrency } : {}),
      ...(input.pace ? { pace: input.pace } : {}),
      ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    },
  );
  await yieldToEventLoop();
  const report = buildReport(
    figures,
    {
      runId: input.runId,
      organization: input.organization,
      lists: input.versions,
      engineVersion: engineVersion(),
      profile: { id: profile.id, version: profile.version },
      startedAt,
      finishedAt: input.now().toISOString(),
    },
    input.options.thresholds,
  );
  await yieldToEventLoop();
  return signReport(report, input.key, renderReportHtml, () => yieldToEventLoop());
}
