import { Command, InvalidArgumentError } from 'commander';
import { ROLES, TIERS } from '../tenants/index.js';
import type { CliRuntime } from './runtime.js';
import { printResult, table } from './output.js';
import { registerSsoCommands } from './sso-commands.js';

function whole(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

function tier(value: string): string {
  if (!(TIERS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${TIERS.join(', ')}`);
  return value;
}

function role(value: string): string {
  if (!(ROLES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`must be one of ${ROLES.join(', ')}`);
  return value;
}

/** orgs, users and keys commands (issue: service foundation, part 6). */
export function registerTenantCommands(program: Command, runtime: CliRuntime): void {
  const orgs = registerOrgCommands(program, runtime);
  registerSsoCommands(orgs, runtime);
  registerUserCommands(program, runtime);
  registerKeyCommands(program, runtime);
}

function registerOrgCommands(program: Command, runtime: CliRuntime): Command {
  const orgs = program.command('orgs').description('Manage organizations');
  orgs
    .command('create')
    .description('Create an organization')
    .requiredOption('--slug <slug>', 'short unique name (lower-case letters, digits, dashes)')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--tier <tier>', `one of ${TIERS.join(', ')}`, tier)
    .option('--quota <n>', 'own monthly screening quota (overrides the tier)', whole)
    .option('--json', 'print one JSON document')
    .action(async (opts: { slug: string; name: string; tier: string; quota?: number }, command: Command) => {
      const org = await runtime.withContext((ctx) =>
        ctx.services.tenants.createOrganization({
          ctx: ctx.operator,
          input: { slug: opts.slug, name: opts.name, tier: opts.tier, quota: opts.quota ?? null },
        }),
      );
      printResult(runtime.output(command), org, () => `created organization ${org.slug} (${org.id}), tier ${org.tier}`);
    });

  orgs
    .command('update')
    .description('Change an organization')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--name <name>', 'display name')
    .option('--tier <tier>', `one of ${TIERS.join(', ')}`, tier)
    .option('--quota <n>', 'own monthly quota; "none" to use the tier quota', (v: string) =>
      v === 'none' ? null : whole(v),
    )
    .option('--webhook-url <url>', 'where alerts are sent; "" to remove')
    .option('--webhook-secret <secret>', 'HMAC secret for webhook signatures (at least 16 characters)')
    .option(
      '--lists-changed <on|off>',
      'also send the lists.changed webhook event when list versions come into force',
      (v: string) => {
        if (v !== 'on' && v !== 'off') throw new InvalidArgumentError('must be on or off');
        return v === 'on';
      },
    )
    .option('--four-eyes <mode>', 'false positives need a second user: high (matches of level high), all, or off')
    .option('--review-days <n>', 'days until a suppression lapses for review (default 365)', whole)
    .option('--json', 'print one JSON document')
    .action(
      async (
        opts: {
          org: string;
          name?: string;
          tier?: string;
          quota?: number | null;
          webhookUrl?: string;
          webhookSecret?: string;
          listsChanged?: boolean;
          fourEyes?: string;
          reviewDays?: number;
        },
        command: Command,
      ) => {
        const org = await runtime.withContext((ctx) =>
          ctx.services.tenants.updateOrganization({
            ctx: ctx.operator,
            input: {
              org: opts.org,
              ...(opts.name !== undefined ? { name: opts.name } : {}),
              ...(opts.tier !== undefined ? { tier: opts.tier } : {}),
              ...(opts.quota !== undefined ? { quota: opts.quota } : {}),
              ...(opts.webhookUrl !== undefined ? { webhookUrl: opts.webhookUrl } : {}),
              ...(opts.webhookSecret !== undefined ? { webhookSecret: opts.webhookSecret } : {}),
              ...(opts.listsChanged !== undefined ? { listsChanged: opts.listsChanged } : {}),
              ...(opts.fourEyes !== undefined ? { fourEyes: opts.fourEyes } : {}),
              ...(opts.reviewDays !== undefined ? { reviewDays: opts.reviewDays } : {}),
            },
          }),
        );
        printResult(runtime.output(command), org, () => `updated organization ${org.slug}`);
      },
    );

  orgs
    .command('list')
    .description('List organizations')
    .option('--json', 'print one JSON document')
    .action(async (_opts, command: Command) => {
      const list = await runtime.withContext((ctx) => ctx.services.tenants.listOrganizations({ ctx: ctx.operator }));
      printResult(runtime.output(command), list, () =>
        table(
          ['slug', 'id', 'name', 'tier', 'quota', 'webhook'],
          list.map((o) => [
            o.slug,
            o.id,
            o.name,
            o.tier,
            o.effectiveQuota ?? 'unlimited',
            o.webhookUrl ? (o.webhookPaused ? 'paused' : 'on') : 'off',
          ]),
        ),
      );
    });
  return orgs;
}

function registerUserCommands(program: Command, runtime: CliRuntime): void {
  const users = program.command('users').description('Manage the users of an organization');
  users
    .command('add')
    .description('Add a user (by email) to an organization')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--email <email>', 'email address of the user')
    .option('--role <role>', `${ROLES.join(', ')}; default admin for the first member, analyst after`, role)
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string; email: string; role?: string }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.tenants.addUser({ ctx: ctx.operator, input: opts }),
      );
      printResult(runtime.output(command), result, () =>
        result.created
          ? `added ${result.email} to ${result.org} as ${result.role}`
          : `${result.email} is a member of ${result.org} as ${result.role}`,
      );
    });
  users
    .command('invite')
    .description('Print a single-use link to set a console password (a reset link for a user who has one)')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--email <email>', 'email address of the user; made a member when not one yet')
    .option('--role <role>', `for a new member: ${ROLES.join(', ')} (default as for users add)`, role)
    .option('--json', 'print one JSON document (url, email, org, role, purpose, expiresAt, newMember)')
    .action(async (opts: { org: string; email: string; role?: string }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.accounts.invite({ ctx: ctx.operator, input: opts }),
      );
      printResult(
        runtime.output(command),
        result,
        () =>
          `${result.purpose === 'reset' ? 'password reset' : 'invitation'} for ${result.email} (${result.role} in ${result.org}), single use, expires ${result.expiresAt}:\n\n  ${result.url}\n`,
      );
    });
  users
    .command('remove')
    .description("Remove a user from an organization (the user's keys stop working: 403 FORBIDDEN)")
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--email <email>', 'email address of the user')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string; email: string }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.tenants.removeUser({ ctx: ctx.operator, input: opts }),
      );
      printResult(runtime.output(command), result, () => `removed ${result.email} from ${result.org}`);
    });
  users
    .command('list')
    .description('List the members of an organization')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string }, command: Command) => {
      const list = await runtime.withContext((ctx) =>
        ctx.services.tenants.listUsers({ ctx: ctx.operator, input: opts }),
      );
      printResult(runtime.output(command), list, () =>
        table(
          ['email', 'id', 'role', 'since'],
          list.map((u) => [u.email, u.id, u.role, u.created_at]),
        ),
      );
    });
}

function registerKeyCommands(program: Command, runtime: CliRuntime): void {
  const keys = program.command('keys').description('Manage API keys');
  keys
    .command('create')
    .description('Create an API key for a member; the key is shown once')
    .requiredOption('--org <slug>', 'organization slug')
    .requiredOption('--user <email>', 'the member who owns the key')
    .option('--expires-at <iso>', 'expiry, ISO 8601 date or date-time')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string; user: string; expiresAt?: string }, command: Command) => {
      const key = await runtime.withContext((ctx) =>
        ctx.services.tenants.createApiKey({
          ctx: ctx.operator,
          input: {
            org: opts.org,
            email: opts.user,
            ...(opts.expiresAt !== undefined ? { expiresAt: opts.expiresAt } : {}),
          },
        }),
      );
      printResult(
        runtime.output(command),
        key,
        () => `key ${key.id} for ${key.user} in ${key.org}:\n\n  ${key.key}\n\nStore it now: it is not shown again.`,
      );
    });
  keys
    .command('revoke')
    .description('Revoke an API key')
    .requiredOption('--id <id>', 'key id (key_...)')
    .option('--json', 'print one JSON document')
    .action(async (opts: { id: string }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.tenants.revokeApiKey({ ctx: ctx.operator, input: opts }),
      );
      printResult(runtime.output(command), result, () => `revoked ${result.id}`);
    });
  keys
    .command('list')
    .description("List an organization's API keys (prefixes only)")
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string }, command: Command) => {
      const list = await runtime.withContext((ctx) =>
        ctx.services.tenants.listApiKeys({ ctx: ctx.operator, input: opts }),
      );
      printResult(runtime.output(command), list, () =>
        table(
          ['id', 'prefix', 'user', 'status', 'created', 'expires', 'last used'],
          list.map((k) => [k.id, k.prefix, k.user, k.status, k.createdAt, k.expiresAt, k.lastUsedAt]),
        ),
      );
    });
}
