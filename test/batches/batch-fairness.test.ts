import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { BatchRunner } from '../../src/batches/batch-runner.js';
import { ManualClock } from '../../src/infra/clock.js';
import { InFlight } from '../../src/infra/in-flight.js';
import type { ScreeningService } from '../../src/screening/screening-service.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, loadSampleLists } from '../helpers/http-assert.js';

/**
 * Batch rows run many at once while no interactive request is under way and back off to
 * BATCH_BUSY_CONCURRENCY while one is (issue 14, items 5 and 8). The runner here is a second one on
 * the test's context with a screening service that counts the rows it is screening at each start.
 */

/** Lets the event loop turn until `done` holds (no timers: the order of events, not time). */
async function turnsUntil(done: () => boolean, turns = 100_000): Promise<void> {
  for (let i = 0; i < turns && !done(); i++) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(done(), 'the condition never held');
}

for (const { engine, skip } of ENGINES) {
  describe(`batch fairness (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    const clock = new ManualClock('2026-03-01T09:00:00.000Z');

    before(async () => {
      t = await startTestApp(engine, { env: GENEROUS_LIMITS, clock });
      org = await seedOrg(t.ctx);
      await loadSampleLists(t.ctx);
    });
    after(async () => t?.close());

    /** A runner with its own limits whose screening records, at each row's start, the rows in flight. */
    function runner(interactive: InFlight, onStart?: (started: number) => void, claimSize = 200) {
      let inFlight = 0;
      let started = 0;
      const atStart: number[] = [];
      const real = t.ctx.services.screening;
      const screening: ScreeningService = {
        ...real,
        screen: async (call) => {
          inFlight++;
          started++;
          atStart.push(inFlight);
          onStart?.(started);
          try {
            return await real.screen(call);
          } finally {
            inFlight--;
          }
        },
      };
      const batches = new BatchRunner({
        database: t.ctx.database,
        clock,
        config: { ...t.ctx.config.batches, concurrency: 8, busyConcurrency: 1, claimSize },
        nodeId: t.ctx.nodeId,
        screening,
        monitors: t.ctx.services.monitors,
        listsReady: () => true,
        interactive,
      });
      return { batches, atStart };
    }

    async function batchOf(rows: number, prefix: string): Promise<string> {
      const items = Array.from({ length: rows }, (_, i) => ({
        name: `Customer ${prefix} ${i}`,
        externalId: `${prefix}-${i}`,
      }));
      const res = await t.request('POST', '/v1/batches', { key: org.key, body: { items } });
      assert.equal(res.status, 202, res.text);
      return res.body.data.batchId;
    }

    async function screenedOnce(id: string, prefix: string, rows: number) {
      const s = (await t.request('GET', `/v1/batches/${id}`, { key: org.key })).body.data;
      assert.deepEqual([s.status, s.screened, s.errors], ['completed', rows, 0]);
      const screenings = await t.ctx.database.db
        .selectFrom('screenings')
        .select('external_id')
        .where('org_id', '=', org.orgId)
        .where('external_id', 'like', `${prefix}-%`)
        .execute();
      assert.equal(screenings.length, rows, 'one screening per row');
      assert.equal(new Set(screenings.map((r) => r.external_id)).size, rows);
    }

    it('with no interactive request under way, BATCH_CONCURRENCY rows are in flight at once', async () => {
      const id = await batchOf(40, 'fi');
      const { batches, atStart } = runner(new InFlight());
      await batches.job.runUntilIdle();
      // It starts at the busy limit and adds one row per finished row, up to BATCH_CONCURRENCY.
      assert.deepEqual(atStart.slice(0, 2), [1, 1]);
      assert.equal(Math.max(...atStart), 8);
      await screenedOnce(id, 'fi', 40);
    });

    it('the next rows are claimed before the last ones are taken: no draining between claims', async () => {
      const id = await batchOf(45, 'fc');
      // Claims of 10 rows: the first row of each later claim starts with the rows of the one before
      // still in flight (a round that drained first would start it alone).
      const { batches, atStart } = runner(new InFlight(), undefined, 10);
      const report = await batches.job.runUntilIdle();
      assert.equal(Math.max(...atStart), 8);
      for (const first of [10, 20, 30, 40])
        assert.ok(atStart[first]! > 1, `row ${first + 1} started with ${atStart[first]} rows in flight`);
      assert.deepEqual([report?.screened, report?.errors, report?.completed], [45, 0, 1]);
      await screenedOnce(id, 'fc', 45);
    });

    it('rows whose lease ran out while they waited here are claimed again by this node, not run twice', async () => {
      const id = await batchOf(45, 'fl');
      const usage = async () =>
        Number(
          (
            await t.ctx.database.db
              .selectFrom('usage')
              .select('count')
              .where('org_id', '=', org.orgId)
              .executeTakeFirst()
          )?.count ?? 0,
        );
      const before = await usage();
      // Every row starts a lease later: each claim made ahead finds the rows still waiting here expired.
      const { batches } = runner(new InFlight(), () => clock.advance(t.ctx.config.batches.leaseMs + 1), 10);
      const report = await batches.job.runUntilIdle();
      assert.deepEqual([report?.screened, report?.errors], [45, 0]);
      await screenedOnce(id, 'fl', 45);
      assert.equal((await usage()) - before, 45, 'one quota unit per row: no row ran twice');
    });

    it('back to BATCH_CONCURRENCY once the requests are over, within one claim of the batch', async () => {
      const id = await batchOf(300, 'fr');
      const interactive = new InFlight();
      let quietFrom = 0;
      const { batches, atStart } = runner(
        interactive,
        (started) => {
          if (started === 20) interactive.enter();
          if (started === 40) {
            interactive.leave();
            quietFrom = started;
          }
        },
        500,
      );
      await batches.job.runUntilIdle();
      // Every slot is taken again: each growth of the limit wakes the worker of the slot it allows.
      assert.equal(Math.max(...atStart.slice(quietFrom)), 8);
      await screenedOnce(id, 'fr', 300);
    });

    it('while an interactive request is under way, one row at a time (BATCH_BUSY_CONCURRENCY)', async () => {
      const id = await batchOf(30, 'fb');
      const interactive = new InFlight();
      interactive.enter();
      const { batches, atStart } = runner(interactive);
      await batches.job.runUntilIdle();
      assert.deepEqual(new Set(atStart), new Set([1]));
      await screenedOnce(id, 'fb', 30);
    });

    it('backs off at once when a request arrives: no row starts above the busy limit after it', async () => {
      const id = await batchOf(80, 'fo');
      const interactive = new InFlight();
      let busyFrom = 0;
      const { batches, atStart } = runner(interactive, (started) => {
        if (started === 30) {
          interactive.enter();
          busyFrom = started;
        }
      });
      await batches.job.runUntilIdle();
      assert.ok(busyFrom > 0);
      const before = atStart.slice(0, busyFrom);
      const after = atStart.slice(busyFrom);
      assert.equal(Math.max(...before), 8, 'many rows at once while nothing waited');
      // Rows already running when the request came finish; the rows started after it never add to them.
      for (let i = 1; i < after.length; i++)
        assert.ok(after[i]! <= Math.max(1, after[i - 1]!), `row ${i} added to the rows in flight`);
      assert.equal(after.at(-1), 1, 'one row at a time once the running rows finished');
      interactive.leave();
      await screenedOnce(id, 'fo', 80);
    });

    it('the HTTP layer counts requests under way, and forgets answered, failed and abandoned ones', async () => {
      const interactive = t.ctx.jobs.interactive;
      assert.equal(interactive.size, 0);
      assert.equal(
        (await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Anna Schmidt' } })).status,
        200,
      );
      assert.equal((await t.request('GET', '/v1/nowhere', { key: org.key })).status, 404);
      assert.equal((await t.request('POST', '/v1/screen', { key: 'wrong', body: { name: 'x' } })).status, 401);
      assert.equal(interactive.size, 0);
      // A request whose body is still coming is under way; its client going away ends it.
      const { port } = new URL(t.url);
      const req = http.request({
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path: '/v1/screen',
        headers: { 'x-api-key': org.key, 'content-type': 'application/json', 'content-length': '1000' },
      });
      req.on('error', () => undefined);
      req.write('{"name": "Anna');
      await turnsUntil(() => interactive.size === 1);
      assert.equal(interactive.busy, true);
      const idle = interactive.idle();
      req.destroy();
      await idle;
      assert.equal(interactive.size, 0);
    });

    it('a request whose client leaves while it is being answered is forgotten too (a load generator stopping)', async () => {
      const interactive = t.ctx.jobs.interactive;
      const { port } = new URL(t.url);
      for (let i = 0; i < 5; i++) {
        const body = JSON.stringify({ name: `Anna Schmidt ${i}` });
        const req = http.request({
          host: '127.0.0.1',
          port: Number(port),
          method: 'POST',
          path: '/v1/screen',
          headers: { 'x-api-key': org.key, 'content-type': 'application/json', 'content-length': body.length },
        });
        req.on('error', () => undefined);
        // The whole request is sent; the client goes away once the server has it and before the answer.
        req.end(body);
        await turnsUntil(() => interactive.size === 1);
        req.destroy();
        await interactive.idle();
        assert.equal(interactive.size, 0);
      }
      // What was screened meanwhile is stored as usual; nothing is left counted.
      assert.equal(
        (await t.request('POST', '/v1/screen', { key: org.key, body: { name: 'Anna Schmidt' } })).status,
        200,
      );
      assert.equal(interactive.size, 0);
    });
  });
}
