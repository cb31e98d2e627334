import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/infra/config.js';
import type { MonitorsTable } from '../../src/infra/db-schema.js';
import { cli } from '../helpers/cli.js';
import { ENGINES, type SeededOrg, type TestApp, seedOrg, startTestApp } from '../helpers/harness.js';
import { GENEROUS_LIMITS, loadSampleLists } from '../helpers/http-assert.js';

/**
 * Two reads of every POST /screen are answered from each node's memory for an organization that has
 * no monitor and no decision (monitoring/monitored-searches.ts, decisions/suppression.ts). A monitor
 * or a false positive written by another process applies on the node within a second: on PostgreSQL
 * the tables' triggers notify every node (migration 0023), on SQLite the one file tells. The writes
 * come from outside the test's process (a connection of its own, the command line), so that what a
 * node learns of its own process's writes plays no part.
 */

/** Inserts a monitor row through a connection of its own, as another node would. */
async function insertMonitorElsewhere(config: DatabaseConfig, row: MonitorsTable): Promise<void> {
  const columns = Object.keys(row) as (keyof MonitorsTable)[];
  const values = columns.map((c) => row[c] ?? null);
  if (config.engine === 'sqlite') {
    const db = new Database(config.url);
    try {
      db.prepare(`insert into monitors (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`).run(
        ...values,
      );
    } finally {
      db.close();
    }
    return;
  }
  const url = new URL(config.url);
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`set search_path to "${config.schema}"`);
    await client.query(
      `insert into monitors (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      values,
    );
  } finally {
    await client.end();
  }
}
for (const { engine, skip } of ENGINES) {
  describe(`monitors and decisions made on another node (${engine})`, { skip }, () => {
    let a: TestApp;
    let b: TestApp;
    let org: SeededOrg;
    before(async () => {
      a = await startTestApp(engine, { env: GENEROUS_LIMITS });
      b = await startTestApp(engine, { clock: a.clock, shared: a.env });
      org = await seedOrg(a.ctx);
      await loadSampleLists(a.ctx);
      await b.ctx.runtime.refresh();
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });

    const screenOn = async (node: TestApp) => {
      const res = await node.request('POST', '/v1/screen', { key: org.key, body: { name: 'Rustam Karimov' } });
      assert.equal(res.status, 200, res.text);
      return res.body.data;
    };

    /** Screens on node b until `done` holds of its answer; fails after one second. */
    const withinOneSecond = async (done: (data: { isMonitored: boolean; matchDetails: unknown[] }) => boolean) => {
      const started = performance.now();
      for (;;) {
        if (done(await screenOn(b))) return performance.now() - started;
        assert.ok(performance.now() - started < 1000, 'node b did not see the change within one second');
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    it('a monitor written by another process shows on node b within a second, after node b saw the organization monitor nothing', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await screenOn(b)).isMonitored, false);
      const first = await screenOn(a);
      const screening = await a.ctx.database.db
        .selectFrom('screenings')
        .selectAll()
        .where('id', '=', first.screeningId)
        .executeTakeFirstOrThrow();
      const now = a.clock.now().toISOString();
      await insertMonitorElsewhere(a.env.config.database, {
        id: `mon_elsewhere_${Date.now()}`,
        org_id: org.orgId,
        screening_id: screening.id,
        search_key: screening.search_key,
        query: screening.query,
        entity_type: null,
        country: null,
        birth_date: null,
        entity_name: screening.entity_name,
        risk_threshold: 50,
        is_active: 1,
        last_risk_score: screening.risk_score,
        last_risk_level: screening.risk_level,
        last_sources: screening.matched_sources,
        last_entity_id: screening.entity_id,
        last_list_versions: screening.list_versions,
        last_screened_at: now,
        rescreen_generation: null,
        external_id: null,
        created_at: now,
        removed_at: null,
        identifiers: null,
      });
      await withinOneSecond((data) => data.isMonitored);
      assert.equal((await screenOn(a)).isMonitored, true);
    });

    it('a false positive recorded from the command line reaches node b within a second', async () => {
      const screened = await screenOn(a);
      const match = screened.matchDetails[0] as { entity: { id: string }; suppressed?: boolean };
      assert.ok(match && !match.suppressed, 'the sample lists give a match that is not suppressed');
      const added = await cli(a.env, [
        'decisions',
        'add',
        '--org',
        org.slug,
        '--user',
        org.email,
        '--screening',
        screened.screeningId,
        '--entity',
        match.entity.id,
        '--decision',
        'false_positive',
        '--reason',
        'different_birth_date',
        '--json',
      ]);
      assert.equal(added.code, 0, added.stderr);
      const decision = JSON.parse(added.stdout) as { id: string; status: string };
      assert.equal(decision.status, 'effective');
      // Node b reads the decision: the match names it, suppressed, or lapsed (the command line's clock
      // is the system's, far from the nodes' manual one, so its review may find the listing changed).
      await withinOneSecond((data) =>
        data.matchDetails.some((m) => {
          const x = m as { entity: { id: string }; decisionId?: string; suppressionLapsed?: { decisionId: string } };
          return x.decisionId === decision.id || x.suppressionLapsed?.decisionId === decision.id;
        }),
      );
    });
  });
}
