import type { Command } from 'commander';
import type { Clock } from '../infra/clock.js';
import { type Config, loadConfig } from '../infra/config.js';
import { ensureDataDirectory } from '../infra/data-dir.js';
import type { AppContext } from '../start/context.js';
import type { Output } from './output.js';

/** What every command of the command line gets: the configuration, an application context for its run, its output mode. */
export interface CliRuntime {
  config: () => Config;
  /** Opens an application context (database, services) for one command, and closes it after. */
  withContext<T>(fn: (ctx: AppContext) => Promise<T>): Promise<T>;
  output: (command: Command) => Output;
}

export interface CliOptions {
  /** The clock of the commands (tests set theirs; the system clock otherwise). */
  clock?: Clock;
}

export function makeRuntime(env: NodeJS.ProcessEnv, options: CliOptions = {}): CliRuntime {
  let config: Config | undefined;
  const getConfig = () => {
    if (config) return config;
    config = loadConfig(env);
    // Every command that reads the configuration may write to the data directory: make it on a fresh clone.
    for (const folder of ensureDataDirectory(config).created)
      console.error(`sanctions: created the data directory ${folder}`);
    return config;
  };
  return {
    config: getConfig,
    async withContext(fn) {
      // Loaded on use: the list runtime and matching engine are not needed to print usage.
      const { createContext } = await import('../start/context.js');
      const ctx = await createContext(getConfig(), {
        command: true,
        ...(options.clock ? { clock: options.clock } : {}),
      });
      try {
        return await fn(ctx);
      } finally {
        await ctx.close();
      }
    },
    output: (command) => ({ json: Boolean(command.optsWithGlobals().json) }),
  };
}
