import { Type, type Static } from '@sinclair/typebox';
import { KNOBS, PROFILE_SOURCES } from './profile-settings.js';

/**
 * Request and response shapes of the screening profile endpoints (docs/profiles.md). Each knob's
 * description is its line of the declared table (profile-settings.ts KNOBS); the ranges are checked
 * by parseSettings, which names the field at fault.
 */

const knob = (name: string) => {
  const spec = KNOBS.find((x) => x.name === name)!;
  return `${spec.meaning} Default ${spec.default}; ${spec.range}.`;
};

const CutoffPair = Type.Object(
  {
    medium: Type.Optional(Type.Number({ description: 'Medium cut-off (50 to 99).' })),
    high: Type.Optional(Type.Number({ description: 'High cut-off (above the medium one, up to 100).' })),
  },
  { $id: 'ProfileCutoffs', title: 'ProfileCutoffs' },
);

const settingsProperties = {
  sources: Type.Union([Type.Array(Type.String()), Type.Null()], { description: knob('sources') }),
  mediumCutoff: Type.Number({ description: knob('mediumCutoff') }),
  highCutoff: Type.Number({ description: knob('highCutoff') }),
  sourceCutoffs: Type.Record(Type.String(), Type.Ref(CutoffPair), {
    description: `${knob('sourceCutoffs')} Keys: ${PROFILE_SOURCES.join(', ')}.`,
  }),
  entityTypeCutoffs: Type.Record(Type.String(), Type.Ref(CutoffPair), { description: knob('entityTypeCutoffs') }),
  weakAliases: Type.Boolean({ description: knob('weakAliases') }),
  birthDateToleranceYears: Type.Integer({ description: knob('birthDateToleranceYears') }),
  missingBirthDatePoints: Type.Number({ description: knob('missingBirthDatePoints') }),
  missingCountryPoints: Type.Number({ description: knob('missingCountryPoints') }),
  groupByCluster: Type.Boolean({ description: knob('groupByCluster') }),
};

export const ProfileSettingsSchema = Type.Object(settingsProperties, {
  $id: 'ProfileSettings',
  title: 'ProfileSettings',
  description:
    'The knobs of a screening profile; only these are a profile\u2019s, the engine\u2019s inner weights are not.',
});

/** Knobs as sent: any subset; those left out keep the active version's values. */
export const ProfileSettingsInput = Type.Partial(Type.Object(settingsProperties), {
  $id: 'ProfileSettingsInput',
  title: 'ProfileSettingsInput',
  description:
    'Any subset of the knobs; a knob left out keeps its value in the active version. A knob out of its range is 400 VALIDATION_ERROR naming it (`settings.mediumCutoff`).',
});

const VersionFields = {
  version: Type.Integer(),
  state: Type.String({ description: 'draft, pending (waits for a second admin), active, retired or discarded.' }),
  createdAt: Type.String({ format: 'date-time' }),
  createdBy: Type.String({ description: 'User id.' }),
  backtestedAt: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why it was activated although its backtest drops confirmed matches.',
  }),
  requestedBy: Type.Union([Type.String(), Type.Null()]),
  activatedAt: Type.Union([Type.String(), Type.Null()]),
  activatedBy: Type.Union([Type.String(), Type.Null()]),
};

const ProfileVersion = Type.Object(
  { ...VersionFields, settings: Type.Ref(ProfileSettingsSchema) },
  { $id: 'ProfileVersion', title: 'ProfileVersion' },
);

const Levels = Type.Object({ low: Type.Integer(), medium: Type.Integer(), high: Type.Integer() });

const Side = Type.Object({
  riskLevel: Type.String(),
  riskScore: Type.Number(),
  entityId: Type.Union([Type.String(), Type.Null()]),
  entityName: Type.Union([Type.String(), Type.Null()]),
  explanation: Type.Union([Type.String(), Type.Null()], { description: "The top match's explanation." }),
});

const LostMatch = Type.Object({
  screeningId: Type.String(),
  query: Type.String(),
  entityId: Type.String(),
  entityName: Type.Union([Type.String(), Type.Null()]),
  decisionId: Type.String(),
  currentScore: Type.Union([Type.Number(), Type.Null()]),
});

const listed = <T extends ReturnType<typeof Type.Object>>(item: T, description: string) =>
  Type.Object({ total: Type.Integer(), items: Type.Array(item, { description: 'At most 1,000.' }) }, { description });

export const BacktestReportSchema = Type.Object(
  {
    window: Type.Object({ from: Type.String(), to: Type.String(), days: Type.Integer() }),
    screenings: Type.Integer({ description: 'Stored screenings replayed (newest first).' }),
    truncated: Type.Boolean({ description: 'True when the window held more than `limit` screenings.' }),
    listVersions: Type.Array(Type.Object({ source: Type.String(), version: Type.String() }), {
      description: 'The lists in force that both sides ran against.',
    }),
    alerts: Type.Object(
      {
        current: Levels,
        draft: Levels,
        removed: Type.Integer({ description: 'Medium or high under the active version, low under the draft.' }),
        added: Type.Integer({ description: 'Low under the active version, medium or high under the draft.' }),
      },
      { description: 'Screenings by level under each side.' },
    ),
    levelChanges: listed(
      Type.Object({
        screeningId: Type.String(),
        query: Type.String(),
        timestamp: Type.String(),
        current: Side,
        draft: Side,
      }),
      'Every screening whose level changes, with both explanations.',
    ),
    confirmedLost: listed(LostMatch, 'Matches an analyst confirmed that the draft would no longer report.'),
    falsePositivesCleared: listed(
      LostMatch,
      'Matches an analyst found false positive that the draft would no longer raise.',
    ),
    tookMs: Type.Integer(),
  },
  { $id: 'BacktestReport', title: 'BacktestReport' },
);

export const Profile = Type.Object(
  {
    id: Type.String({ description: '`prf_<id>`' }),
    name: Type.String(),
    keyId: Type.Union([Type.String(), Type.Null()], {
      description: "The API key it applies to; null: the organization's profile (every key without its own).",
    }),
    activeVersion: Type.Integer(),
    active: Type.Ref(ProfileVersion),
    draft: Type.Union([Type.Ref(ProfileVersion), Type.Null()]),
    backtest: Type.Union([Type.Ref(BacktestReportSchema), Type.Null()], { description: "The draft's last backtest." }),
    history: Type.Array(Type.Object(VersionFields), { description: 'Every version, oldest first.' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Profile', title: 'Profile' },
);

export const ProfileInForce = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Null()], { description: 'null: the built-in default profile.' }),
    version: Type.Integer(),
    settings: Type.Ref(ProfileSettingsSchema),
  },
  { $id: 'ProfileInForce', title: 'ProfileInForce' },
);

export const CreateProfileRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'At most 100 characters.' })),
    keyId: Type.Optional(
      Type.String({
        description: "An API key of the organization: the profile applies to it alone. Left out: the organization's.",
      }),
    ),
    settings: Type.Optional(Type.Ref(ProfileSettingsInput)),
  },
  { $id: 'CreateProfileRequest', title: 'CreateProfileRequest' },
);
export type CreateProfileBody = Static<typeof CreateProfileRequest>;

export const DraftRequest = Type.Object(
  { settings: Type.Ref(ProfileSettingsInput) },
  { $id: 'ProfileDraftRequest', title: 'ProfileDraftRequest' },
);

export const BacktestRequest = Type.Object(
  {
    windowDays: Type.Optional(Type.Integer({ description: 'Days back from now; default 90, 1 to 3660.' })),
    limit: Type.Optional(
      Type.Integer({ description: 'Most screenings replayed, newest first; default 100,000, at most 250,000.' }),
    ),
  },
  { $id: 'BacktestRequest', title: 'BacktestRequest' },
);

export const ActivateRequest = Type.Object(
  {
    reason: Type.Optional(
      Type.String({
        description: "Required when the draft's backtest drops a confirmed match; at most 2,000 characters.",
      }),
    ),
  },
  { $id: 'ActivateProfileRequest', title: 'ActivateProfileRequest' },
);

export const PROFILE_SCHEMAS = [
  CutoffPair,
  ProfileSettingsSchema,
  ProfileSettingsInput,
  ProfileVersion,
  BacktestReportSchema,
  Profile,
  ProfileInForce,
  CreateProfileRequest,
  DraftRequest,
  BacktestRequest,
  ActivateRequest,
];
