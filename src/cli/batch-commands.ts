import { createReadStream, createWriteStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { fileKindOf } from '../batches/index.js';
import { AppError, notFound } from '../infra/errors.js';
import { type CallerContext, effectiveQuota, TenantsStore, type Tier } from '../tenants/index.js';
import { printResult, table } from './output.js';
import type { CliRuntime } from './runtime.js';

interface ScreenOptions {
  org: string;
  file: string;
  out?: string;
  monitor?: boolean;
  json?: boolean;
}

/**
 * `sanctions screen --org S --file customers.csv`: the batch of POST /batches, run by this process
 * (a server on the same database shares its rows), with a progress bar on stderr and a summary.
 * Each row is a stored screening of the organization, made by the operator (key id `cli`).
 */
export function registerBatchCommands(program: Command, runtime: CliRuntime): void {
  program
    .command('screen')
    .description('Screen a customer file (CSV, NDJSON or XLSX) for an organization, as a batch')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--file <path>', 'the file: .csv, .ndjson/.jsonl or .xlsx, with a header row naming name, ...')
    .option('--out <path>', 'write the results as CSV here')
    .option('--monitor', 'put every screened row under monitoring')
    .option('--json', 'print one JSON document (no progress bar)')
    .action(async (opts: ScreenOptions, command: Command) => {
      const output = runtime.output(command);
      const summary = await runtime.withContext(async (app) => {
        const org = await new TenantsStore(app.database.db).orgBySlug(opts.org);
        if (!org) throw notFound(`organization "${opts.org}"`);
        const tier = org.tier as Tier;
        const ctx: CallerContext = {
          db: app.database.db,
          clock: app.clock,
          caller: {
            orgId: org.id,
            orgSlug: org.slug,
            orgName: org.name,
            tier,
            quota: effectiveQuota(tier, org.monthly_quota),
            keyId: 'cli',
            userId: 'cli',
          },
        };
        if (!app.runtime.current()) await app.runtime.refresh();
        if (!app.runtime.current())
          throw new AppError('LISTS_NOT_READY', 'no sanctions lists are loaded: run `sanctions lists sync` first');
        const started = performance.now();
        const kind = fileKindOf('', opts.file);
        const created = await app.services.batches.createBatch({
          ctx,
          input: {
            options: { monitor: Boolean(opts.monitor), groupByCluster: false },
            source: { file: createReadStream(opts.file), kind, fileName: basename(opts.file) },
          },
        });
        const status = () => app.services.batches.getBatch({ ctx, input: { id: created.batchId } });
        const bar = output.json
          ? undefined
          : new cliProgress.SingleBar(
              {
                format: 'screening |{bar}| {value}/{total} rows  {eta_formatted} left',
                stream: process.stderr,
                // Piped to a file or a CI log: one line a second instead of redrawing.
                noTTYOutput: true,
                notTTYSchedule: 1000,
              },
              cliProgress.Presets.shades_classic,
            );
        bar?.start(created.total, 0);
        const timer = setInterval(() => {
          void status()
            .then((s) => bar?.update(s.done))
            .catch(() => undefined);
        }, 250);
        try {
          // Rows claimed by a server on the same database finish there: wait for them.
          for (;;) {
            await app.jobs.batches.runBatch(created.batchId);
            if (!['queued', 'running'].includes((await status()).status)) break;
            await new Promise((r) => setTimeout(r, 250));
          }
        } finally {
          clearInterval(timer);
        }
        const end = await status();
        bar?.update(end.done);
        bar?.stop();
        if (opts.out) {
          const lines = await app.services.batches.resultsStream({
            ctx,
            input: { id: created.batchId, format: 'csv', sort: 'line' },
          });
          await pipeline(Readable.from(lines), createWriteStream(opts.out));
        }
        return { ...end, tookMs: Math.round(performance.now() - started), ...(opts.out ? { out: opts.out } : {}) };
      });
      printResult(output, summary, () =>
        [
          `batch ${summary.batchId}: ${summary.status}`,
          table(
            ['rows', 'high', 'medium', 'low', 'errors', 'took'],
            [
              [
                summary.total,
                summary.counts.high,
                summary.counts.medium,
                summary.counts.low,
                summary.errors,
                `${(summary.tookMs / 1000).toFixed(1)} s`,
              ],
            ],
          ),
          ...summary.rowErrors.slice(0, 20).map((e) => `line ${e.line}: ${e.message}`),
          ...(summary.errors > 20 ? [`... ${summary.errors - 20} more row errors in the results`] : []),
          ...(opts.out ? [`results: ${opts.out}`] : []),
        ].join('\n'),
      );
    });
}
