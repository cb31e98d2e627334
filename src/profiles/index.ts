/**
 * Screening profiles: the settings a screening applies, their store and service, and the backtest.
 * This face is how other domains and the layers above import profiles/ (eslint.config.js, docs/architecture.md).
 */
export type { BacktestReport } from './backtest.js';
export {
  ActivateRequest,
  BacktestReportSchema,
  BacktestRequest,
  CreateProfileRequest,
  DraftRequest,
  PROFILE_SCHEMAS,
  Profile,
  ProfileInForce,
} from './profile-schemas.js';
export { profileService } from './profile-service.js';
export type { ProfileService } from './profile-service.js';
export { DEFAULT_SETTINGS, KNOBS, PROFILE_SOURCES } from './profile-settings.js';
export type { ProfileSettings } from './profile-settings.js';
export { MISSING_POINTS_RANGE, storedSettings } from './profile-settings.js';
export { ProfileStore } from './profile-store.js';
export { memberContext } from './profile-views.js';
export type { ProfileView } from './profile-views.js';
export { PROFILE_CHANNEL, PROFILE_TABLES, appliedProfile, profileResolver } from './profile-resolver.js';
