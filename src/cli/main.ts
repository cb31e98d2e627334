import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../infra/config.js';
import { AppError } from '../infra/errors.js';
import { registerTenantCommands } from './tenant-commands.js';
import { registerListCommands } from './list-commands.js';
import { registerExtraCommands } from './extra-commands.js';
import { registerDecisionCommands } from './decision-commands.js';
import { registerProfileCommands } from './profile-commands.js';
import { registerBatchCommands } from './batch-commands.js';
import { registerOpsCommands } from './ops-commands.js';
import { registerValidateCommands } from './validate-commands.js';
import { printResult } from './output.js';
import { type CliOptions, makeRuntime } from './runtime.js';

/**
 * `sanctions`: the admin command line. It reads the same configuration (environment) as the server.
 * Every command accepts --json and then prints exactly one JSON document.
 */

export function buildProgram(env: NodeJS.ProcessEnv = process.env, options: CliOptions = {}): Command {
  const runtime = makeRuntime(env, options);
  const program = new Command('sanctions')
    .description('Sanctions screening service: server and administration')
    .showHelpAfterError(true)
    .configureHelp({ sortSubcommands: true })
    .exitOverride();

  program
    .command('serve')
    .description('Start the HTTP API (runs migrations, loads and refreshes the lists)')
    .option('--json', 'log as JSON (the server always logs JSON lines)')
    .action(async () => {
      const { main } = await import('../start/server.js');
      await main();
    });

  program
    .command('migrate')
    .description('Run pending database migrations')
    .option('--json', 'print one JSON document')
    .action(async (_opts, command: Command) => {
      const config = runtime.config();
      const [{ ensureSchema, openDatabase }, { migrateToLatest }] = await Promise.all([
        import('../infra/database.js'),
        import('../infra/migrations.js'),
      ]);
      await ensureSchema(config.database);
      const handle = openDatabase(config.database);
      try {
        const report = await migrateToLatest(handle.db);
        printResult(runtime.output(command), { engine: config.database.engine, applied: report.applied }, () =>
          report.applied.length ? `applied: ${report.applied.join(', ')}` : 'database is up to date',
        );
      } finally {
        await handle.close();
      }
    });

  registerTenantCommands(program, runtime);
  registerListCommands(program, runtime);
  registerExtraCommands(program, runtime);
  registerDecisionCommands(program, runtime);
  registerProfileCommands(program, runtime);
  registerBatchCommands(program, runtime);
  registerOpsCommands(program, runtime);
  registerValidateCommands(program, runtime);
  return program;
}

/** The (sub)command that argv names, for printing its usage. */
function commandFor(program: Command, argv: string[]): Command | undefined {
  let command: Command | undefined;
  let scope = program;
  for (const word of argv) {
    if (word.startsWith('-')) break;
    const next = scope.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    command = next;
    scope = next;
  }
  return command;
}

/** Runs the command line; returns the exit code. */
export async function run(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  options: CliOptions = {},
): Promise<number> {
  const program = buildProgram(env, options);
  const wantsJson = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    // A command may finish its output and still report failure (lists sync with a rejected source).
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; usage errors were already printed on stderr with the command's usage.
      if (error.exitCode === 0) return 0;
      if (wantsJson)
        console.log(JSON.stringify({ error: { code: 'USAGE_ERROR', message: error.message.replace(/^error: /, '') } }));
      return 2;
    }
    if (error instanceof AppError || error instanceof ConfigError) {
      const code = error instanceof AppError ? error.code : 'CONFIG_ERROR';
      if (wantsJson) console.log(JSON.stringify({ error: { code, message: error.message } }));
      else console.error(`error: ${error.message}`);
      // An argument the service refused (a malformed email, slug or date) is a usage error too.
      if (code === 'VALIDATION_ERROR') {
        const command = commandFor(program, argv);
        if (command) process.stderr.write(`\n${command.helpInformation()}`);
        return 2;
      }
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (wantsJson) console.log(JSON.stringify({ error: { code: 'INTERNAL_ERROR', message } }));
    else console.error(`error: ${message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv.slice(2)).then((code) => {
    // `serve` keeps running; every other command ends here, even if a library left a handle open.
    if (code !== 0 || process.argv[2] !== 'serve') process.exit(code);
  });
}
