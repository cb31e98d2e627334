import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { ENGINES, type SeededOrg, type TestApp, type TestResponse, seedOrg, startTestApp } from '../helpers/harness.js';
import { assertError } from '../helpers/http-assert.js';

/** api-v1.md section 8 and DECISIONS.md "Rate limits": per key, per minute, shared by every node. */

const header = (res: TestResponse, name: string): number => Number(res.headers.get(name));

for (const { engine, skip } of ENGINES) {
  describe(`rate limit (${engine})`, { skip }, () => {
    let t: TestApp;
    let clock: ManualClock;
    let org: SeededOrg;
    let other: SeededOrg;
    before(async () => {
      // 20 s into a minute: the window ends 40 s later.
      clock = new ManualClock('2026-01-15T12:00:20.000Z');
      t = await startTestApp(engine, { clock, env: { RATE_LIMIT_PER_MINUTE: '5' } });
      org = await seedOrg(t.ctx);
      other = await seedOrg(t.ctx);
    });
    after(async () => t?.close());

    it('counts down, refuses the 6th request with 429 and Retry-After, and allows again in the next minute', async () => {
      const windowEnd = Date.parse('2026-01-15T12:01:00.000Z') / 1000;
      const remaining: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t.request('GET', '/v1/screenings', { key: org.key });
        assert.equal(res.status, 200, res.text);
        assert.equal(header(res, 'x-ratelimit-limit'), 5);
        assert.equal(header(res, 'x-ratelimit-reset'), windowEnd);
        remaining.push(header(res, 'x-ratelimit-remaining'));
      }
      assert.deepEqual(remaining, [4, 3, 2, 1, 0]);

      const sixth = await t.request('GET', '/v1/screenings', { key: org.key });
      assertError(sixth, 429, 'RATE_LIMITED');
      assert.equal(header(sixth, 'retry-after'), 40);
      assert.equal(header(sixth, 'x-ratelimit-limit'), 5);
      assert.equal(header(sixth, 'x-ratelimit-remaining'), 0);
      assert.equal(header(sixth, 'x-ratelimit-reset'), windowEnd);
      assertError(await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'x' } }), 429, 'RATE_LIMITED');

      // Another organization's key has its own budget.
      assert.equal((await t.request('GET', '/v1/screenings', { key: other.key })).status, 200);

      clock.advance(39_000);
      const stillBlocked = await t.request('GET', '/v1/screenings', { key: org.key });
      assertError(stillBlocked, 429, 'RATE_LIMITED');
      assert.equal(header(stillBlocked, 'retry-after'), 1);

      clock.advance(1_000);
      const next = await t.request('GET', '/v1/screenings', { key: org.key });
      assert.equal(next.status, 200, next.text);
      assert.equal(header(next, 'x-ratelimit-remaining'), 4);
      assert.equal(header(next, 'x-ratelimit-reset'), windowEnd + 60);
    });

    it('counts error responses (404, 400) against the key as well', async () => {
      clock.set('2026-01-15T13:00:00.000Z');
      const a = await t.request('GET', '/v1/screenings/scr_unknown', { key: org.key });
      assertError(a, 404, 'NOT_FOUND');
      assert.equal(header(a, 'x-ratelimit-remaining'), 4);
      const b = await t.request('GET', '/v1/screenings?pageSize=1000', { key: org.key });
      assertError(b, 400, 'VALIDATION_ERROR', { field: 'pageSize' });
      assert.equal(header(b, 'x-ratelimit-remaining'), 3);
    });
  });

  // The embedded SQLite deployment is one process by design and counts in memory; several nodes
  // share one limit through PostgreSQL.
  const oneProcess = engine === 'sqlite' ? 'SQLite deployments are one process: limits are counted in memory' : false;
  describe(`rate limit shared by two nodes on one database (${engine})`, { skip: skip || oneProcess }, () => {
    let a: TestApp;
    let b: TestApp;
    let org: SeededOrg;
    before(async () => {
      const clock = new ManualClock('2026-01-15T12:00:00.000Z');
      a = await startTestApp(engine, { clock, env: { RATE_LIMIT_PER_MINUTE: '5' } });
      b = await startTestApp(engine, { clock, shared: a.env });
      org = await seedOrg(a.ctx);
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });

    it('one budget across both nodes', async () => {
      const statuses: number[] = [];
      const remaining: number[] = [];
      for (const node of [a, b, a, b, a]) {
        const res = await node.request('GET', '/v1/screenings', { key: org.key });
        statuses.push(res.status);
        remaining.push(header(res, 'x-ratelimit-remaining'));
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
      assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
      assertError(await b.request('GET', '/v1/screenings', { key: org.key }), 429, 'RATE_LIMITED');
      assertError(await a.request('GET', '/v1/screenings', { key: org.key }), 429, 'RATE_LIMITED');
    });
  });
}
