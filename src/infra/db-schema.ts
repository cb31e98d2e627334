/**
 * Table types shared by both engines. To keep one repository layer, values are stored in forms both
 * SQLite and PostgreSQL hold the same way: timestamps as ISO 8601 UTC text (sortable), booleans as
 * integers 0/1, structured values as JSON text.
 */

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
  created_at: string;
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
  created_at: string;
  removed_at: string | null;
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

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  api_key_usage: ApiKeyUsageTable;
  rate_limits: RateLimitsTable;
  usage: UsageTable;
  screenings: ScreeningsTable;
  idempotency_keys: IdempotencyKeysTable;
  list_versions: ListVersionsTable;
  list_records: ListRecordsTable;
  job_locks: JobLocksTable;
  monitors: MonitorsTable;
  alerts: AlertsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
