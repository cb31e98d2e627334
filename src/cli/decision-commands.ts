import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { DecisionView } from '../decisions/index.js';
import { parseWhole, printResult, table } from './output.js';
import type { CliRuntime } from './runtime.js';

/** `decisions` and `audit` commands (issue 13). */

function decisionRows(list: DecisionView[]): string {
  return list.length === 0
    ? 'no decisions'
    : table(
        ['id', 'created', 'entity', 'decision', 'reason', 'status', 'by', 'external id'],
        list.map((d) => [
          d.id,
          d.createdAt,
          `${d.entityId} (${d.entityName})`,
          d.decision,
          d.reason,
          d.lapseReason ? `lapsed: ${d.lapseReason}` : d.status,
          d.decidedBy,
          d.externalId,
        ]),
      );
}

export function registerDecisionCommands(program: Command, runtime: CliRuntime): void {
  const decisions = program
    .command('decisions')
    .description('Analyst decisions on matches (false positives, four-eyes)');
  decisions
    .command('add')
    .description('Record a decision on a match of a screening or an alert')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'the member deciding')
    .option('--screening <id>', 'the screening (scr_...) whose match it is')
    .option('--alert <id>', 'or the alert (alt_...) whose match it is')
    .requiredOption('--entity <id>', 'the matched entity, <source>:<record id>')
    .requiredOption('--decision <d>', 'confirmed, false_positive or needs_information')
    .option(
      '--reason <r>',
      'different_birth_date, different_nationality, different_gender, different_entity_type, different_identifier, name_coincidence or other',
    )
    .option('--note <text>', 'free text (required with --reason other)')
    .option('--json', 'print one JSON document')
    .action(
      async (
        opts: {
          org: string;
          user: string;
          screening?: string;
          alert?: string;
          entity: string;
          decision: string;
          reason?: string;
          note?: string;
        },
        command: Command,
      ) => {
        const decision = await runtime.withContext((ctx) =>
          ctx.services.decisions.addAs({
            ctx: ctx.operator,
            input: {
              org: opts.org,
              user: opts.user,
              ...(opts.screening !== undefined ? { screeningId: opts.screening } : {}),
              ...(opts.alert !== undefined ? { alertId: opts.alert } : {}),
              body: {
                entityId: opts.entity,
                decision: opts.decision as never,
                ...(opts.reason !== undefined ? { reason: opts.reason as never } : {}),
                ...(opts.note !== undefined ? { note: opts.note } : {}),
              },
            },
          }),
        );
        printResult(
          runtime.output(command),
          decision,
          () => `recorded ${decision.decision} ${decision.id} on ${decision.entityId}: ${decision.status}`,
        );
      },
    );

  decisions
    .command('list')
    .description("List an organization's decisions, newest first")
    .requiredOption('--org <slug>', 'organization slug')
    .option('--screening <id>', 'only on this screening')
    .option('--entity <id>', 'only on this entity')
    .option('--external-id <id>', 'only about this customer reference')
    .option('--decision <d>', 'only this kind')
    .option('--status <s>', 'pending, effective or lapsed')
    .option('--limit <n>', 'at most this many (default 100)', parseWhole('--limit'))
    .option('--json', 'print one JSON document')
    .action(
      async (
        opts: {
          org: string;
          screening?: string;
          entity?: string;
          externalId?: string;
          decision?: string;
          status?: string;
          limit?: number;
        },
        command: Command,
      ) => {
        const { items } = await runtime.withContext((ctx) =>
          ctx.services.decisions.listAs({
            ctx: ctx.operator,
            input: {
              org: opts.org,
              page: 1,
              pageSize: opts.limit ?? 100,
              ...(opts.screening !== undefined ? { screeningId: opts.screening } : {}),
              ...(opts.entity !== undefined ? { entityId: opts.entity } : {}),
              ...(opts.externalId !== undefined ? { externalId: opts.externalId } : {}),
              ...(opts.decision !== undefined ? { decision: opts.decision } : {}),
              ...(opts.status !== undefined ? { status: opts.status } : {}),
            },
          }),
        );
        printResult(runtime.output(command), items, () => decisionRows(items));
      },
    );

  decisions
    .command('approve')
    .description('Approve a decision waiting for a second user (four-eyes)')
    .argument('<id>', 'decision id (dec_...)')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'the approving member (not the one who decided)')
    .option('--json', 'print one JSON document')
    .action(async (id: string, opts: { org: string; user: string }, command: Command) => {
      const decision = await runtime.withContext((ctx) =>
        ctx.services.decisions.approveAs({ ctx: ctx.operator, input: { org: opts.org, user: opts.user, id } }),
      );
      printResult(runtime.output(command), decision, () => `approved ${decision.id}: ${decision.status}`);
    });

  const audit = program.command('audit').description('The hash-chained audit log');
  audit
    .command('verify')
    .description('Check the hash chains (and the rows their entries recorded); names the first broken entry')
    .option('--org <slug>', "only this organization's chain")
    .option('--json', 'print one JSON document')
    .action(async (opts: { org?: string }, command: Command) => {
      const report = await runtime.withContext((ctx) =>
        ctx.services.audit.verify({ ctx: ctx.operator, input: opts.org !== undefined ? { org: opts.org } : {} }),
      );
      printResult(runtime.output(command), report, () =>
        report.ok
          ? `audit log intact: ${report.entries} entries in ${report.chains} chain(s)`
          : report.broken
              .map(
                (b) =>
                  `BROKEN chain ${b.chain} at entry ${b.seq} (${b.id ?? '-'}, ${b.event ?? '-'}, ${b.at ?? '-'}): ${b.problem}`,
              )
              .join('\n'),
      );
      if (!report.ok) process.exitCode = 1;
    });

  audit
    .command('export')
    .description("Write an organization's audit entries (with the list activations of the period)")
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--from <date>', 'first day (YYYY-MM-DD) or date-time')
    .requiredOption('--to <date>', 'last day, included (YYYY-MM-DD), or date-time')
    .option('--format <f>', 'csv or jsonl', 'jsonl')
    .option('--out <file>', 'write to this file instead of standard output')
    .action(async (opts: { org: string; from: string; to: string; format: string; out?: string }) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.audit.export({
          ctx: ctx.operator,
          input: { org: opts.org, from: opts.from, to: opts.to, format: opts.format },
        }),
      );
      if (opts.out !== undefined) {
        writeFileSync(opts.out, result.text);
        console.error(`wrote ${result.entries} entries to ${opts.out}`);
      } else process.stdout.write(result.text);
    });

  audit
    .command('prune')
    .description('Delete audit entries older than the retention (AUDIT_RETENTION_YEARS, default 10); nothing younger')
    .option('--dry-run', 'only count them')
    .option('--json', 'print one JSON document')
    .action(async (opts: { dryRun?: boolean }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.audit.prune({ ctx: ctx.operator, input: { dryRun: opts.dryRun ?? false } }),
      );
      printResult(
        runtime.output(command),
        result,
        () => `${result.dryRun ? 'would delete' : 'deleted'} ${result.deleted} entries older than ${result.before}`,
      );
    });
}
