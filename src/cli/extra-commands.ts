import type { Command } from 'commander';
import { parseWhole, printResult, table } from './output.js';
import type { CliRuntime } from './runtime.js';

/** `alerts` and `webhooks` commands (issue 6, parts 3 and 4). */
export function registerExtraCommands(program: Command, runtime: CliRuntime): void {
  const alerts = program.command('alerts').description('List and resolve monitoring alerts');
  alerts
    .command('list')
    .description("List an organization's alerts, newest first")
    .requiredOption('--org <slug>', 'organization slug')
    .option('--unresolved', 'only alerts not resolved yet')
    .option('--limit <n>', 'at most this many (default 100)', parseWhole('--limit'))
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string; unresolved?: boolean; limit?: number }, command: Command) => {
      const list = await runtime.withContext((ctx) =>
        ctx.services.alerts.listAlerts({
          ctx: ctx.operator,
          input: {
            org: opts.org,
            ...(opts.unresolved ? { unresolved: true } : {}),
            ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
          },
        }),
      );
      printResult(runtime.output(command), list, () =>
        list.length === 0
          ? 'no alerts'
          : table(
              ['id', 'created', 'entity', 'score', 'level', 'sources', 'resolved'],
              list.map((a) => [
                a.id,
                a.timestamp,
                a.entityName ?? a.query ?? '-',
                `${a.oldRiskScore} -> ${a.newRiskScore}`,
                `${a.oldRiskLevel} -> ${a.newRiskLevel}`,
                a.newSources.join(',') || '-',
                a.resolvedAt ? `${a.resolvedAt} by ${a.resolvedBy}` : 'no',
              ]),
            ),
      );
    });

  alerts
    .command('resolve')
    .description('Resolve an alert (sends the alert.resolved webhook)')
    .argument('<id>', 'alert id (alt_...)')
    .requiredOption('--user <email>', 'the member resolving it')
    .option('--note <text>', 'why it was resolved')
    .option('--json', 'print one JSON document')
    .action(async (id: string, opts: { user: string; note?: string }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.alerts.resolveAlert({
          ctx: ctx.operator,
          input: { id, user: opts.user, ...(opts.note !== undefined ? { note: opts.note } : {}) },
        }),
      );
      printResult(
        runtime.output(command),
        result,
        () =>
          `resolved ${result.alert.id} at ${result.alert.resolvedAt}` +
          (result.deliveryId
            ? `; alert.resolved queued as delivery ${result.deliveryId}`
            : '; no webhook URL configured, nothing sent'),
      );
    });

  const webhooks = program.command('webhooks').description("Test, inspect and resume an organization's webhook");
  webhooks
    .command('test')
    .description('Send a signed sample alert.created marked X-Service-Test: true, and report the answer')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.webhooks.sendTest({ ctx: ctx.operator, input: opts }),
      );
      printResult(runtime.output(command), result, () =>
        result.delivered
          ? `test delivery ${result.deliveryId} to ${result.url}: HTTP ${result.status}`
          : `test delivery ${result.deliveryId} to ${result.url} failed: ${result.error ?? `HTTP ${result.status}`}`,
      );
    });

  webhooks
    .command('resume')
    .description('Resume a paused webhook; deliveries held while it was paused are sent')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.webhooks.resume({ ctx: ctx.operator, input: opts }),
      );
      printResult(
        runtime.output(command),
        result,
        () =>
          `${result.wasPaused ? 'resumed' : 'was not paused;'} webhook of ${result.org}; ${result.released} held deliveries are due now`,
      );
    });

  webhooks
    .command('status')
    .description("Show an organization's webhook: URL, pause state, failures in a row, deliveries by state")
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string }, command: Command) => {
      const status = await runtime.withContext((ctx) =>
        ctx.services.webhooks.status({ ctx: ctx.operator, input: opts }),
      );
      printResult(runtime.output(command), status, () =>
        [
          `url: ${status.url ?? '(none)'}${status.secretSet ? '' : ' (no secret set)'}`,
          `state: ${status.paused ? `paused since ${status.pausedAt}` : 'active'}, ${status.consecutiveFailures} failed attempts in a row`,
          `deliveries: ${status.pending} pending, ${status.delivered} delivered, ${status.failed} failed`,
        ].join('\n'),
      );
    });
}
