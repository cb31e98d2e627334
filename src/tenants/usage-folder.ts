import type { Log } from '../infra/context.js';
import type { Db } from '../infra/database.js';
import { PollingJob } from '../infra/polling-job.js';
import { foldUsage } from './quota.js';

/** How often every node folds the appended usage into the usage rows (the rows are exact without it). */
export const USAGE_FOLD_INTERVAL_MS = 5_000;

/**
 * Folds usage_added into `usage` (tenants/quota.ts `foldUsage`) as a background job of every node:
 * the appended rows stay few, and `usage` is a plain row per organization and month for whoever reads
 * it directly. `usedThisMonth` counts both, so what is not folded yet is never missing from a count.
 */
export class UsageFolder {
  readonly job: PollingJob<number>;

  constructor(options: { db: Db; intervalMs?: number; log?: Log }) {
    this.job = new PollingJob<number>({
      name: 'usage fold',
      intervalMs: options.intervalMs ?? USAGE_FOLD_INTERVAL_MS,
      round: async () => ({ more: false, report: await foldUsage(options.db) }),
      ...(options.log ? { log: options.log } : {}),
    });
  }
}
