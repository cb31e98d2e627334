/**
 * Table types shared by both engines. To keep one repository layer, values are stored in forms both
 * SQLite and PostgreSQL hold the same way: timestamps as ISO 8601 UTC text (sortable), booleans as
 * integers 0/1, structured values as JSON text.
 */
import type {
  ConsoleInvitationsTable,
  ConsoleSessionsTable,
  OrgSsoTable,
  SignInFailuresTable,
  SsoLoginsTable,
  UserPasswordsTable,
} from './db-schema-console.js';

export type {
  ConsoleInvitationsTable,
  ConsoleSessionsTable,
  OrgSsoTable,
  SignInFailuresTable,
  SsoLoginsTable,
  UserPasswordsTable,
} from './db-schema-console.js';

export interface OrganizationsTable {
  id: string;
  slug: string;
  name: string;
  tier: string;
  monthly_quota: number | null;
  webhook_url: string | null;
  webhook_secret: string | null;
  webhook_paused_at: string | null;
  webhook_failures: number;
  /** Four-eyes for false positives: `off`, `high` (matches of level high) or `all`. */
  four_eyes: string;
  /** Days after which a suppression lapses for review (default 365). */
  review_days: number;
  /** 1: the organization's webhook also gets `lists.changed` (issue 30); default 0. */
  webhook_lists_changed?: number;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: string;
  email: string;
  created_at: string;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  org_id: string;
  user_id: string;
  prefix: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** When each API key was last used, written at most once a minute per key (migration 0008). */
export interface ApiKeyUsageTable {
  key_id: string;
  last_used_at: string;
}

export interface RateLimitsTable {
  bucket: string;
  window_start: number;
  count: number;
}

export interface UsageTable {
  org_id: string;
  month: string;
  count: number;
}

/** Usage appended by group commits on PostgreSQL, until folded into `usage` (tenants/quota.ts). */
export interface UsageAddedTable {
  org_id: string;
  month: string;
  count: number;
}

export interface ScreeningsTable {
  id: string;
  org_id: string;
  key_id: string;
  query: string;
  search_key: string;
  entity_type: string | null;
  country: string | null;
  birth_date: string | null;
  group_by_cluster: number;
  risk_score: number;
  risk_level: string;
  confidence: number;
  entity_id: string | null;
  entity_name: string | null;
  matched_sources: string;
  used_sources: string;
  list_versions: string;
  match_details: string;
  /** The customer reference of the request (issue 13), trimmed; null when none was given. */
  external_id: string | null;
  /** Package version and digest of the matching engine that ran; null for screenings stored before 0005. */
  engine_version: string | null;
  created_at: string;
  /** JSON array of the search's identifiers (screening/identifiers-input.ts); null when it named none. */
  identifiers: string | null;
  /** JSON array of the request's warnings (identifiers screened as written, issue 27); null when none. */
  warnings: string | null;
  /** The screening profile it ran under (docs/profiles.md): null id with version 0 is the built-in default. */
  profile_id: ProfileColumns['profile_id'];
  profile_version: ProfileColumns['profile_version'];
}

/** The profile a screening, batch row or rescreen ran under; both null when stored before profiles existed. */
export interface ProfileColumns {
  profile_id: string | null;
  profile_version: number | null;
}

export interface ScreeningProfilesTable {
  id: string;
  org_id: string;
  /** The API key it applies to; null: the organization's profile (for every key without its own). */
  key_id: string | null;
  name: string;
  active_version: number;
  created_at: string;
}

export interface ScreeningProfileVersionsTable {
  profile_id: string;
  version: number;
  org_id: string;
  /** draft, pending (waits for a second user), active, retired, discarded. */
  state: string;
  /** JSON of the knobs (profiles/profile-settings.ts). */
  settings: string;
  created_by: string;
  created_at: string;
  /** JSON summary of the draft's last backtest. */
  backtest: string | null;
  backtested_at: string | null;
  /** Why it was activated although it drops confirmed matches. */
  reason: string | null;
  requested_by: string | null;
  requested_at: string | null;
  activated_by: string | null;
  activated_at: string | null;
}

export interface IdempotencyKeysTable {
  org_id: string;
  key: string;
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  screening_id: string | null;
  created_at: string;
}

export interface ListVersionsTable {
  id: string;
  source: string;
  status: string;
  fetched_at: string;
  published_at: string | null;
  sha256: string | null;
  record_count: number;
  format: string | null;
  files: string;
  message: string | null;
  took_ms: number;
  activated_at: string | null;
}

export interface ListRecordsTable {
  version_id: string;
  seq: number;
  record_id: string;
  data: string;
}

/** One row per source: the publisher's validators and the check schedule (issue 30). */
export interface ListPollStateTable {
  source: string;
  /** JSON: per file name `{ etag, lastModified }`, or `{ dir: digest }` for a list directory. */
  validators: string | null;
  last_check_at: string | null;
  /** not_modified, unchanged, updated, rejected or skipped. */
  last_check_status: string | null;
  last_change_at: string | null;
  next_check_at: string | null;
  /** Failed checks in a row (0 after a good one): the backoff's exponent. */
  failures: number;
  last_error: string | null;
}

/** One listed entity's difference between a version and the one before it (issue 30). */
export interface ListChangesTable {
  version_id: string;
  seq: number;
  source: string;
  record_id: string;
  /** added, removed or changed. */
  kind: string;
  /** 1 when a field that lapses a suppression changed (names, birth dates, nationalities, identifiers, programs, type). */
  major: number;
  name: string;
  entity_type: string;
  /** JSON array of the fields that changed. */
  fields: string;
  /** JSON: per changed field, the values added and removed. */
  detail: string;
  activated_at: string;
}

export interface JobLocksTable {
  name: string;
  holder: string;
  expires_at: string;
}

export interface MonitorsTable {
  id: string;
  org_id: string;
  screening_id: string;
  search_key: string;
  query: string;
  entity_type: string | null;
  country: string | null;
  birth_date: string | null;
  entity_name: string | null;
  risk_threshold: number;
  is_active: number;
  last_risk_score: number;
  last_risk_level: string;
  last_sources: string;
  last_entity_id: string | null;
  last_list_versions: string;
  last_screened_at: string;
  rescreen_generation: string | null;
  /** The customer reference: given with POST /monitors, else the screening's. */
  external_id: string | null;
  created_at: string;
  removed_at: string | null;
  /** JSON array of the monitored search's identifiers; null when it names none. */
  identifiers: string | null;
  /** When its terms were written into monitor_terms (monitoring/monitor-terms.ts); null: not yet. */
  terms_at?: string | null;
}

export interface ListsChangedNoticesTable {
  version_id: string;
  notified_at: string;
}

export interface MonitorTermsTable {
  term: string;
  monitor_id: string;
}

export interface AlertsTable {
  id: string;
  org_id: string;
  monitor_id: string;
  entity_id: string | null;
  entity_name: string | null;
  old_risk_score: number;
  new_risk_score: number;
  old_risk_level: string;
  new_risk_level: string;
  old_sources: string;
  new_sources: string;
  reasons: string;
  list_versions: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  note: string | null;
  /** The matches of the rescreen that raised the alert, as JSON text (null for alerts before 0005). */
  match_details: string | null;
  /** Suppressions that lapsed in that rescreen: JSON array of {decisionId, entityId, reason}. */
  lapses: string | null;
  /** The profile of the rescreen that raised it (left out by writers before profiles: null). */
  profile_id?: ProfileColumns['profile_id'];
  profile_version?: ProfileColumns['profile_version'];
}

export interface DecisionsTable {
  id: string;
  org_id: string;
  screening_id: string | null;
  alert_id: string | null;
  entity_id: string;
  entity_name: string;
  match_score: number;
  match_level: string;
  decision: string;
  /** Required for false_positive; optional for the others. */
  reason: string | null;
  note: string | null;
  user_id: string;
  key_id: string | null;
  /** Whom the decision is about: `ext:<externalId>`, or `search:<search key>` when there is none. */
  customer_key: string;
  /** The search key of the customer's screened data when decided. */
  customer_data: string;
  external_id: string | null;
  /** SHA-256 of the listing's major fields when decided. */
  fingerprint: string | null;
  list_version: string | null;
  /** When the list version the decision saw was activated: later versions are reviewed for delisting. */
  listed_since: string | null;
  /** `pending` (waits for a second user) or `effective`. */
  status: string;
  approved_by: string | null;
  approved_at: string | null;
  review_at: string | null;
  delisted_at: string | null;
  lapsed_at: string | null;
  lapse_reason: string | null;
  created_at: string;
}

export interface DecisionListReviewsTable {
  version_id: string;
  reviewed_at: string;
}

export interface AuditLogTable {
  id: string;
  chain: string;
  seq: number;
  at: string;
  event: string;
  actor: string;
  subject: string;
  data: string;
  prev_hash: string;
  content_hash: string;
  entry_hash: string;
}

export interface AuditHeadsTable {
  chain: string;
  seq: number;
  entry_hash: string;
  /** The last entry covered by a seal (0: none yet). */
  sealed_seq: number;
  /** The hash of the chain's last seal (GENESIS_HASH before the first). */
  seal_hash: string;
}

/** An audit entry written but not yet placed in its chain (the sealer places and seals it). */
export interface AuditPendingTable {
  id: string;
  chain: string;
  at: string;
  event: string;
  actor: string;
  subject: string;
  data: string;
}

/** A seal: the entries first_seq..last_seq of a chain, linked to the seal before it. */
export interface AuditSealsTable {
  chain: string;
  first_seq: number;
  last_seq: number;
  /** The chain's entry hash at last_seq: computed over each covered entry in turn. */
  entries_hash: string;
  /** seal_hash of the chain's previous seal (GENESIS_HASH for the first). */
  prev_hash: string;
  seal_hash: string;
  sealed_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  alert_id: string | null;
  event: string;
  payload: string;
  is_test: number;
  state: string;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  claimed_by: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status: number | null;
  error: string | null;
}

export interface BatchesTable {
  id: string;
  org_id: string;
  /** The caller who created the batch (JSON): its rows are screened in that caller's name. */
  caller: string;
  /** receiving, queued, running, completed, failed, cancelled. */
  status: string;
  /** json, csv, ndjson, xlsx. */
  source: string;
  file_name: string | null;
  total: number;
  monitor: number;
  group_by_cluster: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface BatchRowsTable {
  batch_id: string;
  /** The row's key: the line of the file (the item's position, from 1, for JSON). */
  line: number;
  /** queued, done, error, cancelled. */
  state: string;
  /** The POST /screen body of the row (JSON). */
  input: string;
  external_id: string | null;
  screening_id: string | null;
  risk_level: string | null;
  risk_score: number | null;
  entity_id: string | null;
  entity_name: string | null;
  matched_sources: string | null;
  error_code: string | null;
  error_field: string | null;
  error_message: string | null;
  claimed_until: string | null;
  claimed_by: string | null;
  /** The profile the row's screening ran under, set when the row is done. */
  profile_id?: ProfileColumns['profile_id'];
  profile_version?: ProfileColumns['profile_version'];
}

export interface ValidationRunsTable {
  id: string;
  /** Null for the quick runs recorded on list activations (the deployment's, not an organization's). */
  org_id: string | null;
  /** full, quick, activation. */
  kind: string;
  /** queued, running, completed, failed. */
  status: string;
  /** The run's options (JSON): seed, thresholds, cut-offs, sizes, focus. */
  options: string;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  phase: string | null;
  done: number;
  total: number;
  claimed_by: string | null;
  claimed_until: string | null;
  error: string | null;
  passed: number | null;
  /** The report's summary rows (JSON). */
  summary: string | null;
  report_json: string | null;
  report_html: string | null;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  api_key_usage: ApiKeyUsageTable;
  rate_limits: RateLimitsTable;
  usage: UsageTable;
  usage_added: UsageAddedTable;
  screenings: ScreeningsTable;
  idempotency_keys: IdempotencyKeysTable;
  list_versions: ListVersionsTable;
  list_records: ListRecordsTable;
  list_poll_state: ListPollStateTable;
  list_changes: ListChangesTable;
  job_locks: JobLocksTable;
  monitors: MonitorsTable;
  monitor_terms: MonitorTermsTable;
  lists_changed_notices: ListsChangedNoticesTable;
  alerts: AlertsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  decisions: DecisionsTable;
  decision_list_reviews: DecisionListReviewsTable;
  audit_log: AuditLogTable;
  audit_heads: AuditHeadsTable;
  audit_pending: AuditPendingTable;
  audit_seals: AuditSealsTable;
  batches: BatchesTable;
  batch_rows: BatchRowsTable;
  user_passwords: UserPasswordsTable;
  console_invitations: ConsoleInvitationsTable;
  console_sessions: ConsoleSessionsTable;
  sign_in_failures: SignInFailuresTable;
  validation_runs: ValidationRunsTable;
  org_sso: OrgSsoTable;
  sso_logins: SsoLoginsTable;
  screening_profiles: ScreeningProfilesTable;
  screening_profile_versions: ScreeningProfileVersionsTable;
}
