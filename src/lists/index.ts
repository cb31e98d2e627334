/**
 * The lists: the record model, the stored list versions and their changes, the list runtime the
 * screenings read, and the sync (loaded on first use: `loadListSync`, so commands that never sync
 * start without the adapters and their parsers).
 * This face is how other domains and the layers above import lists/ (eslint.config.js, docs/architecture.md).
 */
export { changePage, changesOfVersions, latestChanges } from './change-feed.js';
export type { ChangeItem, ChangePage, ChangeQuery } from './change-feed.js';
export { listLabels } from './labels.js';
export type { ChangeKind } from './list-changes.js';
export { ListRuntime } from './list-runtime.js';
export type { ListSnapshot, LoadedVersion, RecordShelf } from './list-runtime.js';
export { LIST_SCHEMAS, ListChangePage, ListChangesQuery } from './list-schemas.js';
export { listStatus } from './list-status.js';
export { ListStore } from './list-store.js';
export { SOURCE_IDS, SOURCE_LABELS, emptyRecord, isOfficialSource } from './model.js';
export type {
  Derivation,
  EntityType,
  Identifier,
  IdentifierType,
  ListName,
  ListRecord,
  NameKind,
  NameQuality,
  OfficialSourceId,
  SourceId,
} from './model.js';
export { PollStateStore, pollIntervalOf } from './poll-state.js';
export type { DerivedSource, ListSyncDeps, ListSyncService, SyncOutcome, SyncPhase } from './sync-service.js';

export const loadListSync = () => import('./sync-service.js');
export { versionSummaries } from './change-feed.js';
export type { VersionSummary } from './change-feed.js';
