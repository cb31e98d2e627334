import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { isOfficialSource, type OfficialSourceId, SOURCE_IDS } from '../lists/model.js';
import type { SyncOutcome, SyncPhase } from '../lists/sync-service.js';
import type { CliRuntime } from './runtime.js';
import { printResult, table } from './output.js';

const PHASE_STEP: Record<SyncPhase, number> = { download: 1, parse: 2, store: 3, done: 4 };

function sourceOption(value: string, previous: OfficialSourceId[] = []): OfficialSourceId[] {
  if (!isOfficialSource(value)) throw new InvalidArgumentError(`must be one of ${SOURCE_IDS.join(', ')}`);
  return [...previous, value];
}

function summary(outcomes: SyncOutcome[]): string {
  return table(
    ['source', 'records', 'version', 'took', 'status', 'message'],
    outcomes.map((o) => [
      o.source,
      o.records,
      o.version,
      `${(o.tookMs / 1000).toFixed(1)}s`,
      o.status,
      o.message?.slice(0, 100),
    ]),
  );
}

/** lists sync / lists status (issue: official sanctions lists, part 4). */
export function registerListCommands(program: Command, runtime: CliRuntime): void {
  const lists = program.command('lists').description('Sanctions lists: sync and status');
  lists
    .command('sync')
    .description('Fetch, parse and store new versions of the lists (from the publishers, LISTS_DIR, or --from)')
    .option('--from <dir>', 'read list files from this directory (one sub-folder per source id) instead of downloading')
    .option('--source <id>', 'sync only this source (repeatable)', sourceOption)
    .option('--ownership <dir>', 'ownership data for the derived us_ofac_50 source (default: OWNERSHIP_DIR)')
    .option('--json', 'print one JSON document')
    .action(async (opts: { from?: string; source?: OfficialSourceId[]; ownership?: string }, command: Command) => {
      const output = runtime.output(command);
      const { default: cliProgress } = await import('cli-progress');
      const sources = opts.source ?? [...SOURCE_IDS];
      const showBars = !output.json && process.stdout.isTTY === true;
      const multibar = showBars
        ? new cliProgress.MultiBar(
            { format: ' {source} [{bar}] {phase}', hideCursor: true, clearOnComplete: false, barsize: 20 },
            cliProgress.Presets.shades_classic,
          )
        : undefined;
      const bars = new Map(sources.map((s) => [s, multibar?.create(4, 0, { source: s.padEnd(8), phase: 'waiting' })]));
      const outcomes = await runtime.withContext((ctx) =>
        ctx.services.lists.syncSources({
          ctx: ctx.operator,
          input: {
            ...(opts.from ? { fromDir: resolve(opts.from) } : {}),
            ...(opts.ownership ? { derivedInputDir: resolve(opts.ownership) } : {}),
            sources,
            onProgress: (source, phase, detail) =>
              bars.get(source)?.update(PHASE_STEP[phase], { phase: detail ?? phase }),
          },
        }),
      );
      multibar?.stop();
      printResult(output, outcomes, () => summary(outcomes));
      if (outcomes.some((o) => o.status === 'rejected')) process.exitCode = 3;
    });

  lists
    .command('status')
    .description('Show the version in force of every source and its freshness')
    .option('--json', 'print one JSON document')
    .action(async (_opts, command: Command) => {
      const status = await runtime.withContext((ctx) => ctx.services.lists.status({ ctx: ctx.operator }));
      printResult(runtime.output(command), status, () =>
        table(
          ['source', 'records', 'version', 'published', 'fetched', 'stale', 'last error'],
          status.map((s) => [
            s.source,
            s.records,
            s.version,
            s.publishedAt,
            s.fetchedAt,
            s.stale ? 'yes' : 'no',
            s.lastError?.slice(0, 80),
          ]),
        ),
      );
    });
}
