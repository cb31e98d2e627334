import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { AppError, validationError } from '../infra/errors.js';
import { newId } from '../infra/ids.js';
import { type ListRecord, ListStore, type SourceId } from '../lists/index.js';
import { inlineScreener } from '../start/matching-pool.js';
import { TenantsStore } from '../tenants/index.js';
import {
  generateSigningKey,
  parseSigningKey,
  produceReport,
  publicKeyOf,
  runOptions,
  screenerEngine,
  thresholdsWith,
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
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || n > max)
      throw new InvalidArgumentError(`${name} must be a number from 0 to ${max}`);
    return n;
  };
}

/** `sanctions validate`, `validate keygen`, `validate verify` (issue 31). */
export function registerValidateCommands(program: Command, runtime: CliRuntime): void {
  const validate = program
    .command('validate')
    .description('Run a validation of this deployment and write a signed report (report.json, report.html)')
    .option('--org <slug>', 'the organization the report is made for (its name heads the report)')
    .option('--profile <id>', "screening profile (only 'default' exists in this version)")
    .option('--quick', 'samples instead of every listed name (about a minute)')
    .option('--seed <n>', 'seed of the samples and the negative population', numberOption('--seed', 2 ** 31 - 1))
    .option(
      '--threshold <key=value>',
      'a threshold of the summary (repeatable), e.g. selfScreenMedium=99.5',
      thresholdOption,
    )
    .option(
      '--medium-cutoff <score>',
      'score counted as found at medium (default 50)',
      numberOption('--medium-cutoff', 100),
    )
    .option('--high-cutoff <score>', 'score counted as found at high (default 80)', numberOption('--high-cutoff', 100))
    .option('--out <dir>', 'directory the report is written to')
    .option('--json', 'print one JSON document')
    .action(async (opts: ValidateOptions, command: Command) => {
      const output = runtime.output(command);
      if (!opts.out) throw validationError('--out', 'is required: the directory the report is written to');
      if (opts.profile !== undefined && opts.profile !== 'default')
        throw validationError(
          '--profile',
          `"${opts.profile}" is not a screening profile of this version; only "default" exists`,
        );
      const config = runtime.config();
      if (!config.validation.signingKey)
        throw new AppError(
          'FEATURE_NOT_AVAILABLE',
          'reports are signed: set VALIDATION_SIGNING_KEY first (`sanctions validate keygen` makes one)',
        );
      const key = parseSigningKey(config.validation.signingKey);
      const medium = opts.mediumCutoff ?? 50;
      const high = opts.highCutoff ?? Math.max(80, medium);
      if (high < medium) throw validationError('--high-cutoff', 'must be at least --medium-cutoff');
      const options = runOptions({
        quick: opts.quick ?? false,
        ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        thresholds: thresholdsWith(opts.threshold, '--threshold'),
        cutoffs: { medium, high },
      });
      const out = resolve(opts.out);
      const result = await runtime.withContext(async (ctx) => {
        const org = opts.org ? await new TenantsStore(ctx.operator.db).orgBySlug(opts.org) : undefined;
        if (opts.org && !org) throw new AppError('NOT_FOUND', `organization "${opts.org}" not found`);
        // The lists in force, read once: the engine is built here from the same records the run draws from.
        const store = new ListStore(ctx.operator.db);
        const active = await store.activeVersions();
        if (active.length === 0)
          throw new AppError('LISTS_NOT_READY', 'no lists are loaded: run `sanctions lists sync` first');
        const records: ListRecord[] = [];
        for (const v of active) for (const r of await store.records(v.id)) records.push(r);
        const versions = active.map((v) => ({
          source: v.source as SourceId,
          version: v.id,
          publishedAt: v.published_at,
          records: v.record_count,
        }));
        if (!output.json)
          process.stderr.write(
            `  ${records.length.toLocaleString('en')} records of ${active.length} lists; building the index\n`,
          );
        let lastPhase = '';
        const engine = screenerEngine(await inlineScreener(records), {});
        return produceReport({
          runId: newId('val', ctx.clock.now()),
          organization: org ? { slug: org.slug, name: org.name } : null,
          records,
          versions,
          options,
          floor: config.matching.floor,
          engine,
          onProgress: (p) => {
            if (output.json) return;
            if (p.phase !== lastPhase || p.done === p.total || p.done % 10_240 === 0) {
              lastPhase = p.phase;
              process.stderr.write(`  ${p.phase}: ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')}\n`);
            }
          },
          key,
          now: () => ctx.clock.now(),
        });
      });
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, 'report.json'), result.json);
      writeFileSync(join(out, 'report.html'), result.html);
      const r = result.report;
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
    });

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
