import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { ManualClock } from '../../src/infra/clock.js';
import { foldUsage, usedThisMonth } from '../../src/tenants/index.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { assertError, loadSampleLists } from '../helpers/http-assert.js';

/**
 * Counters shared through Redis (REDIS_URL, docs/multi-node.md): two nodes on one database and one
 * Redis admit exactly the per-key limit between them and never more than the monthly quota, also when
 * Redis loses its counts; Redis unreachable is a 503. Each run uses a key prefix of its own, so runs in
 * parallel do not share counters. CI sets REQUIRE_REDIS=1: a missing Redis fails instead of skipping.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<string | undefined> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    client.disconnect();
  }
}

const unreachable = await redisReachable();
if (unreachable && process.env.REQUIRE_REDIS === '1') {
  throw new Error(`REQUIRE_REDIS=1 but Redis is not reachable at ${REDIS_URL}: ${unreachable}`);
}
const redisSkip = unreachable ? `Redis not reachable at ${REDIS_URL}` : false;

/** Deletes every key of a prefix: what a Redis restart does to them. */
async function forget(prefix: string): Promise<number> {
  const client = new Redis(REDIS_URL);
  try {
    const keys = await client.keys(`${prefix}*`);
    return keys.length > 0 ? await client.del(...keys) : 0;
  } finally {
    client.disconnect();
  }
}

for (const { engine, skip } of ENGINES) {
  describe(`counters in Redis, two nodes on one database (${engine})`, { skip: skip || redisSkip }, () => {
    const prefix = `test:${process.pid}:${randomBytes(4).toString('hex')}:`;
    let a: TestApp;
    let b: TestApp;
    let clock: ManualClock;
    let org: SeededOrg;
    let limited: SeededOrg;
    before(async () => {
      // 10 s into a minute.
      clock = new ManualClock('2026-03-10T09:00:10.000Z');
      a = await startTestApp(engine, {
        clock,
        env: { REDIS_URL, REDIS_KEY_PREFIX: prefix, REDIS_QUOTA_SETTLE: '4s' },
      });
      b = await startTestApp(engine, { clock, shared: a.env });
      org = await seedOrg(a.ctx);
      limited = await seedOrg(a.ctx, { quota: 3 });
      await loadSampleLists(a.ctx);
      await b.ctx.runtime.refresh();
    });
    after(async () => {
      await b?.close();
      await a?.close();
      await forget(prefix).catch(() => 0);
    });

    it('admit exactly 60 requests a minute per key between them, sent at once to both', async () => {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? a : b).request('GET', '/v1/screenings', { key: org.key })),
      );
      const statuses = answers.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 60, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, 40);
      // Both nodes admitted some: the count is shared, not per node.
      assert.ok(answers.some((r, i) => r.status === 200 && i % 2 === 1));
      assert.ok(answers.some((r, i) => r.status === 200 && i % 2 === 0));
      const refused = answers.find((r) => r.status === 429)!;
      assertError(refused, 429, 'RATE_LIMITED');
      assert.equal(refused.headers.get('retry-after'), '50');
      // Nothing written to the database's rate-limit table: the counters are in Redis.
      assert.equal((await a.ctx.database.db.selectFrom('rate_limits').select('bucket').execute()).length, 0);

      clock.advance(50_000);
      const next = await b.request('GET', '/v1/screenings', { key: org.key });
      assert.equal(next.status, 200, next.text);
      assert.equal(next.headers.get('x-ratelimit-remaining'), '59');
    });

    it('never take more than the monthly quota across both nodes; usage is recorded in the database', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 === 0 ? a : b).request('POST', '/v1/screen', { key: limited.key, body: { name: `Someone ${i}` } }),
        ),
      );
      const statuses = answers.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 200).length, 3, statuses.join(','));
      for (const r of answers.filter((x) => x.status !== 200)) assertError(r, 403, 'TIER_LIMIT_EXCEEDED');
      const db = a.ctx.database.db;
      const stored = await db.selectFrom('screenings').select('id').where('org_id', '=', limited.orgId).execute();
      assert.equal(stored.length, 3);
      // Appended by the group commits (PostgreSQL), then folded into the usage row: 3 either way.
      assert.equal(await usedThisMonth(db, limited.orgId, clock.now()), 3);
      await foldUsage(db);
      assert.equal(await usedThisMonth(db, limited.orgId, clock.now()), 3);
      const usage = await db.selectFrom('usage').select('count').where('org_id', '=', limited.orgId).execute();
      assert.deepEqual(
        usage.map((u) => Number(u.count)),
        [3],
      );
      assert.equal((await db.selectFrom('usage_added').selectAll().execute()).length, 0);
    });

    it('after Redis lost its counts: 503 for the rest of that minute and until the quota is rebuilt, then the stored count holds', async () => {
      clock.advance(60_000);
      // Each node has seen the epoch before the loss.
      assert.equal((await a.request('GET', '/v1/screenings', { key: org.key })).status, 200);
      assert.equal((await b.request('GET', '/v1/screenings', { key: org.key })).status, 200);
      assert.ok((await forget(prefix)) > 0);

      const lost = await a.request('GET', '/v1/screenings', { key: org.key });
      assertError(lost, 503, 'SERVICE_UNAVAILABLE');
      assert.match(lost.body.error.message, /Redis/);
      assert.ok(Number(lost.headers.get('retry-after')) >= 1);
      assertError(await b.request('GET', '/v1/screenings', { key: org.key }), 503, 'SERVICE_UNAVAILABLE');

      // The next minute: the limit counts afresh; the quota waits for its settling time (4 s) to pass.
      clock.advance(60_000 - (clock.now().getTime() % 60_000));
      const listed = await b.request('GET', '/v1/screenings', { key: org.key });
      assert.equal(listed.status, 200, listed.text);
      // The loss was found at least a minute ago: the quota is rebuilt from the 3 stored screenings.
      const over = await a.request('POST', '/v1/screen', { key: limited.key, body: { name: 'One more' } });
      assertError(over, 403, 'TIER_LIMIT_EXCEEDED');
      const unlimited = await b.request('POST', '/v1/screen', { key: org.key, body: { name: 'Anyone' } });
      assert.equal(unlimited.status, 200, unlimited.text);
    });
  });

  describe(`Redis unreachable (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    before(async () => {
      // Port 9 (discard) is closed on the test machines: every connection is refused.
      t = await startTestApp(engine, { env: { REDIS_URL: 'redis://127.0.0.1:9', REDIS_KEY_PREFIX: 'test:down:' } });
      org = await seedOrg(t.ctx);
    });
    after(async () => t?.close());

    it('keyed requests get 503 SERVICE_UNAVAILABLE naming Redis; health checks still answer', async () => {
      const res = await t.request('GET', '/v1/screenings', { key: org.key });
      assertError(res, 503, 'SERVICE_UNAVAILABLE');
      assert.match(res.body.error.message, /Redis/);
      assert.equal(res.headers.get('retry-after'), '1');
      const health = await t.request('GET', '/health');
      assert.equal(health.status, 200, health.text);
    });
  });
}
