import type { Db } from '../infra/database.js';
import { type TableWatch, watchTables } from '../infra/table-watch.js';
import type { SourceId } from '../lists/index.js';
import { type AppliedProfile, BUILT_IN_PROFILE, type ProfileResolver } from '../screening/index.js';
import {
  cutoffsFor,
  DEFAULT_SETTINGS,
  engineOptions,
  isDefault,
  levelUnder,
  type ProfileSettings,
  storedSettings,
} from './profile-settings.js';
import { type ActiveRow, ProfileStore } from './profile-store.js';

/**
 * Which profile a screening runs under, and its applied form (issue 29, docs/profiles.md): a key's
 * own profile, else its organization's, else the built-in default. The active profiles of every
 * organization are kept in memory on each node while the profile tables do not change.
 */

/** The tables a profile cache watches; on PostgreSQL their triggers notify PROFILE_CHANNEL (migration 0021). */
export const PROFILE_TABLES = ['screening_profiles', 'screening_profile_versions'] as const;
export const PROFILE_CHANNEL = 'sanctions_profiles';

/** The applied form of a profile version: what a screening gives the engine and how it reads levels. */
export function appliedProfile(
  id: string | null,
  version: number,
  settings: ProfileSettings,
  configFloor: number,
): AppliedProfile {
  if (isDefault(settings)) return Object.assign({}, BUILT_IN_PROFILE, { id, version });
  const cutoffsMoved =
    settings.mediumCutoff !== DEFAULT_SETTINGS.mediumCutoff ||
    settings.highCutoff !== DEFAULT_SETTINGS.highCutoff ||
    Object.keys(settings.sourceCutoffs).length > 0 ||
    Object.keys(settings.entityTypeCutoffs).length > 0;
  return {
    id,
    version,
    options: engineOptions(settings, configFloor),
    groupByCluster: settings.groupByCluster,
    ...(cutoffsMoved
      ? {
          level: (score, top) =>
            levelUnder(
              score,
              top
                ? cutoffsFor(settings, top.source as SourceId, top.entityType as never)
                : { medium: settings.mediumCutoff, high: settings.highCutoff },
            ),
        }
      : {}),
  };
}

/** Which of an organization's active profiles applies to a key: its own, else the organization's. */
export function pickProfile(rows: ActiveRow[], orgId: string, keyId: string): ActiveRow | undefined {
  let orgWide: ActiveRow | undefined;
  for (const row of rows) {
    if (row.org_id !== orgId) continue;
    if (row.key_id === keyId) return row;
    if (row.key_id === null) orgWide = row;
  }
  return orgWide;
}

interface Cache {
  watch: TableWatch | undefined;
  version?: number | undefined;
  rows?: ActiveRow[];
}

/**
 * The resolver POST /screen, rescreens and batches ask on every screening. The active profiles of
 * every organization are read once and kept while the profile tables do not change: on SQLite
 * infra/table-watch.ts tells; on PostgreSQL `watch` does (infra/pg-notify-watch.ts on
 * PROFILE_CHANNEL: an activation on any node reaches the others at its commit). Without a working
 * watch (PostgreSQL while its listening connection is down) the organization's are read each time.
 */
export function profileResolver(options: { configFloor: number; watch?: TableWatch | undefined }): ProfileResolver {
  const caches = new WeakMap<Db, Cache>();
  const applied = new Map<string, AppliedProfile>();
  const toApplied = (row: ActiveRow): AppliedProfile => {
    const key = `${row.id}@${row.version}`;
    let found = applied.get(key);
    if (!found) {
      found = appliedProfile(row.id, row.version, storedSettings(row.settings), options.configFloor);
      applied.set(key, found);
    }
    return found;
  };
  return async (db, orgId, keyId) => {
    let cache = caches.get(db);
    if (!cache) {
      cache = { watch: watchTables(db, PROFILE_TABLES) ?? options.watch };
      caches.set(db, cache);
    }
    const version = cache.watch?.version();
    let rows: ActiveRow[];
    if (version === undefined) rows = await new ProfileStore(db).active(orgId);
    else {
      if (cache.version !== version || !cache.rows) {
        cache.rows = await new ProfileStore(db).active();
        // A change while reading: read again next time.
        cache.version = cache.watch?.version() === version ? version : undefined;
      }
      rows = cache.rows;
    }
    const row = pickProfile(rows, orgId, keyId);
    return row ? toApplied(row) : BUILT_IN_PROFILE;
  };
}
