/**
 * What one POST /v1/screen costs PostgreSQL: N sequential screenings of one key against one node
 * (in this process, on a schema of its own in a database of its own), counted three ways:
 *   - PostgreSQL's own statistics: pg_stat_database xact_commit / xact_rollback of the database, and
 *     per table the rows inserted and updated and the scans (pg_stat_user_tables);
 *   - every statement the node sent, by its text, and the transactions they made (BEGIN..COMMIT, or
 *     one statement outside any), counted on the node's connections;
 *   - the same for a quiet stretch of the same length with no request, so the background jobs (the
 *     audit sealer, the usage of keys) are told apart from the requests.
 *   npm run build && node dist/bench/pg-trace.js [--screenings=200] [--redis=redis://127.0.0.1:6379]
 * The database (`TRACE_DATABASE_URL`, default postgres://postgres@127.0.0.1:5432/sanctions_trace) is
 * created when missing; nothing else uses it, so its counters are this run's alone.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/infra/config.js';
import { newId } from '../src/infra/ids.js';
import { ListStore } from '../src/lists/list-store.js';
import { emptyRecord } from '../src/lists/model.js';
import { createContext } from '../src/start/context.js';
import { buildServerApp } from '../src/start/server.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SCREENINGS = Number(arg('screenings') ?? 200);
const REDIS = arg('redis');
const DB_URL = process.env.TRACE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sanctions_trace';

/** Statements sent by this process, by their text's shape, and the transactions they made. */
const sent = new Map<string, number>();
let transactions = 0;
let tracing = false;
const inTransaction = new WeakSet<object>();

function shape(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\$\d+/g, '?').slice(0, 110);
}

// Counts at the one place every statement of the node passes: the pg client's query().
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
(pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
  this: object,
  ...args: unknown[]
) {
  const first = args[0];
  const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
  if (tracing && text !== '') {
    const s = shape(text);
    sent.set(s, (sent.get(s) ?? 0) + 1);
    const verb = s.split(' ', 1)[0]!.toLowerCase();
    if (verb === 'begin' || verb === 'start') inTransaction.add(this);
    else if (verb === 'commit' || verb === 'rollback') {
      inTransaction.delete(this);
      transactions++;
    } else if (!inTransaction.has(this) && verb !== 'listen') transactions++;
  }
  return original.apply(this, args);
};

async function ensureDatabase(): Promise<void> {
  const url = new URL(DB_URL);
  const name = url.pathname.slice(1);
  const admin = new pg.Client({ connectionString: DB_URL.replace(/\/[^/?]+(\?|$)/, '/postgres$1') });
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
}

interface Stats {
  commits: number;
  rollbacks: number;
  tables: Map<string, { ins: number; upd: number; seq: number; idx: number }>;
}

async function stats(schema: string): Promise<Stats> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    // Backends send their statistics when idle: within a second, or ten when the shared counters are busy.
    await new Promise((r) => setTimeout(r, 11_000));
    await client.query('select pg_stat_clear_snapshot()');
    const db = await client.query<{ c: string; r: string }>(
      'select xact_commit as c, xact_rollback as r from pg_stat_database where datname = current_database()',
    );
    const rows = await client.query<{ relname: string; ins: string; upd: string; seq: string; idx: string }>(
      `select relname, n_tup_ins as ins, n_tup_upd as upd, coalesce(seq_scan, 0) as seq, coalesce(idx_scan, 0) as idx
         from pg_stat_user_tables where schemaname = $1`,
      [schema],
    );
    return {
      // This connection's own transactions (the two reads) are not the node's.
      commits: Number(db.rows[0]!.c),
      rollbacks: Number(db.rows[0]!.r),
      tables: new Map(
        rows.rows.map((r) => [
          r.relname,
          { ins: Number(r.ins), upd: Number(r.upd), seq: Number(r.seq), idx: Number(r.idx) },
        ]),
      ),
    };
  } finally {
    await client.end();
  }
}

function report(label: string, before: Stats, after: Stats, per: number): void {
  // Each stats() call commits its own two reads (and the connection's start): 3 transactions.
  const commits = after.commits - before.commits - 3;
  console.log(`\n${label}`);
  console.log(
    `  pg_stat_database: ${commits} commits (${(commits / per).toFixed(2)} per screening), ${after.rollbacks - before.rollbacks} rollbacks`,
  );
  console.log(`  node: ${transactions} transactions (${(transactions / per).toFixed(2)} per screening)`);
  const tableLines: string[] = [];
  for (const [table, a] of after.tables) {
    const b = before.tables.get(table) ?? { ins: 0, upd: 0, seq: 0, idx: 0 };
    const d = { ins: a.ins - b.ins, upd: a.upd - b.upd, seq: a.seq - b.seq, idx: a.idx - b.idx };
    if (d.ins + d.upd + d.seq + d.idx === 0) continue;
    tableLines.push(
      `  ${table.padEnd(28)} ins ${(d.ins / per).toFixed(2)}  upd ${(d.upd / per).toFixed(2)}  scans ${((d.seq + d.idx) / per).toFixed(2)}`,
    );
  }
  console.log('  per screening, per table (pg_stat_user_tables):');
  console.log(tableLines.join('\n') || '  (none)');
  const total = [...sent.values()].reduce((s, n) => s + n, 0);
  console.log(`  statements sent: ${total} (${(total / per).toFixed(2)} per screening)`);
  for (const [text, n] of [...sent.entries()].sort((x, y) => y[1] - x[1]))
    console.log(`    ${(n / per).toFixed(2).padStart(6)}  ${text}`);
}

async function main(): Promise<void> {
  await ensureDatabase();
  const schema = `trace_${process.pid}_${randomBytes(3).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'sanctions-trace-'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    LIST_SYNC_ON_START: 'false',
    LIST_POLL_INTERVAL: 'off',
    // Counted as in production, but never reached: the trace measures the screenings, not the limit.
    RATE_LIMIT_PER_MINUTE: '1000000',
    DATABASE_URL: `${DB_URL}${DB_URL.includes('?') ? '&' : '?'}schema=${schema}`,
    ...(REDIS ? { REDIS_URL: REDIS, REDIS_KEY_PREFIX: `trace:${schema}:` } : {}),
  });
  const ctx = await createContext(config);
  const app = await buildServerApp(ctx, { logger: false });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const { tenants } = ctx.services;
    await tenants.createOrganization({
      ctx: ctx.operator,
      input: { slug: 'trace', name: 'Trace', tier: 'professional', quota: null },
    });
    await tenants.addUser({ ctx: ctx.operator, input: { org: 'trace', email: 'a@trace.test' } });
    const { key } = await tenants.createApiKey({ ctx: ctx.operator, input: { org: 'trace', email: 'a@trace.test' } });
    const now = ctx.clock.now().toISOString();
    await new ListStore(ctx.database.db).activate(
      {
        id: newId('lv', ctx.clock.now()),
        source: 'us_ofac',
        status: 'active',
        fetched_at: now,
        published_at: now.slice(0, 10),
        sha256: randomBytes(32).toString('hex'),
        record_count: 2,
        format: 'trace',
        files: '[]',
        message: null,
        took_ms: 0,
        activated_at: now,
      },
      [
        { ...emptyRecord('us_ofac', '1', 'person', 'KARIMOV, Rustam Alievich') },
        { ...emptyRecord('us_ofac', '2', 'organization', 'ZARYA SHIPPING LLC') },
      ],
    );
    await ctx.runtime.refresh();
    const screen = async (i: number) => {
      const res = await fetch(`${url}/v1/screen`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ name: i % 2 ? 'Rustam Karimov' : `Innocent Person ${i}` }),
      });
      if (res.status !== 200) throw new Error(`screening ${i}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    // Warm-up: the key cache, prepared statements, the first connections.
    for (let i = 0; i < 20; i++) await screen(i);
    await new Promise((r) => setTimeout(r, 1500));

    // A quiet stretch first, as long as the screenings take: what the node does with no request.
    const started = performance.now();
    let before = await stats(schema);
    tracing = true;
    for (let i = 0; i < SCREENINGS; i++) await screen(i);
    tracing = false;
    const took = performance.now() - started - 11_000;
    let after = await stats(schema);
    report(
      `${SCREENINGS} sequential screenings of one key (${took.toFixed(0)} ms)${REDIS ? ', counters in Redis' : ''}`,
      before,
      after,
      SCREENINGS,
    );

    sent.clear();
    transactions = 0;
    before = await stats(schema);
    tracing = true;
    await new Promise((r) => setTimeout(r, took));
    tracing = false;
    after = await stats(schema);
    report(`the node with no request for as long (per ${SCREENINGS})`, before, after, SCREENINGS);
  } finally {
    await app.close();
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: DB_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
