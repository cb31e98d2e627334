import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { type BacktestReport, KNOBS, memberContext, type ProfileView } from '../profiles/index.js';
import type { CallerContext } from '../tenants/index.js';
import type { AppContext } from '../start/context.js';
import { parseWhole, printResult, table } from './output.js';
import type { CliRuntime } from './runtime.js';

/** `profiles` commands: screening profiles (docs/profiles.md), as a member of the organization. */

function settingsJson(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new Error(`--settings must be JSON, such as '{"sources":["eu_csl","un_csl"],"mediumCutoff":70}'`);
  }
}

function profileText(p: ProfileView): string {
  const lines = [
    `${p.id}  ${p.name}  (${p.keyId ? `key ${p.keyId}` : 'organization'})`,
    `active: version ${p.activeVersion}  ${JSON.stringify(p.active.settings)}`,
  ];
  if (p.draft) lines.push(`draft (${p.draft.state}): version ${p.draft.version}  ${JSON.stringify(p.draft.settings)}`);
  if (p.backtest) lines.push(backtestText(p.backtest));
  return lines.join('\n');
}

export function backtestText(r: BacktestReport): string {
  const levels = (l: { low: number; medium: number; high: number }) =>
    `high ${l.high}, medium ${l.medium}, low ${l.low}`;
  const lines = [
    `backtest of ${r.screenings} screenings from ${r.window.from} to ${r.window.to}${r.truncated ? ' (the oldest left out)' : ''}, ${r.tookMs} ms`,
    `  current: ${levels(r.alerts.current)}`,
    `  draft:   ${levels(r.alerts.draft)}`,
    `  alerts removed ${r.alerts.removed}, added ${r.alerts.added}; ${r.levelChanges.total} screenings change level`,
    `  confirmed matches lost: ${r.confirmedLost.total}; false positives no longer raised: ${r.falsePositivesCleared.total}`,
  ];
  for (const lost of r.confirmedLost.items.slice(0, 20))
    lines.push(
      `    lost: ${lost.entityId} (${lost.entityName ?? '?'}) on ${lost.screeningId} "${lost.query}", decision ${lost.decisionId}`,
    );
  return lines.join('\n');
}

export function registerProfileCommands(program: Command, runtime: CliRuntime): void {
  const profiles = program
    .command('profiles')
    .description('Screening profiles: lists, cut-offs and knobs per organization or key; draft, backtest, activate');
  const asMember = <T>(opts: { org: string; user: string }, fn: (ctx: CallerContext, app: AppContext) => Promise<T>) =>
    runtime.withContext(async (app) => fn(await memberContext(app.operator, opts.org, opts.user), app));

  profiles
    .command('knobs')
    .description('What each knob of a profile does, its default and range')
    .option('--json', 'print one JSON document')
    .action((_opts: unknown, command: Command) => {
      printResult(runtime.output(command), KNOBS, () =>
        table(
          ['knob', 'default', 'range', 'meaning'],
          KNOBS.map((k) => [k.name, k.default, k.range, k.meaning]),
        ),
      );
    });

  profiles
    .command('list')
    .description("List an organization's profiles")
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'a member of the organization')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string; user: string }, command: Command) => {
      const list = await asMember(opts, (ctx, app) => app.services.profiles.list({ ctx }));
      printResult(runtime.output(command), list, () =>
        list.length === 0
          ? 'no profiles: every screening runs under the built-in default'
          : list.map(profileText).join('\n\n'),
      );
    });

  profiles
    .command('create')
    .description('Create the organization\u2019s profile, or a key\u2019s (admin); --settings makes its first draft')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'an admin of the organization')
    .option('--name <name>', 'a name for it')
    .option('--key <id>', 'the API key (key_...) it applies to; left out: the organization')
    .option('--settings <json>', 'knobs of the first draft (see `profiles knobs`)')
    .option('--json', 'print one JSON document')
    .action(
      async (opts: { org: string; user: string; name?: string; key?: string; settings?: string }, command: Command) => {
        const profile = await asMember(opts, (ctx, app) =>
          app.services.profiles.create({
            ctx,
            input: {
              ...(opts.name !== undefined ? { name: opts.name } : {}),
              ...(opts.key !== undefined ? { keyId: opts.key } : {}),
              ...(opts.settings !== undefined ? { settings: settingsJson(opts.settings) } : {}),
            },
          }),
        );
        printResult(runtime.output(command), profile, () => profileText(profile));
      },
    );

  profiles
    .command('draft')
    .description('Save a draft: the knobs given change the active version\u2019s (admin)')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'an admin of the organization')
    .requiredOption('--id <id>', 'the profile (prf_...)')
    .requiredOption('--settings <json>', 'knobs, e.g. \'{"sources":["eu_csl","un_csl"],"mediumCutoff":70}\'')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string; user: string; id: string; settings: string }, command: Command) => {
      const profile = await asMember(opts, (ctx, app) =>
        app.services.profiles.saveDraft({ ctx, input: { id: opts.id, settings: settingsJson(opts.settings) } }),
      );
      printResult(runtime.output(command), profile, () => profileText(profile));
    });

  profiles
    .command('backtest')
    .description('Replay stored screenings under the active version and the draft, against the lists in force (admin)')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'an admin of the organization')
    .requiredOption('--id <id>', 'the profile (prf_...)')
    .option('--window-days <n>', 'days back from now (default 90)', parseWhole('--window-days'))
    .option('--limit <n>', 'most screenings replayed (default 100000)', parseWhole('--limit'))
    .option('--out <file>', 'also write the full report (JSON) to this file')
    .option('--json', 'print one JSON document')
    .action(
      async (
        opts: { org: string; user: string; id: string; windowDays?: number; limit?: number; out?: string },
        command: Command,
      ) => {
        const backtest = await asMember(opts, (ctx, app) =>
          app.services.profiles.backtest({
            ctx,
            input: { id: opts.id, windowDays: opts.windowDays, limit: opts.limit },
          }),
        );
        if (opts.out) writeFileSync(opts.out, `${JSON.stringify(backtest, null, 2)}\n`);
        printResult(runtime.output(command), backtest, () => backtestText(backtest));
      },
    );

  profiles
    .command('activate')
    .description('Activate the draft (admin); a reason is needed when it drops a confirmed match')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'an admin of the organization')
    .requiredOption('--id <id>', 'the profile (prf_...)')
    .option('--reason <text>', 'why, when the backtest drops confirmed matches')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string; user: string; id: string; reason?: string }, command: Command) => {
      const profile = await asMember(opts, (ctx, app) =>
        app.services.profiles.activate({ ctx, input: { id: opts.id, reason: opts.reason } }),
      );
      printResult(runtime.output(command), profile, () =>
        profile.draft?.state === 'pending'
          ? `version ${profile.draft.version} waits for a second admin (four-eyes): sanctions profiles approve`
          : `version ${profile.activeVersion} is active\n${profileText(profile)}`,
      );
    });

  profiles
    .command('approve')
    .description('Approve a version waiting for a second admin (four-eyes)')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'an admin other than the one who asked')
    .requiredOption('--id <id>', 'the profile (prf_...)')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string; user: string; id: string }, command: Command) => {
      const profile = await asMember(opts, (ctx, app) =>
        app.services.profiles.approve({ ctx, input: { id: opts.id } }),
      );
      printResult(runtime.output(command), profile, () => `version ${profile.activeVersion} is active`);
    });
}
