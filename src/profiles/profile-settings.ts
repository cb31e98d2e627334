import { validationError } from '../infra/errors.js';
import { type EntityType, SOURCE_IDS, type SourceId } from '../lists/index.js';
import {
  KNOBS as ENGINE_KNOBS,
  type EngineKnobs,
  HIGH_BOUNDARY,
  type MatchOptions,
  MEDIUM_BOUNDARY,
  type RiskLevel,
} from '../matching/index.js';

/**
 * The knobs of a screening profile (issue 29, docs/profiles.md): only what a compliance officer
 * should own. The engine's inner weights stay the engine's (src/matching/). Every knob is declared
 * here once, with its default, range and meaning: the validation, the OpenAPI description, the
 * console page and docs/profiles.md read this table.
 */

export const PROFILE_SOURCES: readonly SourceId[] = [...SOURCE_IDS, 'us_ofac_50'];
export const PROFILE_ENTITY_TYPES: readonly EntityType[] = ['person', 'organization', 'vessel', 'aircraft'];

export interface Cutoffs {
  medium: number;
  high: number;
}

export interface ProfileSettings {
  /** The sources screened against; null: every source, including any added later. */
  sources: SourceId[] | null;
  mediumCutoff: number;
  highCutoff: number;
  /** Cut-offs of one source; a knob left out falls back to the entity type's, then the profile's. */
  sourceCutoffs: Partial<Record<SourceId, Partial<Cutoffs>>>;
  entityTypeCutoffs: Partial<Record<EntityType, Partial<Cutoffs>>>;
  weakAliases: boolean;
  birthDateToleranceYears: number;
  /** Points a screening with a birth date loses against a listing that gives none (0: no effect). */
  missingBirthDatePoints: number;
  /** Points a screening with a country loses against a listing that gives none (0: no effect). */
  missingCountryPoints: number;
  groupByCluster: boolean;
}

/** Lowest medium cut-off: the engine reports nothing under the contract's medium boundary (DECISIONS.md). */
export const MIN_MEDIUM = MEDIUM_BOUNDARY;
export const MAX_CUTOFF = 100;
export const MAX_BIRTH_TOLERANCE = 10;
/** The range of the missing-fact knobs: the engine's own (matching/engine-knobs.ts). */
export const MISSING_POINTS_RANGE = {
  min: ENGINE_KNOBS.missingBirthDatePoints.min!,
  max: ENGINE_KNOBS.missingBirthDatePoints.max!,
};

export const DEFAULT_SETTINGS: Readonly<ProfileSettings> = Object.freeze({
  sources: null,
  mediumCutoff: MEDIUM_BOUNDARY,
  highCutoff: HIGH_BOUNDARY,
  sourceCutoffs: {},
  entityTypeCutoffs: {},
  weakAliases: true,
  // The engine's own tolerance (corroboration.ts birthDateEffect): a listed year one off is "near".
  birthDateToleranceYears: 1,
  missingBirthDatePoints: ENGINE_KNOBS.missingBirthDatePoints.default as number,
  missingCountryPoints: ENGINE_KNOBS.missingCountryPoints.default as number,
  groupByCluster: false,
});

export interface Knob {
  name: keyof ProfileSettings;
  default: string;
  range: string;
  meaning: string;
}

/** The declared table of knobs: what each does, its default and range. */
export const KNOBS: readonly Knob[] = [
  {
    name: 'sources',
    default: 'every source',
    range: `null, or a non-empty subset of ${PROFILE_SOURCES.join(', ')}`,
    meaning:
      'The lists screened against. A listing found only on a source left out is never reported, and does not raise the risk of one found elsewhere. `us_ofac_50` is the ownership-derived source.',
  },
  {
    name: 'mediumCutoff',
    default: String(MEDIUM_BOUNDARY),
    range: `${MIN_MEDIUM} to ${MAX_CUTOFF - 1}`,
    meaning:
      'A match scoring under it is not reported, and a risk score under it is level low. Raising it removes weak alerts; every match it removes is listed by the backtest.',
  },
  {
    name: 'highCutoff',
    default: String(HIGH_BOUNDARY),
    range: 'above the medium cut-off, up to 100',
    meaning: 'A risk score at or above it is level high.',
  },
  {
    name: 'sourceCutoffs',
    default: 'none',
    range: 'per source id: {medium?, high?} in the ranges above',
    meaning:
      "Cut-offs of one list, for a list this organization weighs differently. A source's cut-off wins over its entity type's, which wins over the profile's.",
  },
  {
    name: 'entityTypeCutoffs',
    default: 'none',
    range: 'per entity type (person, organization, vessel, aircraft): {medium?, high?}',
    meaning: 'Cut-offs for listings of one entity type (for example a higher medium cut-off for vessels).',
  },
  {
    name: 'weakAliases',
    default: 'true',
    range: 'true or false',
    meaning:
      'Whether the a.k.a.s the lists themselves mark weak or low quality are compared. Off, a party listed only under a weak alias of the screened name is not found by it.',
  },
  {
    name: 'birthDateToleranceYears',
    default: '1',
    range: `0 to ${MAX_BIRTH_TOLERANCE}`,
    meaning:
      'A listed birth year within this many years of the screened one is near: it does not contradict an approximate listed date, and it lowers the score less than a far one.',
  },
  {
    name: 'missingBirthDatePoints',
    default: '0',
    range: `${MISSING_POINTS_RANGE.min} to ${MISSING_POINTS_RANGE.max}`,
    meaning:
      'How a missing birth date counts: points taken from a match when the screening gives a birth date and the listing none (a negative number). 0, the default, counts it as neither for nor against.',
  },
  {
    name: 'missingCountryPoints',
    default: '0',
    range: `${MISSING_POINTS_RANGE.min} to ${MISSING_POINTS_RANGE.max}`,
    meaning:
      'How a missing country counts: points taken from a match when the screening gives a country and the listing none (a negative number). 0, the default, counts it as neither for nor against.',
  },
  {
    name: 'groupByCluster',
    default: 'false',
    range: 'true or false',
    meaning: 'The default of POST /screen groupByCluster when a request leaves it out.',
  },
];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cutoff(field: string, value: unknown, lo: number, hi: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < lo || value > hi)
    throw validationError(field, `must be a number from ${lo} to ${hi}`);
  return Math.round(value * 10) / 10;
}

function bool(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw validationError(field, 'must be true or false');
  return value;
}

function overrides<K extends string>(
  field: string,
  value: unknown,
  keys: readonly K[],
): Partial<Record<K, Partial<Cutoffs>>> {
  if (!isObject(value)) throw validationError(field, 'must be an object');
  const out: Partial<Record<K, Partial<Cutoffs>>> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (!(keys as readonly string[]).includes(key))
      throw validationError(`${field}.${key}`, `must be one of ${keys.join(', ')}`);
    if (!isObject(entry)) throw validationError(`${field}.${key}`, 'must be an object with medium and/or high');
    const cutoffs: Partial<Cutoffs> = {};
    if (entry.medium !== undefined)
      cutoffs.medium = cutoff(`${field}.${key}.medium`, entry.medium, MIN_MEDIUM, MAX_CUTOFF - 1);
    if (entry.high !== undefined) cutoffs.high = cutoff(`${field}.${key}.high`, entry.high, MIN_MEDIUM + 1, MAX_CUTOFF);
    if (cutoffs.medium !== undefined || cutoffs.high !== undefined) out[key as K] = cutoffs;
  }
  return out;
}

/**
 * Reads knobs sent by a client (API, command line, console) over `base` (the settings they change):
 * a knob left out keeps its value in `base`. A bad knob is 400 VALIDATION_ERROR naming it
 * (`settings.mediumCutoff`, `settings.sourceCutoffs.us_csl.high`).
 */
export function parseSettings(input: unknown, base: ProfileSettings = DEFAULT_SETTINGS): ProfileSettings {
  if (!isObject(input)) throw validationError('settings', 'must be an object');
  const out: ProfileSettings = { ...base };
  const fieldOf = (name: string) => `settings.${name}`;
  if (input.sources !== undefined) {
    if (input.sources === null) out.sources = null;
    else {
      if (!Array.isArray(input.sources) || input.sources.length === 0)
        throw validationError(fieldOf('sources'), 'must be null (every source) or a non-empty array of source ids');
      const seen = new Set<SourceId>();
      input.sources.forEach((s, i) => {
        if (typeof s !== 'string' || !(PROFILE_SOURCES as readonly string[]).includes(s))
          throw validationError(`${fieldOf('sources')}[${i}]`, `must be one of ${PROFILE_SOURCES.join(', ')}`);
        seen.add(s as SourceId);
      });
      out.sources = PROFILE_SOURCES.filter((s) => seen.has(s));
    }
  }
  if (input.mediumCutoff !== undefined)
    out.mediumCutoff = cutoff(fieldOf('mediumCutoff'), input.mediumCutoff, MIN_MEDIUM, MAX_CUTOFF - 1);
  if (input.highCutoff !== undefined)
    out.highCutoff = cutoff(fieldOf('highCutoff'), input.highCutoff, MIN_MEDIUM + 1, MAX_CUTOFF);
  if (input.sourceCutoffs !== undefined)
    out.sourceCutoffs = overrides(fieldOf('sourceCutoffs'), input.sourceCutoffs, PROFILE_SOURCES);
  if (input.entityTypeCutoffs !== undefined)
    out.entityTypeCutoffs = overrides(fieldOf('entityTypeCutoffs'), input.entityTypeCutoffs, PROFILE_ENTITY_TYPES);
  if (input.weakAliases !== undefined) out.weakAliases = bool(fieldOf('weakAliases'), input.weakAliases);
  if (input.birthDateToleranceYears !== undefined) {
    const tolerance = input.birthDateToleranceYears;
    if (!Number.isInteger(tolerance) || (tolerance as number) < 0 || (tolerance as number) > MAX_BIRTH_TOLERANCE)
      throw validationError(
        fieldOf('birthDateToleranceYears'),
        `must be a whole number from 0 to ${MAX_BIRTH_TOLERANCE}`,
      );
    out.birthDateToleranceYears = tolerance as number;
  }
  for (const name of ['missingBirthDatePoints', 'missingCountryPoints'] as const)
    if (input[name] !== undefined)
      out[name] = cutoff(fieldOf(name), input[name], MISSING_POINTS_RANGE.min, MISSING_POINTS_RANGE.max);
  if (input.groupByCluster !== undefined) out.groupByCluster = bool(fieldOf('groupByCluster'), input.groupByCluster);
  if (out.highCutoff <= out.mediumCutoff) throw validationError(fieldOf('highCutoff'), 'must be above mediumCutoff');
  // Every combination of a source's and an entity type's cut-offs must keep high above medium.
  for (const source of PROFILE_SOURCES) {
    for (const entityType of PROFILE_ENTITY_TYPES) {
      const cutoffs = cutoffsFor(out, source, entityType);
      if (cutoffs.high <= cutoffs.medium) {
        const where = out.sourceCutoffs[source] ? `sourceCutoffs.${source}` : `entityTypeCutoffs.${entityType}`;
        throw validationError(
          fieldOf(`${where}.high`),
          `must be above the medium cut-off it meets (${cutoffs.medium})`,
        );
      }
    }
  }
  return out;
}

/** The cut-offs of a listing: its source's, else its entity type's, else the profile's. */
export function cutoffsFor(settings: ProfileSettings, source: SourceId, entityType: EntityType | undefined): Cutoffs {
  const bySource = settings.sourceCutoffs[source];
  const byType = entityType ? settings.entityTypeCutoffs[entityType] : undefined;
  return {
    medium: bySource?.medium ?? byType?.medium ?? settings.mediumCutoff,
    high: bySource?.high ?? byType?.high ?? settings.highCutoff,
  };
}

/** True when the settings are the built-in default's: the engine runs exactly as without profiles. */
export function isDefault(settings: ProfileSettings): boolean {
  return canonicalSettings(settings) === canonicalSettings(DEFAULT_SETTINGS);
}

/** One text per settings (keys in one order), for storing and comparing. */
export function canonicalSettings(settings: ProfileSettings): string {
  const sortKeys = <T extends object>(o: T) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as T;
  return JSON.stringify({
    sources: settings.sources,
    mediumCutoff: settings.mediumCutoff,
    highCutoff: settings.highCutoff,
    sourceCutoffs: sortKeys(settings.sourceCutoffs),
    entityTypeCutoffs: sortKeys(settings.entityTypeCutoffs),
    weakAliases: settings.weakAliases,
    birthDateToleranceYears: settings.birthDateToleranceYears,
    missingBirthDatePoints: settings.missingBirthDatePoints,
    missingCountryPoints: settings.missingCountryPoints,
    groupByCluster: settings.groupByCluster,
  });
}

/** Stored settings: parsed over the defaults, so a knob added later reads as its default. */
export function storedSettings(json: string): ProfileSettings {
  return parseSettings(JSON.parse(json) as unknown);
}

/** What the engine is given for a profile; the default profile gives nothing (the engine as it always was). */
export function engineOptions(
  settings: ProfileSettings,
  configFloor: number,
): Pick<MatchOptions, 'floor' | 'sources' | 'rowFloors' | 'knobs'> {
  const out: Pick<MatchOptions, 'floor' | 'sources' | 'rowFloors' | 'knobs'> = {};
  if (settings.sources) out.sources = settings.sources;
  // The engine's own knobs (matching/engine-knobs.ts), given only where the profile departs from them.
  const knobs: EngineKnobs = {};
  if (!settings.weakAliases) knobs.weakAliases = false;
  if (settings.birthDateToleranceYears !== DEFAULT_SETTINGS.birthDateToleranceYears)
    knobs.birthDateToleranceYears = settings.birthDateToleranceYears;
  if (settings.missingBirthDatePoints !== DEFAULT_SETTINGS.missingBirthDatePoints)
    knobs.missingBirthDatePoints = settings.missingBirthDatePoints;
  if (settings.missingCountryPoints !== DEFAULT_SETTINGS.missingCountryPoints)
    knobs.missingCountryPoints = settings.missingCountryPoints;
  if (Object.keys(knobs).length > 0) out.knobs = knobs;
  const bySource: Partial<Record<SourceId, number>> = {};
  const byEntityType: Partial<Record<EntityType, number>> = {};
  for (const [source, cutoffValue] of Object.entries(settings.sourceCutoffs))
    if (cutoffValue.medium !== undefined) bySource[source as SourceId] = cutoffValue.medium;
  for (const [entityType, cutoffValue] of Object.entries(settings.entityTypeCutoffs))
    if (cutoffValue.medium !== undefined) byEntityType[entityType as EntityType] = cutoffValue.medium;
  const mediums = [settings.mediumCutoff, ...Object.values(bySource), ...Object.values(byEntityType)];
  const lowest = Math.min(...mediums);
  const hasOverrides = Object.keys(bySource).length > 0 || Object.keys(byEntityType).length > 0;
  if (settings.mediumCutoff !== DEFAULT_SETTINGS.mediumCutoff || hasOverrides) {
    // The engine's floor is the lowest cut-off (never under the operator's MATCH_FLOOR when that is higher).
    out.floor = Math.max(configFloor, lowest);
    if (hasOverrides) out.rowFloors = { bySource, byEntityType, otherwise: settings.mediumCutoff };
  }
  return out;
}

/** The level of a risk score under cut-offs. */
export function levelUnder(score: number, c: Cutoffs): RiskLevel {
  if (score >= c.high) return 'high';
  if (score >= c.medium) return 'medium';
  return 'low';
}
