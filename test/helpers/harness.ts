/**
 * Test harness: every integration test runs once per database engine (SQLite, and PostgreSQL when it
 * is reachable; CI sets REQUIRE_POSTGRES=1 so a missing PostgreSQL fails instead of skipping). Each app
 * gets its own SQLite file or PostgreSQL schema, and talks real HTTP on a loopback port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { type Clock, ManualClock } from '../../src/infra/clock.js';
import { type Config, loadConfig } from '../../src/infra/config.js';
import { type DatabaseHandle, ensureSchema, openDatabase } from '../../src/infra/database.js';
import type { OrganizationsTable } from '../../src/infra/db-schema.js';
import { migrateToLatest } from '../../src/infra/migrations.js';
import { newId } from '../../src/infra/ids.js';
import { ListStore } from '../../src/lists/list-store.js';
import { type ListRecord, type SourceId, emptyRecord } from '../../src/lists/model.js';
import { type AppContext, createContext } from '../../src/start/context.js';
import { buildServerApp } from '../../src/start/server.js';
import { newOrganizationRow } from '../../src/tenants/index.js';

export type Engine = 'sqlite' | 'postgres';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The reason PostgreSQL could not be reached, undefined when it can. */
async function postgresUnreachable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Asked a few times: with two test files and a browser starting on two cores, one connection can
 * take longer than its timeout (seen once in CI), which is not PostgreSQL being absent.
 */
async function postgresReachable(): Promise<{ ok: boolean; why?: string }> {
  let why: string | undefined;
  for (let attempt = 0; attempt < 4; attempt++) {
    why = await postgresUnreachable();
    if (why === undefined) return { ok: true };
    // Nothing listening is an answer at once: no need to wait for it.
    if (/ECONNREFUSED/.test(why) && process.env.REQUIRE_POSTGRES !== '1') break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { ok: false, ...(why !== undefined ? { why } : {}) };
}

const reach = await postgresReachable();
const pgAvailable = reach.ok;
if (!pgAvailable && process.env.REQUIRE_POSTGRES === '1') {
  throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${PG_URL}: ${reach.why ?? 'unknown'}`);
}

/** The engines to run on; PostgreSQL is skipped (with a message) only when it is unreachable and not required. */
export const ENGINES: { engine: Engine; skip: string | false }[] = [
  { engine: 'sqlite', skip: false },
  { engine: 'postgres', skip: pgAvailable ? false : `PostgreSQL not reachable at ${PG_URL}` },
];

export const REPO_ROOT = process.cwd();
export const SHARED_DATA = resolve(REPO_ROOT, '../shared/data');

export interface TestEnv {
  engine: Engine;
  env: Record<string, string>;
  config: Config;
  dataDir: string;
  schema?: string;
  cleanup(): Promise<void>;
}

/**
 * A database of its own on `engine` (testEnv), opened and migrated to the latest migration, or
 * `through` a named one; the caller closes the handle, then cleans the environment up.
 */
export async function migratedDatabase(
  engine: Engine,
  options: { through?: string } = {},
): Promise<{ env: TestEnv; handle: DatabaseHandle }> {
  const env = testEnv(engine);
  await ensureSchema(env.config.database);
  const handle = openDatabase(env.config.database);
  await migrateToLatest(handle.db, options);
  return { env, handle };
}

/** A fresh configuration with its own SQLite file or PostgreSQL schema. */
export function testEnv(engine: Engine, overrides: Record<string, string> = {}): TestEnv {
  const dataDir = mkdtempSync(join(tmpdir(), 'sanctions-test-'));
  const schema = engine === 'postgres' ? `t_${process.pid}_${randomBytes(4).toString('hex')}` : undefined;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    LIST_SYNC_ON_START: 'false',
    // No frequent checks of the publishers unless a test asks for them (test/lists/list-updates.test.ts).
    LIST_POLL_INTERVAL: 'off',
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    ...(schema ? { DATABASE_URL: `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}` } : {}),
    ...overrides,
  };
  const config = loadConfig(env);
  return {
    engine,
    env,
    config,
    dataDir,
    ...(schema ? { schema } : {}),
    async cleanup() {
      rmSync(dataDir, { recursive: true, force: true });
      if (schema) {
        const client = new pg.Client({ connectionString: PG_URL });
        await client.connect();
        await client.query(`drop schema if exists "${schema}" cascade`);
        await client.end();
      }
    },
  };
}

export interface TestApp {
  url: string;
  app: FastifyInstance;
  ctx: AppContext;
  clock: Clock;
  env: TestEnv;
  /** HTTP request against the running server. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  key?: string;
  body?: unknown;
  /** Raw body text, sent as is. */
  raw?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface StartOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /**
   * Reuse the configuration (SQLite file or PostgreSQL schema) of another app, as a second node of
   * the same deployment would; `env` is then ignored and the owner of the TestEnv cleans it up.
   */
  shared?: TestEnv;
}

export async function startTestApp(engine: Engine, options: StartOptions = {}): Promise<TestApp> {
  const env = options.shared ?? testEnv(engine, options.env);
  const ownsEnv = options.shared === undefined;
  const clock = options.clock ?? new ManualClock();
  const ctx = await createContext(env.config, { clock });
  const app = await buildServerApp(ctx, { logger: false });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    ctx,
    clock,
    env,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key !== undefined) headers['x-api-key'] = opts.key;
      let body: string | undefined;
      if (opts.raw !== undefined) body = opts.raw;
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async close() {
      await app.close();
      await ctx.close();
      if (ownsEnv) await env.cleanup();
    },
  };
}

export interface SeededOrg {
  orgId: string;
  slug: string;
  key: string;
  keyId: string;
  email: string;
}

/** An organization with one member and one key. */
export async function seedOrg(
  ctx: AppContext,
  options: { slug?: string; tier?: string; quota?: number | null; webhookUrl?: string; webhookSecret?: string } = {},
): Promise<SeededOrg> {
  const { tenants } = ctx.services;
  const slug = options.slug ?? `org-${randomBytes(3).toString('hex')}`;
  const org = await tenants.createOrganization({
    ctx: ctx.operator,
    input: { slug, name: `Org ${slug}`, tier: options.tier ?? 'professional', quota: options.quota ?? null },
  });
  if (options.webhookUrl || options.webhookSecret) {
    await tenants.updateOrganization({
      ctx: ctx.operator,
      input: {
        org: slug,
        ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
        ...(options.webhookSecret ? { webhookSecret: options.webhookSecret } : {}),
      },
    });
  }
  const email = `analyst@${slug}.test`;
  await tenants.addUser({ ctx: ctx.operator, input: { org: slug, email } });
  const key = await tenants.createApiKey({ ctx: ctx.operator, input: { org: slug, email } });
  return { orgId: org.id, slug, key: key.key, keyId: key.id, email };
}

/** A person record for hand-built lists. */
export function person(source: SourceId, id: string, name: string, extra: Partial<ListRecord> = {}): ListRecord {
  return { ...emptyRecord(source, id, 'person', name), ...extra };
}

export function organization(source: SourceId, id: string, name: string, extra: Partial<ListRecord> = {}): ListRecord {
  return { ...emptyRecord(source, id, 'organization', name), ...extra };
}

/**
 * Puts hand-built records in force as a new version of their source (the same code path a sync
 * uses to activate), then reloads the node's lists. Returns the version id.
 */
export async function activateRecords(ctx: AppContext, source: SourceId, records: ListRecord[]): Promise<string> {
  const id = newId('lv', ctx.clock.now());
  const now = ctx.clock.now().toISOString();
  await new ListStore(ctx.database.db).activate(
    {
      id,
      source,
      status: 'active',
      fetched_at: now,
      published_at: now.slice(0, 10),
      sha256: randomBytes(32).toString('hex'),
      record_count: records.length,
      format: 'test fixture',
      files: '[]',
      message: null,
      took_ms: 0,
      activated_at: now,
    },
    records,
  );
  await ctx.runtime.refresh();
  return id;
}

/** A small cross-list fixture: enough for screening tests without parsing real files. */
export function sampleRecords(): Record<'us_ofac' | 'un_csl', ListRecord[]> {
  return {
    us_ofac: [
      person('us_ofac', '1001', 'KARIMOV, Rustam Alievich', {
        aliases: [{ name: 'Rustam Karimov', quality: 'strong', kind: 'variation' }],
        birthDates: [{ date: '1961-04-12' }],
        nationalities: ['UZ'],
        programs: ['SDGT'],
        listingDate: '2019-05-01',
        identifiers: [{ type: 'passport', value: 'AB1234567', country: 'UZ' }],
      }),
      organization('us_ofac', '1002', 'ZARYA SHIPPING LLC', {
        programs: ['RUSSIA-EO14024'],
        addresses: [{ country: 'RU' }],
      }),
      organization('us_ofac', '1003', 'BLUE HORIZON TRADING FZE', {
        programs: ['IRAN'],
        addresses: [{ country: 'AE' }],
      }),
    ],
    un_csl: [
      person('un_csl', '9001', 'Rustam Alievich Karimov', {
        birthDates: [{ date: '1961-04-12' }],
        nationalities: ['UZ'],
        programs: ['Al-Qaida'],
        listingDate: '2019-05-03',
        identifiers: [
          { type: 'un_ref', value: 'QDi.999' },
          { type: 'passport', value: 'AB1234567', country: 'UZ' },
        ],
      }),
    ],
  };
}

/** How many alerts each monitor of the app's database has, one count a monitor (no order). */
export async function alertsPerMonitor(app: TestApp): Promise<number[]> {
  const rows = await app.ctx.database.db
    .selectFrom('alerts')
    .select(['monitor_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('monitor_id')
    .execute();
  return rows.map((row) => Number(row.n));
}

/** Screens each name with `key` and monitors the screening, as a user would; fails on any refusal. */
export async function monitorNames(app: TestApp, key: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const s = await app.request('POST', '/v1/screen', { key, body: { name } });
    if (s.status !== 200) throw new Error(`screening ${name}: ${s.status} ${s.text}`);
    const m = await app.request('POST', '/v1/monitors', { key, body: { screeningId: s.body.data.screeningId } });
    if (m.status !== 201) throw new Error(`monitoring ${name}: ${m.status} ${m.text}`);
  }
}

/** An organization's row as stored, for tests that write the database directly (no webhook, no quota). */
export function organizationRow(
  id: string,
  tier: string,
  at = new Date('2026-01-01T00:00:00.000Z'),
): OrganizationsTable {
  return newOrganizationRow({ id, slug: id, name: `Org ${id}`, tier, quota: null, at });
}
