/**
 * Runs the admin command line as a user would: `node bin/sanctions ...` from the repository root (it
 * loads the compiled dist/), with the configuration of a TestEnv in its environment.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT, type TestEnv } from './harness.js';

export const BIN = resolve(REPO_ROOT, 'bin/sanctions');
export const CLI_BUILT = existsSync(resolve(REPO_ROOT, 'dist/src/cli/main.js'));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON document, or undefined when it is not exactly one. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export function cli(env: TestEnv, args: string[]): Promise<CliResult> {
  const childEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    // Only the basics of the parent: the test's configuration must be the whole configuration.
    if (value !== undefined && ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SYSTEMROOT'].includes(name)) childEnv[name] = value;
  }
  Object.assign(childEnv, env.env);
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: REPO_ROOT, env: childEnv, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        let json: unknown;
        try {
          json = stdout.trim() ? JSON.parse(stdout) : undefined;
        } catch {
          json = undefined;
        }
        done({ code, stdout, stderr, json });
      },
    );
  });
}
