/**
 * Reliability (issue 17, 6a; issue 34): `sanctions serve` as a real child process (on SQLite, and on
 * PostgreSQL with its counters in Redis), killed with SIGKILL while concurrent POST /screen requests
 * with Idempotency-Keys run, several rounds. Then every acknowledged screening exists, every key
 * replays its own screening and no other, and the audit chain verifies with nothing left unsealed.
 * `node dist/bench/reliability.js --rounds=N` runs the same with more rounds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createContext } from '../../src/start/context.js';
import { ENGINES, type TestEnv, seedOrg, testEnv } from '../helpers/harness.js';
import { loadSampleLists } from '../helpers/http-assert.js';
import { runCrashRounds } from '../../bench/reliability-rounds.js';

const ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 3);

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

for (const { engine, skip } of ENGINES) {
  // On PostgreSQL the nodes count in Redis (a multi-node deployment, docs/multi-node.md).
  const extra: Record<string, string> = engine === 'postgres' ? { REDIS_URL } : {};
  describe(`kill -9 during concurrent POST /screen (${engine}, real server process)`, { skip }, () => {
    let env: TestEnv;
    let key: string;
    let orgId: string;
    before(async () => {
      env = testEnv(engine, { RATE_LIMIT_PER_MINUTE: '10000000', LIST_RELOAD_INTERVAL: '1s', ...extra });
      const ctx = await createContext(env.config);
      const org = await seedOrg(ctx, { tier: 'enterprise' });
      key = org.key;
      orgId = org.orgId;
      await loadSampleLists(ctx);
      await ctx.close();
    });
    after(async () => env?.cleanup());

    it(`loses no acknowledged screening over ${ROUNDS} kill -9 rounds; each key replays its own`, async () => {
      const report = await runCrashRounds({ env: env.env, key, rounds: ROUNDS, acksPerRound: 120, concurrency: 16 });
      assert.ok(report.acknowledged >= ROUNDS * 120, `acknowledged ${report.acknowledged}`);
      assert.equal(report.kills, ROUNDS);
      assert.deepEqual(report.missing, [], 'every acknowledged screening is stored');
      assert.deepEqual(report.wrongReplays, [], 'every key replays its own screening');
      assert.deepEqual(report.sharedScreenings, [], 'no two keys share a screening');
      assert.ok(report.unacknowledged > 0, 'requests were cut off by the kill (the test hit in-flight work)');

      // The audit chain after the last kill: a node that starts (here the test's own, its sealer job
      // started as `sanctions serve` starts it) seals in its first round what the killed ones left
      // pending, and the chain verifies.
      const ctx = await createContext(env.config);
      try {
        ctx.jobs.auditSeal.job.start();
        await ctx.jobs.auditSeal.job.runUntilIdle();
        const audit = await ctx.services.audit.verify({ ctx: ctx.operator, input: {} });
        assert.equal(audit.ok, true, JSON.stringify(audit.broken));
        assert.equal(audit.unsealed, 0, 'nothing left unsealed after the restart');
        const db = ctx.database.db;
        const count = async (q: Promise<{ n: unknown } | undefined>) => Number((await q)?.n);
        const screenings = await count(
          db
            .selectFrom('screenings')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('org_id', '=', orgId)
            .executeTakeFirst(),
        );
        const entries = await count(
          db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('chain', '=', orgId)
            .where('event', '=', 'screening.created')
            .executeTakeFirst(),
        );
        assert.equal(entries, screenings, 'one sealed entry per stored screening');
      } finally {
        await ctx.jobs.auditSeal.job.stop();
        await ctx.close();
      }
    });
  });
}
