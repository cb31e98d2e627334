/**
 * The list jobs of `sanctions serve` driven round by round with a moved clock: the start-up sync of
 * sources without a good version, and the daily refresh once the clock passes LIST_SYNC_TIME.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../src/infra/clock.js';
import { ENGINES, type TestApp, startTestApp } from '../helpers/harness.js';

/** A LISTS_DIR holding one source: the US CSL fixture in the publisher's JSON format. */
function listsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'list-jobs-'));
  mkdirSync(join(dir, 'us_csl'));
  copyFileSync(
    resolve(process.cwd(), 'test/fixtures/lists/us_csl/json/consolidated.json'),
    join(dir, 'us_csl', 'consolidated.json'),
  );
  return dir;
}

for (const { engine, skip } of ENGINES) {
  describe(`list jobs (${engine})`, { skip }, () => {
    const dirs: string[] = [];
    const apps: TestApp[] = [];
    after(async () => {
      for (const app of apps) await app.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });
    const start = async (env: Record<string, string>, clock: ManualClock) => {
      const dir = listsDir();
      dirs.push(dir);
      const app = await startTestApp(engine, { clock, env: { LISTS_DIR: dir, LIST_SYNC_TIME: '04:00', ...env } });
      apps.push(app);
      return app;
    };
    const attempts = (app: TestApp) =>
      app.ctx.database.db
        .selectFrom('list_versions')
        .select(['source', 'status'])
        .where('source', '=', 'us_csl')
        .execute();

    let daily: TestApp;
    let clock: ManualClock;
    before(async () => {
      clock = new ManualClock('2026-03-10T12:00:00.000Z');
      daily = await start({ LIST_SYNC_ON_START: 'false' }, clock);
    });

    it('syncs nothing before the daily time, and loads no lists when there are none', async () => {
      await daily.ctx.jobs.lists.job.runUntilIdle();
      assert.deepEqual(await attempts(daily), []);
      assert.equal(daily.ctx.runtime.current(), undefined);
      clock.set('2026-03-11T03:59:59.000Z');
      await daily.ctx.jobs.lists.job.runUntilIdle();
      assert.deepEqual(await attempts(daily), []);
    });

    it('refreshes every source once the clock passes LIST_SYNC_TIME, loads the new version, then waits a day', async () => {
      clock.set('2026-03-11T04:00:00.000Z');
      await daily.ctx.jobs.lists.job.runUntilIdle();
      assert.deepEqual(await attempts(daily), [{ source: 'us_csl', status: 'active' }]);
      assert.deepEqual(daily.ctx.runtime.current()?.sources, ['us_csl'], 'the synced version is in force on this node');
      clock.advance(60 * 60 * 1000);
      await daily.ctx.jobs.lists.job.runUntilIdle();
      assert.equal((await attempts(daily)).length, 1, 'not again the same day');
      clock.set('2026-03-12T04:00:30.000Z');
      await daily.ctx.jobs.lists.job.runUntilIdle();
      assert.deepEqual(
        (await attempts(daily)).map((a) => a.status).sort(),
        ['active', 'unchanged'],
        'the next day: the same input again',
      );
    });

    it('with LIST_SYNC_ON_START, the first round syncs the sources that have no good version', async () => {
      const app = await start({ LIST_SYNC_ON_START: 'true' }, new ManualClock('2026-03-10T12:00:00.000Z'));
      await app.ctx.jobs.lists.job.runUntilIdle();
      assert.deepEqual(await attempts(app), [{ source: 'us_csl', status: 'active' }]);
      assert.ok(app.ctx.runtime.current()?.sources.includes('us_csl'));
      await app.ctx.jobs.lists.job.runUntilIdle();
      assert.equal((await attempts(app)).length, 1, 'only on the first round');
    });
  });
}
