/**
 * A rescreen shared by the nodes of a PostgreSQL deployment (issue 30, item 4): two nodes on one
 * database run their passes at once and each takes part of the monitors; the batch a dead node held
 * (its transaction and row locks gone with it) is taken by the next pass of a live node; no monitor
 * is alerted twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { ManualClock } from '../../src/infra/clock.js';
import {
  ENGINES,
  PG_URL,
  type SeededOrg,
  type TestApp,
  activateRecords,
  monitorNames,
  alertsPerMonitor,
  organization,
  seedOrg,
  startTestApp,
} from '../helpers/harness.js';

const postgres = ENGINES.find((e) => e.engine === 'postgres')!;
const MONITORS = 60;
const names = Array.from({ length: MONITORS }, (_, i) => `Meridian Holdings ${String.fromCharCode(65 + (i % 26))}${i}`);

describe('rescreening across nodes (postgres)', { skip: postgres.skip }, () => {
  let a: TestApp;
  let b: TestApp;
  let org: SeededOrg;
  const clock = new ManualClock('2026-05-04T10:00:00.000Z');

  before(async () => {
    a = await startTestApp('postgres', { clock, env: { RESCREEN_BATCH_SIZE: '5', RATE_LIMIT_PER_MINUTE: '100000' } });
    b = await startTestApp('postgres', { clock, shared: a.env });
    org = await seedOrg(a.ctx, { tier: 'professional' });
    await activateRecords(a.ctx, 'us_ofac', [organization('us_ofac', '9001', 'HARBOUR LIGHT TRADING')]);
    await b.ctx.runtime.refresh();
    await monitorNames(a, org.key, names);
    // Both nodes start from the monitors' first pass.
    await a.ctx.jobs.rescreen.runPass();
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  /** A minute on, every monitored name listed, and both nodes with those lists. */
  async function listEveryName() {
    clock.advance(60_000);
    await activateRecords(
      a.ctx,
      'us_ofac',
      names.map((name, i) => organization('us_ofac', String(9100 + i), name.toUpperCase())),
    );
    await b.ctx.runtime.refresh();
  }

  it('two nodes share a full pass: each rescreens part, together all, every monitor alerted once', async () => {
    // Every monitored name is now listed: each monitor's risk rises.
    await listEveryName();
    const [ra, rb] = await Promise.all([a.ctx.jobs.rescreen.runPass('full'), b.ctx.jobs.rescreen.runPass('full')]);
    assert.ok(ra && rb, 'neither node was turned away by a lease');
    assert.equal(ra.rescreened + rb.rescreened, MONITORS, `${ra.rescreened} + ${rb.rescreened}`);
    assert.ok(ra.rescreened > 0 && rb.rescreened > 0, `both nodes took part: ${ra.rescreened} and ${rb.rescreened}`);
    const counts = await alertsPerMonitor(a);
    assert.equal(counts.length, MONITORS);
    assert.ok(
      counts.every((n) => n === 1),
      'no monitor alerted twice',
    );
  });

  it('a node that dies mid-batch leaves its monitors to the next pass of a live node, alerted once', async () => {
    clock.advance(60_000);
    // A delisting: every monitor's risk falls.
    await activateRecords(a.ctx, 'us_ofac', [organization('us_ofac', '9001', 'HARBOUR LIGHT TRADING')]);
    await b.ctx.runtime.refresh();
    // The dying node: a connection that claimed a batch (rows locked in an open transaction).
    const dying = new pg.Client({ connectionString: PG_URL });
    await dying.connect();
    await dying.query(`set search_path to "${a.env.schema}"`);
    await dying.query('begin');
    const claimed = await dying.query('select id from monitors order by id limit 5 for update skip locked');
    assert.equal(claimed.rowCount, 5);
    const first = await b.ctx.jobs.rescreen.runPass('full');
    assert.equal(first?.rescreened, MONITORS - 5, 'the locked batch is skipped, not waited for');
    // The node dies: its connection goes, its transaction aborts, its locks are released.
    await dying.end();
    const second = await b.ctx.jobs.rescreen.runPass('full');
    assert.equal(second?.rescreened, 5, "the next pass takes the dead node's batch");
    const counts = await alertsPerMonitor(a);
    assert.ok(
      counts.every((n) => n === 2),
      `one alert per monitor per change: ${JSON.stringify(counts)}`,
    );
  });

  it('a batch whose write fails ends the pass with its error, no row left locked; the next pass finishes', async () => {
    // A node claims and screens its next batch while the last one is written: the failure of that
    // write must neither be lost nor leave the next batch's transaction behind.
    await listEveryName();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`set search_path to "${a.env.schema}"`);
      const ids = (await admin.query<{ id: string }>('select id from monitors order by id')).rows.map((r) => r.id);
      const refused = ids[12]!; // in the third batch of five
      await admin.query(`create function refuse_alert() returns trigger language plpgsql as $$
        begin
          if new.monitor_id = '${refused}' then raise exception 'alert write refused by the test'; end if;
          return new;
        end $$`);
      await admin.query(
        'create trigger refuse_alert before insert on alerts for each row execute function refuse_alert()',
      );
      await assert.rejects(a.ctx.jobs.rescreen.runPass('full'), /alert write refused by the test/);
      const unlocked = await admin.query('select id from monitors for update skip locked');
      assert.equal(unlocked.rowCount, MONITORS, 'no monitor is held by a transaction of the failed pass');
      await admin.query('drop trigger refuse_alert on alerts');
      const rest = await a.ctx.jobs.rescreen.runPass('full');
      assert.ok(rest && rest.rescreened > 0 && rest.rescreened <= MONITORS - 10, `the rest: ${rest?.rescreened}`);
      const counts = await alertsPerMonitor(a);
      assert.ok(
        counts.every((n) => n === 3),
        `one alert per monitor per change: ${JSON.stringify(counts)}`,
      );
    } finally {
      await admin.end();
    }
  });
});
