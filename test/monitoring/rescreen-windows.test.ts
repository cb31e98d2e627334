/**
 * A full pass reads the monitors in windows of the primary key (MonitorStore.due): each batch looks
 * among the next RESCREEN_BATCH_SIZE x 4 monitors only, so the plan stays a bounded read whatever
 * the database's statistics say. Monitors due here and there, with whole windows of current ones
 * between them and one due as the very last, are each rescreened once, and the pass ends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import {
  ENGINES,
  type SeededOrg,
  type TestApp,
  activateRecords,
  monitorNames,
  organization,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';

const MONITORS = 24;
const BATCH = 2; // windows of 8 monitors

for (const { engine, skip } of ENGINES) {
  describe(`a full pass finds due monitors window after window (${engine})`, { skip }, () => {
    let t: TestApp;
    let org: SeededOrg;
    let ids: string[];
    const clock = new ManualClock('2026-05-04T10:00:00.000Z');

    before(async () => {
      t = await startTestApp(engine, {
        clock,
        env: { RESCREEN_BATCH_SIZE: String(BATCH), RATE_LIMIT_PER_MINUTE: '100000' },
      });
      org = await seedOrg(t.ctx, { tier: 'professional' });
      await activateRecords(t.ctx, 'us_ofac', [organization('us_ofac', '9001', 'HARBOUR LIGHT TRADING')]);
      await monitorNames(
        t,
        org.key,
        Array.from({ length: MONITORS }, (_, i) => `Corvane Shipping ${String.fromCharCode(65 + i)}${i}`),
      );
      ids = (await t.ctx.database.db.selectFrom('monitors').select('id').orderBy('id').execute()).map((r) => r.id);
      assert.equal(ids.length, MONITORS);
    });
    after(() => t?.close());

    it('rescreens the scattered due monitors, each once, and ends', async () => {
      // Every monitor was screened against the lists in force when it was created: none is due.
      assert.equal((await t.ctx.jobs.rescreen.runPass('full'))?.rescreened, 0, 'nothing due while all are current');

      // Due again: one in the first window, one in the third, the last monitor; windows 2 and 3's rest current.
      const due = [ids[1]!, ids[17]!, ids[MONITORS - 1]!];
      await t.ctx.database.db
        .updateTable('monitors')
        .set({ rescreen_generation: null })
        .where('id', 'in', due)
        .execute();
      const before = new Map(
        (await t.ctx.database.db.selectFrom('monitors').select(['id', 'last_screened_at']).execute()).map((r) => [
          r.id,
          r.last_screened_at,
        ]),
      );
      clock.advance(1000);
      const pass = await t.ctx.jobs.rescreen.runPass('full');
      assert.equal(pass?.rescreened, due.length, JSON.stringify(pass));
      const after = await t.ctx.database.db.selectFrom('monitors').select(['id', 'last_screened_at']).execute();
      const touched = after.filter((r) => r.last_screened_at !== before.get(r.id)).map((r) => r.id);
      assert.deepEqual(touched.sort(), [...due].sort(), 'exactly the due monitors were rescreened');
      assert.equal((await t.ctx.jobs.rescreen.runPass('full'))?.rescreened, 0, 'and nothing is left due');
    });
  });
}
