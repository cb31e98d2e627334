import type { Command } from 'commander';
import type { CliRuntime } from './main.js';

/** Commands of the monitoring and webhooks work (alerts, webhooks) are registered here. */
export function registerExtraCommands(_program: Command, _runtime: CliRuntime): void {}
