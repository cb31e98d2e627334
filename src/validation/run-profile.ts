import type { Db } from '../infra/database.js';
import { validationError } from '../infra/errors.js';
import type { SourceId } from '../lists/index.js';
import type { MatchOptions } from '../matching/index.js';
import {
  appliedProfile,
  DEFAULT_SETTINGS,
  type ProfileSettings,
  ProfileStore,
  storedSettings,
} from '../profiles/index.js';
import type { Cutoffs } from './figures.js';

/**
 * The screening profile a validation run measures (docs/profiles.md): the one asked for, else the
 * organization's own (the profile of every key without one of its own), else the built-in default.
 * The run screens as that profile's screenings do: the engine is given the profile's options (its
 * floor, sources, per-row floors, knobs) and a match counts as found at the profile's cut-offs.
 */
export interface RunProfile {
  /** `prf_<id>`, or `default` for the built-in profile. */
  id: string;
  /** The version in force when the run started; 0 for the built-in default. */
  version: number;
  engineOptions: Pick<MatchOptions, 'floor' | 'sources' | 'rowFloors' | 'knobs'>;
  cutoffs: Cutoffs;
  /** The sources the profile screens against; null: every source. */
  sources: SourceId[] | null;
}

export const DEFAULT_PROFILE_ID = 'default';

function runProfileOf(id: string, version: number, settings: ProfileSettings, floor: number): RunProfile {
  return {
    id,
    version,
    engineOptions: appliedProfile(id, version, settings, floor).options,
    cutoffs: { medium: settings.mediumCutoff, high: settings.highCutoff },
    sources: settings.sources,
  };
}

export const BUILT_IN_RUN_PROFILE: RunProfile = runProfileOf(DEFAULT_PROFILE_ID, 0, { ...DEFAULT_SETTINGS }, 0);

/**
 * The profile of a run for an organization (`orgId` null: the built-in default). `profileId` names
 * one of the organization's profiles (the field that named it is `field`, for the error); left out,
 * the organization's own profile.
 */
export async function resolveRunProfile(
  db: Db,
  request: { orgId: string | null; profileId?: string | undefined; floor: number; field: string },
): Promise<RunProfile> {
  const wanted = request.profileId === DEFAULT_PROFILE_ID ? undefined : request.profileId;
  if (request.orgId === null) {
    if (wanted) throw validationError(request.field, 'a screening profile belongs to an organization: give one');
    return BUILT_IN_RUN_PROFILE;
  }
  const rows = await new ProfileStore(db).active(request.orgId);
  const row = wanted ? rows.find((r) => r.id === wanted) : rows.find((r) => r.key_id === null);
  if (wanted && !row)
    throw validationError(request.field, `"${wanted}" is not a screening profile of the organization`);
  if (!row) return BUILT_IN_RUN_PROFILE;
  return runProfileOf(row.id, row.version, storedSettings(row.settings), request.floor);
}
