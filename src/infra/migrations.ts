import {
  type CreateTableBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresAdapter,
  sql,
} from 'kysely';
import type { Db } from './database.js';

/**
 * Migrations run forward on both engines, at start-up and by `sanctions migrate`. Column types are
 * chosen to mean the same thing on SQLite and PostgreSQL (see db-schema.ts). Append new migrations;
 * never edit one that has shipped.
 */

// `any` is the Kysely convention for migrations: they must not depend on today's table types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const tenancy: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('organizations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('tier', 'text', (c) => c.notNull())
      .addColumn('monthly_quota', 'integer')
      .addColumn('webhook_url', 'text')
      .addColumn('webhook_secret', 'text')
      .addColumn('webhook_paused_at', 'text')
      .addColumn('webhook_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('memberships')
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('api_keys_org').on('api_keys').column('org_id').execute();
    await db.schema
      .createTable('rate_limits')
      .addColumn('bucket', 'text', (c) => c.primaryKey())
      .addColumn('window_start', 'integer', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('usage')
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_pk', ['org_id', 'month'])
      .execute();
  },
};

const screenings: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('screenings')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('search_key', 'text', (c) => c.notNull())
      .addColumn('entity_type', 'text')
      .addColumn('country', 'text')
      .addColumn('birth_date', 'text')
      .addColumn('group_by_cluster', 'integer', (c) => c.notNull())
      .addColumn('risk_score', 'real', (c) => c.notNull())
      .addColumn('risk_level', 'text', (c) => c.notNull())
      .addColumn('confidence', 'real', (c) => c.notNull())
      .addColumn('entity_id', 'text')
      .addColumn('entity_name', 'text')
      .addColumn('matched_sources', 'text', (c) => c.notNull())
      .addColumn('used_sources', 'text', (c) => c.notNull())
      .addColumn('list_versions', 'text', (c) => c.notNull())
      .addColumn('match_details', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('screenings_org_created').on('screenings').columns(['org_id', 'created_at']).execute();
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('response_status', 'integer')
      .addColumn('response_body', 'text')
      .addColumn('screening_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['org_id', 'key'])
      .execute();
  },
};

const lists: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('list_versions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('fetched_at', 'text', (c) => c.notNull())
      .addColumn('published_at', 'text')
      .addColumn('sha256', 'text')
      .addColumn('record_count', 'integer', (c) => c.notNull())
      .addColumn('format', 'text')
      .addColumn('files', 'text', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('took_ms', 'integer', (c) => c.notNull())
      .addColumn('activated_at', 'text')
      .execute();
    await db.schema.createIndex('list_versions_source').on('list_versions').columns(['source', 'fetched_at']).execute();
    await db.schema
      .createTable('list_records')
      .addColumn('version_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('record_id', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('list_records_pk', ['version_id', 'seq'])
      .execute();
    await db.schema
      .createTable('job_locks')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
};

const monitoring: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('monitors')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('screening_id', 'text', (c) => c.notNull())
      .addColumn('search_key', 'text', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('entity_type', 'text')
      .addColumn('country', 'text')
      .addColumn('birth_date', 'text')
      .addColumn('entity_name', 'text')
      .addColumn('risk_threshold', 'real', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull())
      .addColumn('last_risk_score', 'real', (c) => c.notNull())
      .addColumn('last_risk_level', 'text', (c) => c.notNull())
      .addColumn('last_sources', 'text', (c) => c.notNull())
      .addColumn('last_entity_id', 'text')
      .addColumn('last_list_versions', 'text', (c) => c.notNull())
      .addColumn('last_screened_at', 'text', (c) => c.notNull())
      .addColumn('rescreen_generation', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('removed_at', 'text')
      .execute();
    // One live monitor per search and organization; removed monitors keep their row as history.
    await sql`create unique index monitors_live_search on monitors (org_id, search_key) where removed_at is null`.execute(
      db,
    );
    await db.schema
      .createTable('alerts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('monitor_id', 'text', (c) => c.notNull())
      .addColumn('entity_id', 'text')
      .addColumn('entity_name', 'text')
      .addColumn('old_risk_score', 'real', (c) => c.notNull())
      .addColumn('new_risk_score', 'real', (c) => c.notNull())
      .addColumn('old_risk_level', 'text', (c) => c.notNull())
      .addColumn('new_risk_level', 'text', (c) => c.notNull())
      .addColumn('old_sources', 'text', (c) => c.notNull())
      .addColumn('new_sources', 'text', (c) => c.notNull())
      .addColumn('reasons', 'text', (c) => c.notNull())
      .addColumn('list_versions', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('resolved_at', 'text')
      .addColumn('resolved_by', 'text')
      .addColumn('note', 'text')
      .execute();
    await db.schema.createIndex('alerts_org_created').on('alerts').columns(['org_id', 'created_at']).execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('alert_id', 'text')
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('is_test', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_until', 'text')
      .addColumn('claimed_by', 'text')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('delivered_at', 'text')
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .columns(['state', 'next_attempt_at'])
      .execute();
    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('delivery_id', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('error', 'text')
      .execute();
  },
};

/**
 * Issue 13: the customer reference on screenings and monitors; analyst decisions on matches, their
 * approvals, and the hash-chained audit log.
 */
const decisionsAudit: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('screenings').addColumn('external_id', 'text').execute();
    await db.schema.alterTable('monitors').addColumn('external_id', 'text').execute();
    await db.schema
      .createIndex('screenings_org_external')
      .on('screenings')
      .columns(['org_id', 'external_id', 'created_at'])
      .execute();
    // Which rules ran: the package version and a digest of the matching engine (matching/engine-version.ts).
    await db.schema.alterTable('screenings').addColumn('engine_version', 'text').execute();
    // Per-organization decision settings: four-eyes (off, high, all) and the review period of suppressions.
    await db.schema
      .alterTable('organizations')
      .addColumn('four_eyes', 'text', (c) => c.notNull().defaultTo('off'))
      .execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('review_days', 'integer', (c) => c.notNull().defaultTo(365))
      .execute();
    // An alert keeps the matches of the rescreen that raised it and the suppressions that lapsed in it.
    await db.schema.alterTable('alerts').addColumn('match_details', 'text').execute();
    await db.schema.alterTable('alerts').addColumn('lapses', 'text').execute();
    await db.schema
      .createTable('decisions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('screening_id', 'text')
      .addColumn('alert_id', 'text')
      .addColumn('entity_id', 'text', (c) => c.notNull())
      .addColumn('entity_name', 'text', (c) => c.notNull())
      .addColumn('match_score', 'real', (c) => c.notNull())
      .addColumn('match_level', 'text', (c) => c.notNull())
      .addColumn('decision', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('note', 'text')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('key_id', 'text')
      .addColumn('customer_key', 'text', (c) => c.notNull())
      .addColumn('customer_data', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('fingerprint', 'text')
      .addColumn('list_version', 'text')
      .addColumn('listed_since', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('approved_by', 'text')
      .addColumn('approved_at', 'text')
      .addColumn('review_at', 'text')
      .addColumn('delisted_at', 'text')
      .addColumn('lapsed_at', 'text')
      .addColumn('lapse_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('decisions_customer').on('decisions').columns(['org_id', 'customer_key']).execute();
    await db.schema.createIndex('decisions_org_created').on('decisions').columns(['org_id', 'created_at']).execute();
    await db.schema.createIndex('decisions_entity').on('decisions').columns(['entity_id', 'status']).execute();
    // List versions whose records the suppression review has compared with the live decisions.
    await db.schema
      .createTable('decision_list_reviews')
      .addColumn('version_id', 'text', (c) => c.primaryKey())
      .addColumn('reviewed_at', 'text', (c) => c.notNull())
      .execute();
    // The audit log: one hash chain per organization (and one, `system`, for list activations).
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('chain', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('prev_hash', 'text', (c) => c.notNull())
      .addColumn('content_hash', 'text', (c) => c.notNull())
      .addColumn('entry_hash', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_log_chain_seq').on('audit_log').columns(['chain', 'seq']).unique().execute();
    await db.schema.createIndex('audit_log_chain_at').on('audit_log').columns(['chain', 'at']).execute();
    // The head of each chain: appends lock and move it, so concurrent writers on any node cannot fork a chain.
    await db.schema
      .createTable('audit_heads')
      .addColumn('chain', 'text', (c) => c.primaryKey())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('entry_hash', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * The identifiers of a screening and of a monitor (issue 15): JSON text, an array of
 * `{type, value, normalized, country?, currency?}`; null when the search named none, as every row
 * written before.
 */
const identifiers: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('screenings').addColumn('identifiers', 'text').execute();
    await db.schema.alterTable('monitors').addColumn('identifiers', 'text').execute();
  },
};

/** Batch screening (issue 14): a batch and its rows, keyed by line number, claimed by the batch job. */
const batches: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('caller', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text')
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('monitor', 'integer', (c) => c.notNull())
      .addColumn('group_by_cluster', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema.createIndex('batches_org_created').on('batches').columns(['org_id', 'created_at']).execute();
    await db.schema.createIndex('batches_status').on('batches').columns(['status', 'created_at']).execute();
    await db.schema
      .createTable('batch_rows')
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('line', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('external_id', 'text')
      .addColumn('screening_id', 'text')
      .addColumn('risk_level', 'text')
      .addColumn('risk_score', 'real')
      .addColumn('entity_id', 'text')
      .addColumn('entity_name', 'text')
      .addColumn('matched_sources', 'text')
      .addColumn('error_code', 'text')
      .addColumn('error_field', 'text')
      .addColumn('error_message', 'text')
      .addColumn('claimed_until', 'text')
      .addColumn('claimed_by', 'text')
      .addPrimaryKeyConstraint('batch_rows_pk', ['batch_id', 'line'])
      .execute();
    await db.schema.createIndex('batch_rows_state').on('batch_rows').columns(['batch_id', 'state', 'line']).execute();
  },
};

/**
 * Issue 17: when each API key was last used. A table of its own rather than a column of api_keys:
 * writes to api_keys drop the key cache (tenants/auth.ts, infra/table-watch.ts). Webhook secrets need
 * no column: a sealed secret is text in organizations.webhook_secret (infra/secrets.ts).
 */
const operations: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('api_key_usage')
      .addColumn('key_id', 'text', (c) => c.primaryKey().references('api_keys.id').onDelete('cascade'))
      .addColumn('last_used_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * The web console (issue 16): password hashes, invitation and reset links, sessions and failed
 * sign-ins. Tokens are stored only as their SHA-256 (a database read leaks no usable link or
 * session). Memberships made before roles existed ("member") become admins: they were made by the
 * operator, who alone could act for the organization then.
 */
const consoleAccounts: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('user_passwords')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('console_invitations')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('console_invitations_user').on('console_invitations').column('user_id').execute();
    await db.schema
      .createTable('console_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('address', 'text')
      .execute();
    await db.schema.createIndex('console_sessions_user').on('console_sessions').column('user_id').execute();
    await db.schema
      .createTable('sign_in_failures')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sign_in_failures_email').on('sign_in_failures').columns(['email', 'at']).execute();
    await db.schema.createIndex('sign_in_failures_address').on('sign_in_failures').columns(['address', 'at']).execute();
    await db.updateTable('memberships').set({ role: 'admin' }).where('role', '=', 'member').execute();
  },
};

/**
 * A batch's status counts its rows per state and risk level (batches/batch-store.ts `tally`) on every
 * GET /v1/batches/{id}: read from this index alone, not from every row of the table, so polling a
 * batch of 100,000 rows once a second costs a few milliseconds instead of a tenth of the server's thread.
 */
const batchTally: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex('batch_rows_tally')
      .on('batch_rows')
      .columns(['batch_id', 'state', 'risk_level'])
      .execute();
  },
};

/**
 * The warnings of a screening (issue 27): JSON text, an array of `{field, code, message}` (an
 * identifier screened as written although its check digit fails); null when none, as every row
 * written before.
 */
const identifierWarnings: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('screenings').addColumn('warnings', 'text').execute();
  },
};

/**
 * Issue 34: on PostgreSQL every statement that writes the tables an API key check reads notifies the
 * nodes (LISTEN/NOTIFY, infra/pg-notify-watch.ts), so each node keeps its checked keys in memory and
 * a revoked key, a changed tier or a removed member is refused on every node at once. The payload is
 * the schema, so deployments (or tests) in other schemas of the database are told apart. SQLite has
 * one process, which watches its own tables (infra/table-watch.ts).
 */
const keyAuthNotify: Migration = {
  async up(db: AnyDb) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create or replace function sanctions_key_auth_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('sanctions_key_auth', current_schema());
        return null;
      end $$`.execute(db);
    for (const table of ['api_keys', 'organizations', 'memberships']) {
      await sql`create trigger ${sql.raw(`${table}_key_auth_notify`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function sanctions_key_auth_changed()`.execute(db);
    }
  },
};

/**
 * Screening profiles are cached on every node (profiles/profile-resolver.ts): on PostgreSQL their
 * tables notify `sanctions_profiles` at the commit of every statement that writes them, as the
 * key-auth tables do (0015), so that an activation on one node applies on the others at once.
 */
const profileNotify: Migration = {
  async up(db: AnyDb) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create or replace function sanctions_profiles_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('sanctions_profiles', current_schema());
        return null;
      end $$`.execute(db);
    for (const table of ['screening_profiles', 'screening_profile_versions']) {
      await sql`create trigger ${sql.raw(`${table}_notify`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function sanctions_profiles_changed()`.execute(db);
    }
  },
};

/**
 * Two reads of every POST /screen are answered per organization from memory on each node
 * (decisions/suppression.ts: does the organization have any effective decision;
 * monitoring/monitored-searches.ts: does it monitor anything): on PostgreSQL `decisions` notifies
 * `sanctions_decisions` at the commit of every statement that writes it, and `monitors` notifies
 * `sanctions_monitors` for the statements that can add or remove a live monitor (not the rescreens'
 * updates of their results).
 */
const screeningReadsNotify: Migration = {
  async up(db: AnyDb) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`create or replace function sanctions_table_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify(tg_argv[0], current_schema());
        return null;
      end $$`.execute(db);
    await sql`create trigger decisions_notify
      after insert or update or delete or truncate on decisions
      for each statement execute function sanctions_table_changed('sanctions_decisions')`.execute(db);
    await sql`create trigger monitors_notify
      after insert or update of org_id, search_key, removed_at or delete or truncate on monitors
      for each statement execute function sanctions_table_changed('sanctions_monitors')`.execute(db);
  },
};

/**
 * Frequent list polling and the change feed (issue 30). `list_poll_state` is one row per source:
 * the publisher's validators (ETag, Last-Modified, or a digest of a directory's files) and the
 * schedule of the next check, shared by every node. `list_changes` is the per-entity difference
 * of each activated version from the one before it, written in the activation's transaction and
 * never edited.
 */
const listUpdates: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('list_poll_state')
      .addColumn('source', 'text', (c) => c.primaryKey())
      .addColumn('validators', 'text')
      .addColumn('last_check_at', 'text')
      .addColumn('last_check_status', 'text')
      .addColumn('last_change_at', 'text')
      .addColumn('next_check_at', 'text')
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .execute();
    await db.schema
      .createTable('list_changes')
      .addColumn('version_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('record_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('major', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('entity_type', 'text', (c) => c.notNull())
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('activated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('list_changes_pk', ['version_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('list_changes_feed')
      .on('list_changes')
      .columns(['activated_at', 'version_id', 'seq'])
      .execute();
  },
};

/**
 * Validation runs (issue 31): one row per run, its progress while it runs, and its signed report
 * (report.json and report.html as text) once it is done. org_id is null for the quick runs the
 * deployment records on list activations.
 */
const validationRuns: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('validation_runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.references('organizations.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addColumn('phase', 'text')
      .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'text')
      .addColumn('error', 'text')
      .addColumn('passed', 'integer')
      .addColumn('summary', 'text')
      .addColumn('report_json', 'text')
      .addColumn('report_html', 'text')
      .execute();
    await db.schema
      .createIndex('validation_runs_org')
      .on('validation_runs')
      .columns(['org_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('validation_runs_status')
      .on('validation_runs')
      .columns(['status', 'created_at'])
      .execute();
  },
};

/**
 * Console sign-in through an organization's OpenID Connect provider (issue 33): one row of settings per
 * organization (the client secret sealed like the webhook secret), the sign-ins under way (state,
 * nonce and PKCE verifier, single use), and which way each session was signed in, so that turning
 * password sign-in off ends the password sessions of that organization.
 */
const orgSso: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('org_sso')
      .addColumn('org_id', 'text', (c) => c.primaryKey().references('organizations.id'))
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('client_secret', 'text', (c) => c.notNull())
      .addColumn('domains', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('role_claim', 'text', (c) => c.notNull())
      .addColumn('admin_group', 'text')
      .addColumn('analyst_group', 'text')
      .addColumn('auditor_group', 'text')
      .addColumn('password_login', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('sso_logins')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('browser_hash', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('sso_logins_expires').on('sso_logins').column('expires_at').execute();
    await db.schema
      .alterTable('console_sessions')
      .addColumn('method', 'text', (c) => c.notNull().defaultTo('password'))
      .execute();
  },
};

/**
 * Screening profiles (issue 29, docs/profiles.md): per organization, optionally per API key, each a
 * line of versions (draft, pending, active, retired), and the profile version every screening,
 * batch row and rescreen ran under (null: stored before profiles; version 0: the built-in default).
 */
const screeningProfiles: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('screening_profiles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('key_id', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('active_version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('screening_profiles_org').on('screening_profiles').columns(['org_id']).execute();
    await db.schema
      .createTable('screening_profile_versions')
      .addColumn('profile_id', 'text', (c) => c.notNull().references('screening_profiles.id'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('backtest', 'text')
      .addColumn('backtested_at', 'text')
      .addColumn('reason', 'text')
      .addColumn('requested_by', 'text')
      .addColumn('requested_at', 'text')
      .addColumn('activated_by', 'text')
      .addColumn('activated_at', 'text')
      .addPrimaryKeyConstraint('screening_profile_versions_pk', ['profile_id', 'version'])
      .execute();
    for (const table of ['screenings', 'batch_rows', 'alerts']) {
      await db.schema.alterTable(table).addColumn('profile_id', 'text').execute();
      await db.schema.alterTable(table).addColumn('profile_version', 'integer').execute();
    }
  },
};

/**
 * Issue 30: the terms of every monitored search (monitoring/monitor-terms.ts), by which a delta pass
 * finds the monitors that changed entities can affect; monitors keyed since (terms_at) and the ones
 * not yet keyed (written before this migration, or since the last pass), found by a partial index;
 * monitors by their last top entity.
 */
const monitorTerms: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('monitor_terms')
      .addColumn('term', 'text', (c) => c.notNull())
      .addColumn('monitor_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('monitor_terms_pk', ['term', 'monitor_id'])
      .execute();
    await db.schema.alterTable('monitors').addColumn('terms_at', 'text').execute();
    await sql`create index monitors_unkeyed on monitors (id) where terms_at is null`.execute(db);
    await db.schema.createIndex('monitors_last_entity').on('monitors').column('last_entity_id').execute();
  },
};

/**
 * Issue 30: the optional per-organization webhook event `lists.changed`: the organization's opt-in,
 * and the versions whose event was written (once, whichever node's pass wrote it).
 */
const listsChangedEvent: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('organizations')
      .addColumn('webhook_lists_changed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('lists_changed_notices')
      .addColumn('version_id', 'text', (c) => c.primaryKey())
      .addColumn('notified_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * Usage appended, not added to the organization's row (issue 34): on PostgreSQL with the quota
 * counted in Redis, each group commit appends one row per organization and month here, which no
 * other screening waits for, and a background job folds them into `usage` (tenants/quota.ts).
 */
const usageAdded: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('usage_added')
      // No key and no index: rows are only appended, summed and folded away whole, within seconds.
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .execute();
  },
};

/**
 * The audit chain sealed in batches (issue 34): screenings write their entries into audit_pending
 * without touching the chain's head; the sealer (audit/audit-seal.ts) places them in their chain and
 * seals what it placed. Every chain's existing entries are covered by its first seal.
 */
const auditSeals: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('audit_pending')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('chain', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_pending_chain').on('audit_pending').columns(['chain', 'id']).execute();
    await db.schema
      .createTable('audit_seals')
      .addColumn('chain', 'text', (c) => c.notNull())
      .addColumn('first_seq', 'integer', (c) => c.notNull())
      .addColumn('last_seq', 'integer', (c) => c.notNull())
      .addColumn('entries_hash', 'text', (c) => c.notNull())
      .addColumn('prev_hash', 'text', (c) => c.notNull())
      .addColumn('seal_hash', 'text', (c) => c.notNull())
      .addColumn('sealed_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('audit_seals_pk', ['chain', 'last_seq'])
      .execute();
    await db.schema
      .alterTable('audit_heads')
      .addColumn('sealed_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('audit_heads')
      .addColumn('seal_hash', 'text', (c) => c.notNull().defaultTo('0'.repeat(64)))
      .execute();
  },
};

/**
 * Fewer pages written by each screening's commit (issue 32). A screening's commit wrote about twelve
 * pages of SQLite's log, two system calls each; two of those b-trees held nothing a screening needs:
 * - `screenings_org_external` indexed every screening, also the many with no external id, which no
 *   query by external id can ask for: it now holds only those with one (a query `external_id = ?`
 *   implies `is not null`, so both engines still use it);
 * - on SQLite, `audit_pending` was a table, an index of its ids and an index of (chain, id), three
 *   b-trees for a row that waits a second for the sealer: it is now one, a table WITHOUT ROWID keyed
 *   by (chain, id), the order the sealer reads and deletes in. PostgreSQL keeps its table (a heap
 *   with two indexes), where the change lowered nothing that was measured.
 */
const leanScreeningWrites: Migration = {
  async up(db: AnyDb) {
    const externalIndex = async (db: AnyDb) => {
      await db.schema.dropIndex('screenings_org_external').execute();
      await db.schema
        .createIndex('screenings_org_external')
        .on('screenings')
        .columns(['org_id', 'external_id', 'created_at'])
        .where(sql.ref('external_id'), 'is not', null)
        .execute();
    };
    // Kysely runs a migration in a transaction on PostgreSQL only; on SQLite this one makes its own,
    // so that a crash between dropping the old table and naming the new one loses no pending entry.
    if (db.getExecutor().adapter instanceof PostgresAdapter) return externalIndex(db);
    await db.transaction().execute(async (trx) => {
      await externalIndex(trx);
      // The columns of 0017, every one text and required.
      const columns = ['id', 'chain', 'at', 'event', 'actor', 'subject', 'data'];
      let keyed: CreateTableBuilder<'audit_pending_keyed', string> = trx.schema.createTable('audit_pending_keyed');
      for (const column of columns) keyed = keyed.addColumn(column, 'text', (c) => c.notNull());
      await keyed
        .addPrimaryKeyConstraint('audit_pending_pk', ['chain', 'id'])
        .modifyEnd(sql`without rowid`)
        .execute();
      const list = sql.join(columns.map((column) => sql.ref(column)));
      await sql`insert into audit_pending_keyed (${list}) select ${list} from audit_pending`.execute(trx);
      await trx.schema.dropTable('audit_pending').execute();
      await trx.schema.alterTable('audit_pending_keyed').renameTo('audit_pending').execute();
    });
  },
};

/** Ordered by name; Kysely runs them in that order. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_tenancy': tenancy,
  '0002_screenings': screenings,
  '0003_lists': lists,
  '0004_monitoring': monitoring,
  '0005_decisions_audit': decisionsAudit,
  '0006_identifiers': identifiers,
  '0007_batches': batches,
  '0008_operations': operations,
  '0009_console': consoleAccounts,
  '0010_batch_tally': batchTally,
  '0011_identifier_warnings': identifierWarnings,
  '0015_key_auth_notify': keyAuthNotify,
  '0013_list_updates': listUpdates,
  '0014_validation_runs': validationRuns,
  '0016_org_sso': orgSso,
  '0012_screening_profiles': screeningProfiles,
  '0017_audit_seals': auditSeals,
  '0019_monitor_terms': monitorTerms,
  '0021_profile_notify': profileNotify,
  '0020_lists_changed_event': listsChangedEvent,
  '0023_screening_reads_notify': screeningReadsNotify,
  '0024_usage_added': usageAdded,
  '0025_lean_screening_writes': leanScreeningWrites,
};

class InlineProvider implements MigrationProvider {
  constructor(private readonly through?: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const through = this.through;
    if (through === undefined) return MIGRATIONS;
    if (!(through in MIGRATIONS)) throw new Error(`no migration is named ${through}`);
    return Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name <= through));
  }
}

export interface MigrationReport {
  applied: string[];
}

/**
 * The PostgreSQL schema this connection works in (the first of its search_path). Kysely's Migrator
 * checks for its bookkeeping tables by introspecting EVERY schema of the database: given no schema
 * it believes they exist when any other schema has them (a second deployment, a parallel test run)
 * and fails; and its catalog query can fail outright while another schema is being dropped.
 */
async function postgresSchema(db: Db): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const result = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return result.rows[0]?.schema ?? undefined;
}

/** The same database handle, with an introspection that only looks at one schema (what the Migrator asks). */
function scopedToSchema(db: Db, schema: string): Db {
  const introspection = {
    getSchemas: async () => [{ name: schema }],
    getTables: async () => {
      const rows = await sql<{ name: string; type: string }>`select table_name as name, table_type as type
        from information_schema.tables where table_schema = ${schema}`.execute(db);
      return rows.rows.map((r) => ({ name: r.name, schema, isView: r.type === 'VIEW', columns: [] }));
    },
    getMetadata: async () => ({ tables: await introspection.getTables() }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target) as unknown;
      // Kysely keeps its state in private fields: methods must run on the real instance.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Runs every pending migration; throws (with the failing migration's name) when one fails. `through`
 * stops after the migration of that name (a database as an older release left it, for upgrade tests).
 */
export async function migrateToLatest(db: Db, options: { through?: string } = {}): Promise<MigrationReport> {
  const schema = await postgresSchema(db);
  const provider = new InlineProvider(options.through);
  const migrator = new Migrator(
    schema ? { db: scopedToSchema(db, schema), provider, migrationTableSchema: schema } : { db, provider },
  );
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
