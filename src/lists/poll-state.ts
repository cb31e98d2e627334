import type { ListsConfig } from '../infra/config.js';
import type { Db } from '../infra/database.js';
import type { ListPollStateTable } from '../infra/db-schema.js';

/**
 * When each source was last checked, last changed and is next due (issue 30), in the database so
 * every node of a deployment sees one schedule, and the publisher's validators that make the next
 * check a conditional request.
 */

export type PollStateRow = ListPollStateTable;

/** What the publisher said of a file: sent back as If-None-Match / If-Modified-Since. */
export interface FileValidator {
  etag?: string;
  lastModified?: string;
}

/** Per file name, or (`dir`) the digest of a list directory's file names, sizes and times. */
export type StoredValidators = { files?: Record<string, FileValidator>; dir?: string };

export function parseValidators(raw: string | null | undefined): StoredValidators {
  if (!raw) return {};
  try {
    return JSON.parse(raw) as StoredValidators;
  } catch {
    return {};
  }
}

/** The poll interval of a source (LIST_POLL_INTERVALS, else LIST_POLL_INTERVAL); 0 when it is not polled. */
export function pollIntervalOf(config: ListsConfig, source: string): number {
  return config.pollIntervals[source] ?? config.pollIntervalMs;
}

/**
 * The wait before the next check: the poll interval after a good check; after `failures` failed
 * checks in a row, LIST_POLL_BACKOFF doubled per failure up to LIST_POLL_BACKOFF_MAX, of which a
 * random half is kept ("equal jitter"), so that many nodes or sources that failed together do not
 * ask the publisher again at the same instant.
 */
export function nextCheckDelay(config: ListsConfig, source: string, failures: number, random: () => number): number {
  const interval = pollIntervalOf(config, source) || config.pollIntervalMs || 24 * 3_600_000;
  if (failures <= 0) return interval;
  const full = Math.min(config.pollBackoffMaxMs, config.pollBackoffMs * 2 ** Math.min(failures - 1, 30));
  return Math.round(full / 2 + random() * (full / 2));
}

export interface CheckRecord {
  at: string;
  status: 'not_modified' | 'unchanged' | 'updated' | 'rejected' | 'skipped';
  /** Undefined keeps the stored validators (a rejected check never replaces them). */
  validators?: StoredValidators;
  error: string | null;
  nextCheckAt: string;
  failures: number;
}

export class PollStateStore {
  constructor(private readonly db: Db) {}

  get(source: string): Promise<PollStateRow | undefined> {
    return this.db.selectFrom('list_poll_state').selectAll().where('source', '=', source).executeTakeFirst();
  }

  async all(): Promise<Map<string, PollStateRow>> {
    const rows = await this.db.selectFrom('list_poll_state').selectAll().execute();
    return new Map(rows.map((r) => [r.source, r]));
  }

  async record(source: string, check: CheckRecord): Promise<void> {
    const values = {
      last_check_at: check.at,
      last_check_status: check.status,
      next_check_at: check.nextCheckAt,
      failures: check.failures,
      last_error: check.error,
      ...(check.validators !== undefined ? { validators: JSON.stringify(check.validators) } : {}),
      ...(check.status === 'updated' ? { last_change_at: check.at } : {}),
    };
    await this.db
      .insertInto('list_poll_state')
      .values({ source, validators: null, last_change_at: null, ...values })
      .onConflict((oc) => oc.column('source').doUpdateSet(values))
      .execute();
  }
}
