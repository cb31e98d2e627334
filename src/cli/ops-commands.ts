import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { backupSqlite, checkBackup, restoreSqlite } from '../infra/backup.js';
import { AppError } from '../infra/errors.js';
import { SecretBox } from '../infra/secrets.js';
import { acquireServerLock, lockHolder } from '../start/operations.js';
import { rotateWebhookSecrets } from '../tenants/index.js';
import { rotateSsoSecrets } from '../accounts/index.js';
import { printResult } from './output.js';
import type { CliRuntime } from './runtime.js';

const ON_POSTGRES =
  'the database is PostgreSQL: back it up with pg_dump and restore with pg_restore (README, "Running it in production")';

/** `backup`, `restore` and `secrets rotate` (issue 17). */
export function registerOpsCommands(program: Command, runtime: CliRuntime): void {
  program
    .command('backup')
    .description('Copy the SQLite database to FILE with the online backup API (consistent while the server runs)')
    .requiredOption('--to <file>', 'the backup file to write')
    .option('--force', 'overwrite FILE when it exists')
    .option('--json', 'print one JSON document')
    .action(async (opts: { to: string; force?: boolean }, command: Command) => {
      const { database } = runtime.config();
      if (database.engine !== 'sqlite') throw new AppError('BAD_REQUEST', ON_POSTGRES);
      const to = resolve(opts.to);
      if (existsSync(to) && !opts.force)
        throw new AppError('VALIDATION_ERROR', `--to: ${to} exists (give --force to overwrite it)`, { field: 'to' });
      const report = await backupSqlite(database.url, to);
      printResult(
        runtime.output(command),
        { engine: 'sqlite', database: database.url, ...report },
        () => `backed up ${database.url} to ${report.file} (${report.bytes} bytes, ${report.pages} pages)`,
      );
    });

  program
    .command('restore')
    .description('Replace the SQLite database with a backup; refused while a server uses the database')
    .requiredOption('--from <file>', 'a file written by sanctions backup')
    .option('--json', 'print one JSON document')
    .action(async (opts: { from: string }, command: Command) => {
      const { database } = runtime.config();
      if (database.engine !== 'sqlite') throw new AppError('BAD_REQUEST', ON_POSTGRES);
      const from = resolve(opts.from);
      const holder = lockHolder(database.url);
      if (holder) {
        throw new AppError(
          'CONFLICT',
          `a server (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}) is using ${database.url}: stop it first`,
        );
      }
      const { migrations } = checkBackup(from);
      // Held while restoring, so that no server starts on a half-replaced database.
      const lock = acquireServerLock(database.url, new Date());
      try {
        const report = await restoreSqlite(from, database.url);
        printResult(
          runtime.output(command),
          { engine: 'sqlite', from, migrations, ...report },
          () =>
            `restored ${report.file} from ${from} (${report.bytes} bytes; migrations up to ${migrations.at(-1) ?? '-'})`,
        );
      } finally {
        lock.release();
      }
    });

  const secrets = program.command('secrets').description('Webhook secrets encrypted at rest (SECRET_KEY)');
  secrets
    .command('rotate')
    .description(
      'Re-encrypt every webhook and single sign-on client secret under SECRET_KEY (opening them with SECRET_KEY_PREVIOUS)',
    )
    .option('--json', 'print one JSON document')
    .action(async (_opts, command: Command) => {
      const box = new SecretBox(runtime.config().ops);
      const report = await runtime.withContext(async (ctx) =>
        rotateSsoSecrets(ctx.operator, box, await rotateWebhookSecrets(ctx.operator, box)),
      );
      printResult(runtime.output(command), report, () =>
        [
          `key ${report.keyId}: ${report.rotated} secrets re-encrypted, ${report.unchanged} already under it`,
          ...report.failed.map((f) => `  ${f.org}: ${f.error}`),
        ].join('\n'),
      );
      if (report.failed.length > 0) process.exitCode = 1;
    });
}
