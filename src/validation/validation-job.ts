import { setTimeout as sleep, setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { KeyObject } from 'node:crypto';
import type { Db } from '../infra/database.js';
import { type ListRecord, type LoadedVersion, ListStore } from '../lists/index.js';
import { engineVersion } from '../screening/index.js';
import type { ValidationEngine } from './engine.js';
import { type SignedFiles, type SummaryRow, buildReport, signReport } from './report.js';
import { parseSigningKey } from './signing.js';
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

/**
 * A queued run as its work is handed over (ValidationRunner): on the HTTP thread, or to a thread of
 * its own (start/validation-thread.ts), which is why it is plain data. The profile and organization are
 * resolved before; the records are those of `versions`.
 */
export interface RunRequest {
  runId: string;
  organization: { slug: string; name: string } | null;
  versions: LoadedVersion[];
  /** The versions' ids joined (ListSnapshot.fingerprint): the same records, wherever they are read. */
  fingerprint: string;
  options: RunOptions;
  profile: RunProfile;
  floor: number;
  signingKey: string;
  /** The service's clock against this machine's (a test's clock differs): the report's times. */
  clockOffsetMs: number;
  concurrency: number;
}

/** What the service keeps of a finished run: the two files and what the run's row and alerts need. */
export interface RunResult {
  json: string;
  html: string;
  passed: boolean;
  summary: SummaryRow[];
  /** An activation run: the versions before and after, its new or changed entries, those not found. */
  activation: RunOptions['activation'];
  focusNames: number;
  focusMissed: string[];
}

/** Where a run's work is done: its records, engines, pace and progress. */
export interface RunPlace {
  db: Db;
  records: readonly ListRecord[];
  engine: ValidationEngine;
  latencyEngine: ValidationEngine;
  pace: () => Promise<void>;
  onProgress: (p: Progress) => void;
}

/**
 * A run's pace: while `busy()` (interactive requests under way) it waits, 2 ms at a time, for at
 * most 100 ms, so that a steady stream of requests slows a run without stopping it.
 */
export function paceWhile(busy: () => boolean): () => Promise<void> {
  return async () => {
    for (let i = 0; busy() && i < 50; i++) await sleep(2);
  };
}

/** Does a queued run's work where `place` says, and returns what the service keeps of it. */
export async function produceRun(request: RunRequest, place: RunPlace): Promise<RunResult> {
  const { activation } = request.options;
  const options = activation
    ? { ...request.options, focus: await activationFocus(place.db, activation, place.records) }
    : request.options;
  const files = await produceReport({
    runId: request.runId,
    organization: request.organization,
    records: place.records,
    versions: request.versions,
    options,
    profile: request.profile,
    floor: request.floor,
    engine: place.engine,
    latencyEngine: place.latencyEngine,
    concurrency: request.concurrency,
    pace: place.pace,
    onProgress: place.onProgress,
    key: parseSigningKey(request.signingKey),
    now: () => new Date(Date.now() + request.clockOffsetMs),
  });
  const { report } = files;
  return {
    json: files.json,
    html: files.html,
    passed: report.passed,
    summary: report.summary,
    activation,
    focusNames: report.selfScreen.focusNames,
    focusMissed: report.selfScreen.focusMissed,
  };
}

/** The entries of an activation's current versions that are new or changed against the previous ones. */
async function activationFocus(
  db: Db,
  activation: NonNullable<RunOptions['activation']>,
  records: readonly ListRecord[],
): Promise<string[]> {
  const store = new ListStore(db);
  const before = new Map(activation.previous.map((p) => [p.source, p.version]));
  const changedSources = new Set(
    activation.current.filter((c) => before.get(c.source) !== c.version).map((c) => c.source),
  );
  const old = new Map<string, string>();
  for (const source of changedSources) {
    const version = before.get(source);
    if (version)
      for (const record of await store.records(version))
        old.set(`${record.source}:${record.id}`, JSON.stringify(record));
  }
  return records
    .filter((r) => changedSources.has(r.source) && old.get(`${r.source}:${r.id}`) !== JSON.stringify(r))
    .map((r) => `${r.source}:${r.id}`);
}
