/**
 * Backtest of a screening profile draft (issue 29, item 5: 100,000 stored screenings in at most
 * 120 s, without holding the API's p99 above twice its idle value). In one process, as `sanctions
 * serve` runs it: every list of ../shared/data in force on SQLite, matching in its worker thread
 * (MATCH_THREADS default), --screenings stored screenings of one organization (the benchmarks'
 * query mix: listed names as published, listed names with a letter dropped or words moved,
 * innocent names) spread over the last 80 days, and the draft "EU and UN only, medium from 70".
 * While the backtest runs, POST /v1/screen is sent over HTTP at --rate a second; its p99 is
 * compared with the p99 of the same load before the backtest.
 *   npm run build && node dist/bench/backtest.js [--screenings=100000] [--rate=20] [--idle=10]
 * Writes bench/results/backtest.json: rows of {name, value, unit, target}.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/infra/config.js';
import type { ScreeningsTable } from '../src/infra/db-schema.js';
import { newId } from '../src/infra/ids.js';
import { ListStore } from '../src/lists/list-store.js';
import { searchKey } from '../src/screening/search-key.js';
import { createContext } from '../src/start/context.js';
import { buildServerApp } from '../src/start/server.js';
import type { CallerContext } from '../src/tenants/caller.js';
import { loadAllLists } from './quality.js';
import { queryMix } from './query-mix.js';
import { numberArg as arg, p99, steadyLoad } from './server-process.js';

const TOTAL = arg('screenings', 100_000);
const RATE = arg('rate', 20);
const IDLE_SECONDS = arg('idle', 10);
const DAY = 24 * 3600 * 1000;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sanctions-backtest-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    LIST_SYNC_ON_START: 'false',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  const ctx = await createContext(config);
  try {
    console.log('Loading lists (../shared/data/lists):');
    const lists = await loadAllLists();
    if (lists.size === 0) {
      console.log('no lists under ../shared/data; nothing to measure.');
      return;
    }
    const store = new ListStore(ctx.database.db);
    for (const [source, records] of lists) {
      const now = ctx.clock.now().toISOString();
      await store.activate(
        {
          id: newId('lv', ctx.clock.now()),
          source,
          status: 'active',
          fetched_at: now,
          published_at: null,
          sha256: null,
          record_count: records.length,
          format: 'bench',
          files: '[]',
          message: null,
          took_ms: 0,
          activated_at: now,
        },
        records,
      );
    }
    await ctx.runtime.refresh();
    const all = [...lists.values()].flat();
    const { tenants } = ctx.services;
    const org = await tenants.createOrganization({
      ctx: ctx.operator,
      input: { slug: 'bench', name: 'Bench', tier: 'enterprise' },
    });
    await tenants.addUser({ ctx: ctx.operator, input: { org: 'bench', email: 'admin@bench.test' } });
    const key = await tenants.createApiKey({ ctx: ctx.operator, input: { org: 'bench', email: 'admin@bench.test' } });
    const userId = (
      await ctx.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@bench.test')
        .executeTakeFirstOrThrow()
    ).id;

    // The stored screenings: the query mix, as many as asked, over the last 80 days.
    const names = queryMix(all, Math.ceil(TOTAL / 3));
    const now = ctx.clock.now().getTime();
    const seedStart = performance.now();
    for (let i = 0; i < TOTAL; i += 2000) {
      const rows: ScreeningsTable[] = [];
      for (let j = i; j < Math.min(TOTAL, i + 2000); j++) {
        const name = names[j % names.length]!;
        rows.push({
          id: `scr_bench${String(j).padStart(7, '0')}`,
          org_id: org.id,
          key_id: key.id,
          query: name,
          search_key: searchKey({ name, entityType: null, country: null, birthDate: null }),
          entity_type: null,
          country: null,
          birth_date: null,
          group_by_cluster: 0,
          risk_score: 0,
          risk_level: 'low',
          confidence: 0,
          entity_id: null,
          entity_name: null,
          matched_sources: '[]',
          used_sources: '[]',
          list_versions: '[]',
          match_details: '[]',
          external_id: null,
          engine_version: null,
          created_at: new Date(now - Math.floor((j / TOTAL) * 80 * DAY)).toISOString(),
          identifiers: null,
          profile_id: null,
          profile_version: 0,
          warnings: null,
        });
      }
      await ctx.database.db.transaction().execute(async (trx) => {
        for (let k = 0; k < rows.length; k += 100)
          await trx
            .insertInto('screenings')
            .values(rows.slice(k, k + 100))
            .execute();
      });
    }
    const distinct = new Set(
      names.slice(0, TOTAL).map((n) => searchKey({ name: n, entityType: null, country: null, birthDate: null })),
    ).size;
    console.log(
      `seeded ${TOTAL} screenings (${distinct} distinct searches) in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const caller: CallerContext = {
      db: ctx.database.db,
      clock: ctx.clock,
      caller: {
        orgId: org.id,
        orgSlug: 'bench',
        orgName: 'Bench',
        tier: 'enterprise',
        quota: null,
        keyId: key.id,
        userId,
      },
    };
    const profiles = ctx.services.profiles;
    const profile = await profiles.create({
      ctx: caller,
      input: { name: 'Bench', settings: { sources: ['eu_csl', 'un_csl'], mediumCutoff: 70 } },
    });

    const app = await buildServerApp(ctx, { logger: false });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const probe = names.slice(0, 500);
    // Warm-up first (the code paths compile for the names they see), so that idle is a steady figure.
    const load = steadyLoad(url, key.key, probe, RATE);
    await new Promise((r) => setTimeout(r, 5000));
    const idle = load.phase();
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    idle.end();

    const busy = load.phase();
    const loadBefore = loadavg()[0]!;
    const t0 = performance.now();
    const report = await profiles.backtest({ ctx: caller, input: { id: profile.id, limit: TOTAL } });
    const seconds = (performance.now() - t0) / 1000;
    busy.end();
    await load.stop();
    await app.close();
    const idleLatencies = idle.latencies();
    const busyLatencies = busy.latencies();

    const idleP99 = p99(idleLatencies);
    const busyP99 = p99(busyLatencies);
    const load1 = loadavg()[0]!;
    console.log(
      `backtest of ${report.screenings} stored screenings (${distinct} distinct searches), two sides each: ${seconds.toFixed(1)} s (target <= 120 s)`,
    );
    console.log(
      `  alerts current ${JSON.stringify(report.alerts.current)}, draft ${JSON.stringify(report.alerts.draft)}, removed ${report.alerts.removed}, level changes ${report.levelChanges.total}`,
    );
    console.log(
      `POST /v1/screen at ${RATE}/s: p99 ${idleP99.toFixed(1)} ms idle (${idleLatencies.length} requests), ${busyP99.toFixed(1)} ms during the backtest (${busyLatencies.length} requests; target <= ${(2 * idleP99).toFixed(1)} ms)`,
    );
    console.log(
      `load average (1 min) ${loadBefore.toFixed(1)} before the backtest, ${load1.toFixed(1)} after: a shared machine`,
    );
    const rows = [
      { name: 'backtest_screenings', value: report.screenings, unit: 'screenings', target: 100_000 },
      { name: 'backtest_distinct_searches', value: distinct, unit: 'searches', target: null },
      { name: 'backtest_seconds', value: Math.round(seconds * 10) / 10, unit: 's', target: 120 },
      { name: 'api_p99_idle', value: Math.round(idleP99 * 10) / 10, unit: 'ms', target: null },
      {
        name: 'api_p99_during_backtest',
        value: Math.round(busyP99 * 10) / 10,
        unit: 'ms',
        target: Math.round(2 * idleP99 * 10) / 10,
      },
      { name: 'load_average_1min', value: Math.round(load1 * 10) / 10, unit: 'load', target: null },
    ];
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/backtest.json', `${JSON.stringify(rows, null, 2)}\n`);
    console.log('wrote bench/results/backtest.json');
  } finally {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
