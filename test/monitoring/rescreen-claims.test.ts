/**
 * The claim timeout of a rescreen (issue 30, item 4): a node that claims work and then hangs,
 * never finishing, keeps it only for RESCREEN_CLAIM_TIMEOUT. On PostgreSQL its claim is a batch of
 * locked rows in an open transaction, which the database ends after the timeout; on SQLite it is the
 * pass lease. Another node then takes the work over, the full pass completes, and when the hung
 * node wakes it writes nothing: every monitor is alerted exactly once.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { type PassReport, Rescreener } from '../../src/monitoring/rescreen-service.js';
import { BUILT_IN_PROFILE, type ProfileResolver } from '../../src/screening/index.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  monitorNames,
  alertsPerMonitor,
  organization,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';

const MONITORS = 20;
const BATCH = 5;
const names = Array.from({ length: MONITORS }, (_, i) => `Corvane Shipping ${String.fromCharCode(65 + i)}${i}`);

/** A node that claims a batch and hangs on its first monitor until woken. */
function hungNode(live: TestApp) {
  let claimed!: () => void;
  let wake!: () => void;
  const hasClaimed = new Promise<void>((r) => (claimed = r));
  const woken = new Promise<void>((r) => (wake = r));
  const profileOf: ProfileResolver = async () => {
    claimed();
    await woken;
    return BUILT_IN_PROFILE;
  };
  const { ctx } = live;
  const node = new Rescreener({
    database: ctx.database,
    clock: ctx.clock,
    matching: ctx.config.matching,
    monitoring: ctx.config.monitoring,
    nodeId: 'node-that-hangs',
    lists: () => ctx.runtime.current(),
    profileOf,
  });
  // Its pass ends when it is woken: with an error on PostgreSQL (its session is gone), early on SQLite.
  const pass = node.runPass('full').then(
    (report) => ({ report }),
    (error: unknown) => ({ error }),
  );
  return { hasClaimed, wake, pass };
}

for (const { engine, skip } of ENGINES) {
  describe(`a rescreen claim outlives a hung node by RESCREEN_CLAIM_TIMEOUT (${engine})`, { skip }, () => {
    const clock = new ManualClock('2026-05-04T10:00:00.000Z');
    // PostgreSQL measures the silence itself (real time); SQLite's lease runs on the service's clock.
    const timeout = engine === 'postgres' ? '2s' : '2m';
    let a: TestApp;
    let b: TestApp | undefined;
    let org: SeededOrg;

    before(async () => {
      a = await startTestApp(engine, {
        clock,
        env: { RESCREEN_BATCH_SIZE: String(BATCH), RESCREEN_CLAIM_TIMEOUT: timeout, RATE_LIMIT_PER_MINUTE: '100000' },
      });
      if (engine === 'postgres') b = await startTestApp('postgres', { clock, shared: a.env });
      org = await seedOrg(a.ctx, { tier: 'professional' });
      await activateRecords(a.ctx, 'us_ofac', [organization('us_ofac', '9001', 'HARBOUR LIGHT TRADING')]);
      await b?.ctx.runtime.refresh();
      await monitorNames(a, org.key, names);
      await a.ctx.jobs.rescreen.runPass('full');
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });

    it('the hung node’s work is taken over after the timeout, the pass completes, each alert is raised once', async () => {
      assert.equal(a.ctx.config.monitoring.claimTimeoutMs, engine === 'postgres' ? 2000 : 120_000);
      assert.deepEqual(await alertsPerMonitor(a), [], 'no alert before the change');
      clock.advance(60_000);
      // Every monitored name is now listed: every monitor's risk rises, one alert each.
      await activateRecords(
        a.ctx,
        'us_ofac',
        names.map((name, i) => organization('us_ofac', String(9100 + i), name.toUpperCase())),
      );
      await b?.ctx.runtime.refresh();
      const hung = hungNode(a);
      await hung.hasClaimed;
      const claimedAt = Date.now();

      let takenOver: PassReport[];
      if (b) {
        // PostgreSQL: the live node skips the locked batch instead of waiting for it...
        const first = await b.ctx.jobs.rescreen.runPass('full');
        assert.ok(first);
        // (A machine so loaded that this pass outlasts the claim would see the batch freed during it.)
        if (Date.now() - claimedAt < 1800)
          assert.equal(first.rescreened, MONITORS - BATCH, 'the claimed batch is skipped, not waited for');
        // ...and once the database has ended the silent session, takes it.
        takenOver = [first];
        const done = () => takenOver.reduce((n, r) => n + r.rescreened, 0);
        while (done() < MONITORS && Date.now() - claimedAt < 15_000) {
          await sleep(250);
          const next = await b.ctx.jobs.rescreen.runPass('full');
          assert.ok(next);
          takenOver.push(next);
        }
        const waited = Date.now() - claimedAt;
        assert.equal(done(), MONITORS, `every monitor once, the hung node's batch after ${waited} ms`);
        assert.ok(waited >= 1900, `not before the claim timed out (${waited} ms)`);
      } else {
        // SQLite: the hung node holds the pass lease; no pass runs until it expires.
        assert.equal(await a.ctx.jobs.rescreen.runPass('full'), undefined, 'the lease is held');
        clock.advance(120_000 - 1000);
        assert.equal(await a.ctx.jobs.rescreen.runPass('full'), undefined, 'still held just before the timeout');
        clock.advance(2000);
        const full = await a.ctx.jobs.rescreen.runPass('full');
        assert.ok(full, 'the lease expired');
        assert.equal(full.rescreened, MONITORS);
        takenOver = [full];
      }
      assert.equal(
        takenOver.reduce((n, r) => n + r.alerts, 0),
        MONITORS,
      );
      assert.deepEqual(await alertsPerMonitor(a), Array(MONITORS).fill(1), 'every monitor alerted once');

      // The hung node wakes and finishes screening its batch: it writes nothing.
      hung.wake();
      const woke = await hung.pass;
      if (engine === 'postgres') {
        assert.ok('error' in woke, `its session was ended: ${JSON.stringify(woke)}`);
        assert.match(String(woke.error), /not queryable|terminat/i);
      } else assert.equal('report' in woke ? woke.report?.alerts : woke, 0, 'the rows it read were rescreened since');
      assert.deepEqual(await alertsPerMonitor(a), Array(MONITORS).fill(1), 'still once each');
      const rest = await (b ?? a).ctx.jobs.rescreen.runPass('full');
      assert.equal(rest?.rescreened, 0, 'nothing left due');
    });
  });
}
