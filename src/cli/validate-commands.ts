import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { AppError, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { type ListRecord, ListStore, type SourceId } from '../lists/index.js';
import { MatchingPool, inlineScreener } from '../start/matching-pool.js';
import type { AppContext } from '../start/context.js';
import { TenantsStore } from '../tenants/index.js';
import {
  generateSigningKey,
  parseSigningKey,
  produceReport,
  type Progress,
  publicKeyOf,
  resolveRunProfile,
  runOptions,
  screenerEngine,
  type SignedFiles,
  spreadEngine,
  thresholdsWith,
  type ValidationEngine,
  verifyReport,
} from '../validation/index.js';
import { printResult, table } from './output.js';
import type { CliRuntime } from './runtime.js';

interface ValidateOptions {
  org?: string;
  profile?: string;
  quick?: boolean;
  seed?: number;
  threshold?: Record<string, number>;
  mediumCutoff?: number;
  highCutoff?: number;
  out: string;
}

function thresholdOption(value: string, previous: Record<string, number> = {}): Record<string, number> {
  const match = /^([A-Za-z0-9]+)=(\d+(?:\.\d+)?)$/.exec(value);
  if (!match) throw new InvalidArgumentError('must look like key=value, e.g. selfScreenMedium=99.5');
  return { ...previous, [match[1]!]: Number(match[2]) };
}

function numberOption(name: string, max: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || parsed > max)
      throw new InvalidArgumentError(`${name} must be a number from 0 to ${max}`);
    return parsed;
  };
}

/** The lists in force, read once: the engine is built from the same records the run draws from. */
async function listsInForce(db: AppContext['operator']['db']) {
  const store = new ListStore(db);
  const active = await store.activeVersions();
  if (active.length === 0)
    throw new AppError('LISTS_NOT_READY', 'no lists are loaded: run `sanctions lists sync` first');
  const records: ListRecord[] = [];
  for (const version of active) for (const record of await store.records(version.id)) records.push(record);
  const versions = active.map((v) => ({
    source: v.source as SourceId,
    version: v.id,
    publishedAt: v.published_at,
    records: v.record_count,
  }));
  return { records, versions };
}

/**
 * The engine of a run from the command line, which has the machine to itself. A full run: this
 * thread and the matching threads (one fewer than the cores) each build an index of the records at
 * the same time, then share the queries (spreadEngine). A quick run screens on this thread alone: its
 * queries take less time than another index takes to build. The latency is timed on this thread's
 * index, one query at a time.
 */
async function withEngines<T>(
  records: ListRecord[],
  spread: boolean,
  fn: (engines: { engine: ValidationEngine; latencyEngine: ValidationEngine; concurrency: number }) => Promise<T>,
): Promise<T> {
  if (!spread) {
    const inline = screenerEngine(await inlineScreener(records), {});
    return fn({ engine: inline, latencyEngine: inline, concurrency: 1 });
  }
  const threads = Math.max(1, availableParallelism() - 1);
  const pool = new MatchingPool(threads);
  try {
    const [pooled, inline] = await Promise.all([pool.load(records), inlineScreener(records)]);
    const depth = QUERIES_IN_FLIGHT_PER_THREAD * threads;
    const inlineEngine = screenerEngine(inline, {});
    return await fn({
      engine: spreadEngine(screenerEngine(pooled), inlineEngine, depth),
      latencyEngine: inlineEngine,
      concurrency: depth + QUERIES_IN_FLIGHT_PER_THREAD,
    });
  } finally {
    await pool.close();
  }
}

const QUERIES_IN_FLIGHT_PER_THREAD = 32;

function progressPrinter(output: { json: boolean }) {
  let lastPhase = '';
  return (p: Progress) => {
    if (output.json) return;
    if (p.phase !== lastPhase || p.done === p.total || p.done % 10_240 === 0) {
      lastPhase = p.phase;
      process.stderr.write(`  ${p.phase}: ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')}\n`);
    }
  };
}

function printReport(output: { json: boolean }, out: string, r: SignedFiles['report']): void {
  printResult(
    output,
    {
      runId: r.runId,
      out,
      files: [join(out, 'report.json'), join(out, 'report.html')],
      passed: r.passed,
      summary: r.summary,
      keyId: r.signature?.keyId,
      durationMs: r.context.durationMs,
    },
    () =>
      [
        table(
          ['measure', 'value', 'threshold', ''],
          r.summary.map((s) => [
            s.label,
            `${s.value}${s.unit === '%' ? '%' : s.unit === 'ms' ? ' ms' : ''}`,
            `${s.bound === 'min' ? '>=' : '<='} ${s.threshold}`,
            s.met ? 'met' : 'NOT met',
          ]),
        ),
        '',
        `self-screen misses: ${r.selfScreen.misses.length} (every one in the report)`,
        `${r.passed ? 'every threshold met' : 'some thresholds NOT met'}; took ${(r.context.durationMs / 1000).toFixed(1)} s`,
        `wrote ${join(out, 'report.json')} and ${join(out, 'report.html')}, signed by ${r.signature?.keyId ?? '-'}`,
      ].join('\n'),
  );
}

/** The run's options from the command line's (the cut-offs only when given: the profile's otherwise). */
function optionsOf(opts: ValidateOptions) {
  if (opts.mediumCutoff === undefined && opts.highCutoff !== undefined)
    throw validationError('--high-cutoff', 'goes with --medium-cutoff');
  const medium = opts.mediumCutoff;
  const high = medium === undefined ? undefined : (opts.highCutoff ?? Math.max(80, medium));
  if (medium !== undefined && high !== undefined && high < medium)
    throw validationError('--high-cutoff', 'must be at least --medium-cutoff');
  return runOptions({
    quick: opts.quick ?? false,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    thresholds: thresholdsWith(opts.threshold, '--threshold'),
    ...(medium !== undefined && high !== undefined ? { cutoffs: { medium, high } } : {}),
    ...(opts.profile !== undefined ? { profile: opts.profile } : {}),
  });
}

async function validateAction(runtime: CliRuntime, opts: ValidateOptions, command: Command): Promise<void> {
  const output = runtime.output(command);
  if (!opts.out) throw validationError('--out', 'is required: the directory the report is written to');
  const config = runtime.config();
  if (!config.validation.signingKey)
    throw new AppError(
      'FEATURE_NOT_AVAILABLE',
      'reports are signed: set VALIDATION_SIGNING_KEY first (`sanctions validate keygen` makes one)',
    );
  const key = parseSigningKey(config.validation.signingKey);
  const options = optionsOf(opts);
  const out = resolve(opts.out);
  const result = await runtime.withContext(async (ctx) => {
    const org = opts.org ? await new TenantsStore(ctx.operator.db).orgBySlug(opts.org) : undefined;
    if (opts.org && !org) throw new AppError('NOT_FOUND', `organization "${opts.org}" not found`);
    const profile = await resolveRunProfile(ctx.operator.db, {
      orgId: org?.id ?? null,
      profileId: opts.profile,
      floor: config.matching.floor,
      field: '--profile',
    });
    const { records, versions } = await listsInForce(ctx.operator.db);
    if (!output.json)
      process.stderr.write(
        `  ${records.length.toLocaleString('en')} records of ${versions.length} lists; profile ${profile.id} (version ${profile.version}); building the index\n`,
      );
    return withEngines(records, !options.quick, (engines) =>
      produceReport({
        runId: newId('val', ctx.clock.now()),
        organization: org ? { slug: org.slug, name: org.name } : null,
        records,
        versions,
        options,
        profile,
        floor: config.matching.floor,
        ...engines,
        onProgress: progressPrinter(output),
        key,
        now: () => ctx.clock.now(),
      }),
    );
  });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'report.json'), result.json);
  writeFileSync(join(out, 'report.html'), result.html);
  printReport(output, out, result.report);
}

/** `sanctions validate`, `validate keygen`, `validate verify` (issue 31). */
export function registerValidateCommands(program: Command, runtime: CliRuntime): void {
  const validate = program
    .command('validate')
    .description('Run a validation of this deployment and write a signed report (report.json, report.html)')
    .option('--org <slug>', 'the organization the report is made for (its name heads the report, its profile is used)')
    .option('--profile <id>', "a screening profile of the organization (default: the organization's own)")
    .option('--quick', 'samples instead of every listed name (under a minute)')
    .option('--seed <n>', 'seed of the samples and the negative population', numberOption('--seed', 2 ** 31 - 1))
    .option(
      '--threshold <key=value>',
      'a threshold of the summary (repeatable), e.g. selfScreenMedium=99.5',
      thresholdOption,
    )
    .option(
      '--medium-cutoff <score>',
      "score counted as found at medium (default: the profile's, 50)",
      numberOption('--medium-cutoff', 100),
    )
    .option(
      '--high-cutoff <score>',
      "score counted as found at high (default: the profile's, 80)",
      numberOption('--high-cutoff', 100),
    )
    .option('--out <dir>', 'directory the report is written to')
    .option('--json', 'print one JSON document')
    .action((opts: ValidateOptions, command: Command) => validateAction(runtime, opts, command));

  validate
    .command('keygen')
    .description(
      'Make an Ed25519 key pair for signing validation reports (set VALIDATION_SIGNING_KEY to the private key)',
    )
    .option('--json', 'print one JSON document')
    .action((_opts, command: Command) => {
      const pair = generateSigningKey();
      printResult(runtime.output(command), pair, () =>
        [
          `VALIDATION_SIGNING_KEY=${pair.privateKey}`,
          '',
          `public key (SPKI, base64): ${pair.publicKey}`,
          `key id: ${pair.keyId}`,
          '',
          'Keep the private key secret (it is configuration, like SECRET_KEY); publish the key id, so a reader can',
          'check that a report was signed by this deployment.',
        ].join('\n'),
      );
    });

  validate
    .command('verify')
    .description('Check the signature of a report.json (and the report.html beside it): was the report changed?')
    .argument('<report.json>', 'the report file')
    .option('--html <file>', 'the report.html to check (default: report.html beside the JSON, when it exists)')
    .option(
      '--key-id <id>',
      'the key id the report must be signed with (default: the configured VALIDATION_SIGNING_KEY, if set)',
    )
    .option('--json', 'print one JSON document')
    .action((file: string, opts: { html?: string; keyId?: string }, command: Command) => {
      const path = resolve(file);
      if (!existsSync(path)) throw validationError('report.json', `no such file: ${path}`);
      const htmlPath = opts.html ? resolve(opts.html) : join(dirname(path), 'report.html');
      if (opts.html && !existsSync(htmlPath)) throw validationError('--html', `no such file: ${htmlPath}`);
      const configured = runtime.config().validation.signingKey;
      const expectedKeyId = opts.keyId ?? (configured ? publicKeyOf(parseSigningKey(configured)).keyId : undefined);
      const result = verifyReport(readFileSync(path, 'utf8'), {
        ...(existsSync(htmlPath) ? { html: readFileSync(htmlPath, 'utf8') } : {}),
        ...(expectedKeyId ? { expectedKeyId } : {}),
      });
      printResult(runtime.output(command), { file: path, ...result }, () =>
        [
          ...result.notes,
          result.valid
            ? 'VALID: the report is as it was signed'
            : 'NOT VALID: the report was changed, or not signed by the expected key',
        ].join('\n'),
      );
      if (!result.valid) process.exitCode = 1;
    });
}
