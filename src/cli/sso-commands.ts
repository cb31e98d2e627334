import { type Command, InvalidArgumentError } from 'commander';
import type { SsoSettingsView } from '../accounts/index.js';
import { printResult } from './output.js';
import type { CliRuntime } from './runtime.js';

/** `sanctions orgs sso set|show|remove` (issue 33): an organization's sign-in through its OpenID Connect provider. */

function onOff(value: string): boolean {
  if (/^(on|true|yes)$/i.test(value)) return true;
  if (/^(off|false|no)$/i.test(value)) return false;
  throw new InvalidArgumentError('must be on or off');
}

function describe(s: SsoSettingsView): string {
  return [
    `single sign-on of ${s.org}`,
    `  issuer:          ${s.issuer}`,
    `  client id:       ${s.clientId} (secret set)`,
    `  redirect URI:    ${s.redirectUri}  (register it at the provider)`,
    `  email domains:   ${s.domains.join(', ')}`,
    `  role claim:      ${s.roleClaim}`,
    `  admin group:     ${s.adminGroup ?? '-'}`,
    `  analyst group:   ${s.analystGroup ?? '-'}`,
    `  auditor group:   ${s.auditorGroup ?? '-'}`,
    `  scopes:          ${s.scopes}`,
    `  password login:  ${s.passwordLogin ? 'on' : 'off'}`,
  ].join('\n');
}

interface SetOptions {
  org: string;
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  domains?: string;
  roleClaim?: string;
  adminGroup?: string;
  analystGroup?: string;
  auditorGroup?: string;
  scopes?: string;
  passwordLogin?: boolean;
}

export function registerSsoCommands(orgs: Command, runtime: CliRuntime): void {
  const sso = orgs.command('sso').description("Console sign-in through the organization's OpenID Connect provider");
  sso
    .command('set')
    .description('Set up or change single sign-on (the first time: issuer, client id and secret, domains, a group)')
    .requiredOption('--org <slug>', 'organization slug')
    .option(
      '--issuer <url>',
      'issuer URL of the provider (its discovery document is at /.well-known/openid-configuration)',
    )
    .option('--client-id <id>', 'client id registered at the provider')
    .option('--client-secret <secret>', 'client secret (stored sealed under SECRET_KEY when it is set)')
    .option('--domains <list>', 'allowed email domains, comma-separated')
    .option('--role-claim <claim>', 'ID token claim holding the groups (default groups)')
    .option('--admin-group <group>', 'group whose members are admins ("" removes)')
    .option('--analyst-group <group>', 'group whose members are analysts ("" removes)')
    .option('--auditor-group <group>', 'group whose members are auditors ("" removes)')
    .option('--scopes <scopes>', 'scopes asked for, space-separated (default "openid email profile")')
    .option('--password-login <on|off>', 'whether members may also sign in with a password', onOff)
    .option('--json', 'print one JSON document')
    .action(async (opts: SetOptions, command: Command) => {
      const { org, ...rest } = opts;
      const input = Object.fromEntries(Object.entries(rest).filter(([k, v]) => v !== undefined && k !== 'json'));
      const result = await runtime.withContext((ctx) =>
        ctx.services.sso.configure({ ctx: ctx.operator, actor: 'operator', input: { org, ...input } }),
      );
      printResult(runtime.output(command), result, () => describe(result));
    });
  sso
    .command('show')
    .description("Show an organization's single sign-on (never the secret)")
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string }, command: Command) => {
      const result = await runtime.withContext((ctx) => ctx.services.sso.show({ ctx: ctx.operator, input: opts }));
      printResult(runtime.output(command), result, () =>
        result ? describe(result) : `single sign-on is not set up for ${opts.org}`,
      );
    });
  sso
    .command('remove')
    .description('Turn single sign-on off: members sign in with passwords again')
    .requiredOption('--org <slug>', 'organization slug')
    .option('--json', 'print one JSON document')
    .action(async (opts: { org: string }, command: Command) => {
      const result = await runtime.withContext((ctx) =>
        ctx.services.sso.remove({ ctx: ctx.operator, actor: 'operator', input: opts }),
      );
      printResult(runtime.output(command), result, () => `single sign-on of ${result.org} is removed`);
    });
}
