import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import {
  type ChangeKind,
  changePage,
  isOfficialSource,
  type OfficialSourceId,
  SOURCE_IDS,
  type SyncOutcome,
  type SyncPhase,
} from '../lists/index.js';
import type { CliRuntime } from './runtime.js';
import { parseWhole, printResult, table } from './output.js';

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

const KINDS: ChangeKind[] = ['added', 'removed', 'changed'];

function kindOption(value: string): ChangeKind {
  if (!(KINDS as string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${KINDS.join(', ')}`);
  return value as ChangeKind;
}

/** lists sync / lists status / lists changes. */
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

  lists
    .command('changes')
    .description('Show what changed on the lists: entities added, removed and changed per version put in force')
    .option('--since <version|time>', 'changes of the versions put in force after this version id or ISO time')
    .option('--source <id>', 'only this source')
    .option('--kind <kind>', `only this kind of change (${KINDS.join(', ')})`, kindOption)
    .option('--cursor <cursor>', 'continue after the page that printed this cursor')
    .option('--limit <n>', 'changes to print, 1 to 100 (default 50)', parseWhole('--limit'))
    .option('--json', 'print one JSON document')
    .action(
      async (
        opts: { since?: string; source?: string; kind?: ChangeKind; cursor?: string; limit?: number },
        command: Command,
      ) => {
        const pageSize = opts.limit ?? 50;
        if (pageSize < 1 || pageSize > 100) throw new InvalidArgumentError('--limit must be between 1 and 100');
        if (opts.source !== undefined && !isOfficialSource(opts.source) && opts.source !== 'us_ofac_50')
          throw new InvalidArgumentError(`--source must be one of ${SOURCE_IDS.join(', ')}, us_ofac_50`);
        const page = await runtime.withContext((ctx) =>
          changePage({
            ctx: ctx.operator,
            input: {
              pageSize,
              ...(opts.since !== undefined ? { since: opts.since } : {}),
              ...(opts.source !== undefined ? { source: opts.source } : {}),
              ...(opts.kind !== undefined ? { kind: opts.kind } : {}),
              ...(opts.cursor !== undefined ? { cursor: opts.cursor } : {}),
            },
          }),
        );
        printResult(runtime.output(command), page, () =>
          [
            table(
              ['put in force', 'entity', 'name', 'kind', 'major', 'what changed'],
              page.items.map((c) => [
                c.activatedAt,
                c.entityId,
                c.name.slice(0, 40),
                c.kind,
                c.major ? 'yes' : 'no',
                c.fields
                  .map((f) => {
                    const change = c.changes[f];
                    return `${f}${change?.added.length ? ` +${change.added.join('; ')}` : ''}${change?.removed.length ? ` -${change.removed.join('; ')}` : ''}`;
                  })
                  .join(' | ')
                  .slice(0, 120),
              ]),
            ),
            `next: ${page.next ?? '-'}${page.hasMore ? ' (more follow)' : ''}`,
          ].join('\n'),
        );
      },
    );
}
