/**
 * Rescreening throughput (issue 6: 100,000 monitors in under 2 minutes): a real MatchingIndex built
 * from the UN consolidated list, 100,000 monitors on SQLite (2% of them listed names, so alerts and
 * their webhook deliveries are written too), one full pass timed end to end. Also prints the worst
 * event-loop delay during the pass, which shows the API stayed responsive.
 *   node --import tsx bench/rescreen.ts        or        node dist/bench/rescreen.js [--monitors=N]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../src/infra/config.js';
import { newId } from '../src/infra/ids.js';
import { unCslAdapter } from '../src/lists/adapters/un-csl.js';
import { ListStore } from '../src/lists/list-store.js';
import { Rescreener } from '../src/monitoring/rescreen-service.js';
import { createContext } from '../src/start/context.js';
import { insertMonitors, monitorRows } from './monitor-seed.js';

async function main(): Promise<void> {
  const arg = process.argv.find((a) => a.startsWith('--monitors='));
  const total = arg ? Number(arg.slice(11)) : 100_000;
  const unDir = path.resolve(process.cwd(), '../shared/data/lists/un_csl');
  if (!existsSync(unDir)) {
    console.log(`UN list absent (${unDir}); nothing to measure.`);
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sanctions-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' });
  const ctx = await createContext(config);
  try {
    const parsed = await unCslAdapter.parse(unDir);
    const now = ctx.clock.now().toISOString();
    await new ListStore(ctx.database.db).activate(
      {
        id: newId('lv', ctx.clock.now()),
        source: 'un_csl',
        status: 'active',
        fetched_at: now,
        published_at: parsed.publishedAt ?? null,
        sha256: null,
        record_count: parsed.records.length,
        format: parsed.format,
        files: '[]',
        message: null,
        took_ms: 0,
        activated_at: now,
      },
      parsed.records,
    );
    const t0 = performance.now();
    await ctx.runtime.refresh();
    console.log(
      `lists: UN consolidated list, ${parsed.records.length} records, index built in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
    );

    const { tenants } = ctx.services;
    const org = await tenants.createOrganization({
      ctx: ctx.operator,
      input: { slug: 'bench', name: 'Bench', tier: 'enterprise' },
    });
    await tenants.updateOrganization({
      ctx: ctx.operator,
      input: { org: 'bench', webhookUrl: 'http://127.0.0.1:9/hooks', webhookSecret: 'bench-secret-0123456789' },
    });

    const rows = monitorRows({ orgId: org.id, total, listed: parsed.records.map((r) => r.name), now: ctx.clock.now() });
    const seedStart = performance.now();
    await insertMonitors(ctx.database.db, rows);
    console.log(
      `monitors: ${total.toLocaleString('en')} seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    const rescreener = new Rescreener({
      database: ctx.database,
      clock: ctx.clock,
      matching: config.matching,
      monitoring: config.monitoring,
      nodeId: 'bench',
      lists: () => ctx.runtime.current(),
    });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const start = performance.now();
    const report = await rescreener.runPass();
    const seconds = (performance.now() - start) / 1000;
    delay.disable();
    if (!report) throw new Error('the pass did not run');
    const deliveries = await ctx.database.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    console.log(
      `rescreen: ${report.rescreened.toLocaleString('en')} monitors in ${seconds.toFixed(1)} s ` +
        `(${Math.round(report.rescreened / seconds).toLocaleString('en')}/s, batch ${config.monitoring.batchSize}, SQLite), ` +
        `${report.alerts} alerts and ${Number(deliveries?.n ?? 0)} deliveries written`,
    );
    console.log(
      `event loop during the pass: max delay ${(delay.max / 1e6).toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms`,
    );
    console.log(
      `target: 100,000 monitors in under 120 s -> ${total >= 100_000 && seconds < 120 ? 'met' : total >= 100_000 ? 'NOT met' : 'run with 100,000 to judge'}`,
    );
  } finally {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
