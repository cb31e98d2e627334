import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseHandle, Db } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrations.js';
import { ENGINES, type TestEnv, migratedDatabase, organizationRow } from '../helpers/harness.js';

/** A stored screening with only its required columns (the rest are null): what the index needs. */
async function storeScreening(db: Db, id: string, externalId: string | null, createdAt: string): Promise<void> {
  await sql`insert into screenings (id, org_id, key_id, query, search_key, group_by_cluster, risk_score,
    risk_level, confidence, matched_sources, used_sources, list_versions, match_details, created_at, external_id)
    values (${id}, 'org_a', 'key_a', 'Jane Doe', 'jane doe', 1, 0, 'low', 0, '[]', '[]', '{}', '[]',
    ${createdAt}, ${externalId})`.execute(db);
}

const PENDING = ['aud_2', 'aud_1', 'aud_3'].map((id, i) => ({
  id,
  chain: i === 2 ? 'org:org_b' : 'org:org_a',
  at: '2026-11-29T10:00:00.000Z',
  event: 'screening.created',
  actor: 'key:key_a',
  subject: `scr_${id}`,
  data: '{}',
}));

for (const { engine, skip } of ENGINES) {
  describe(`migration 0025, fewer pages per screening (${engine})`, { skip }, () => {
    let env: TestEnv;
    let handle: DatabaseHandle;

    before(async () => {
      // The database as the release before left it, with entries waiting for the sealer.
      ({ env, handle } = await migratedDatabase(engine, { through: '0024_usage_added' }));
      const db = handle.db;
      await db.insertInto('organizations').values(organizationRow('org_a', 'enterprise')).execute();
      await storeScreening(db, 'scr_1', null, '2026-11-29T10:00:01.000Z');
      await storeScreening(db, 'scr_2', 'cust-7', '2026-11-29T10:00:02.000Z');
      await storeScreening(db, 'scr_3', 'cust-7', '2026-11-29T10:00:03.000Z');
      await db.insertInto('audit_pending').values(PENDING).execute();
      const report = await migrateToLatest(db);
      assert.deepEqual(report.applied, ['0025_lean_screening_writes']);
    });

    after(async () => {
      await handle?.close();
      await env?.cleanup();
    });

    it('keeps every pending audit entry (on SQLite, keyed by chain and id)', async () => {
      const rows = await handle.db.selectFrom('audit_pending').selectAll().orderBy('chain').orderBy('id').execute();
      assert.deepEqual(
        rows,
        [...PENDING].sort((a, b) => (a.chain + a.id < b.chain + b.id ? -1 : 1)),
      );
      await assert.rejects(
        handle.db
          .insertInto('audit_pending')
          .values({ ...PENDING[0]!, data: '{"again":true}' })
          .execute(),
        /UNIQUE|unique|duplicate/,
      );
      if (engine === 'postgres') return;
      // The same id in another chain is another row (ids are unique by construction, not by the key).
      await handle.db
        .insertInto('audit_pending')
        .values({ ...PENDING[0]!, chain: 'org:org_c' })
        .execute();
      await handle.db.deleteFrom('audit_pending').where('chain', '=', 'org:org_c').execute();
    });

    it('finds screenings by external id through the index, which holds only those with one', async () => {
      const db = handle.db;
      const found = await db
        .selectFrom('screenings')
        .select('id')
        .where('org_id', '=', 'org_a')
        .where('external_id', '=', 'cust-7')
        .orderBy('created_at', 'desc')
        .execute();
      assert.deepEqual(
        found.map((r) => r.id),
        ['scr_3', 'scr_2'],
      );
      if (engine === 'sqlite') {
        const plan = await sql<{ detail: string }>`explain query plan select id from screenings
          where org_id = ${'org_a'} and external_id = ${'cust-7'} order by created_at desc`.execute(db);
        assert.match(plan.rows.map((r) => r.detail).join('\n'), /USING INDEX screenings_org_external/);
        const index = await sql<{
          sql: string;
        }>`select sql from sqlite_master where name = 'screenings_org_external'`.execute(db);
        assert.match(index.rows[0]!.sql, /where "external_id" is not null/i);
        const table = await sql<{ sql: string }>`select sql from sqlite_master where name = 'audit_pending'`.execute(
          db,
        );
        assert.match(table.rows[0]!.sql, /without rowid/i);
        const indexes = await sql<{ name: string }>`select name from sqlite_master
          where type = 'index' and tbl_name = 'audit_pending'`.execute(db);
        assert.deepEqual(indexes.rows, [], 'the primary key is the table itself');
      } else {
        const plan = await db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          return sql<{ 'QUERY PLAN': string }>`explain select id from screenings
            where org_id = ${'org_a'} and external_id = ${'cust-7'} order by created_at desc`.execute(trx);
        });
        assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /screenings_org_external/);
        const indexes = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
          where schemaname = current_schema() and tablename in ('audit_pending', 'screenings')
          order by indexname`.execute(db);
        const names = indexes.rows.map((r) => r.indexname);
        assert.ok(names.includes('audit_pending_pkey') && names.includes('audit_pending_chain'), 'kept on PostgreSQL');
        const external = indexes.rows.find((r) => r.indexname === 'screenings_org_external');
        assert.match(external!.indexdef, /WHERE \(external_id IS NOT NULL\)/);
      }
    });
  });
}

describe('migration 0025 on SQLite is one transaction', () => {
  it('leaves the database as it was when a step fails, and runs whole the next time', async () => {
    const { env, handle } = await migratedDatabase('sqlite', { through: '0024_usage_added' });
    try {
      const db = handle.db;
      await db.insertInto('audit_pending').values(PENDING).execute();
      // A table in the way of the one the migration makes: its third step fails.
      await sql`create table audit_pending_keyed (x text)`.execute(db);
      await assert.rejects(migrateToLatest(db), /0025_lean_screening_writes/);
      const index = await sql<{
        sql: string;
      }>`select sql from sqlite_master where name = 'screenings_org_external'`.execute(db);
      assert.doesNotMatch(index.rows[0]!.sql, /is not null/i, 'the index change was rolled back');
      assert.equal((await db.selectFrom('audit_pending').select('id').execute()).length, PENDING.length);
      await sql`drop table audit_pending_keyed`.execute(db);
      assert.deepEqual((await migrateToLatest(db)).applied, ['0025_lean_screening_writes']);
      assert.equal((await db.selectFrom('audit_pending').select('id').execute()).length, PENDING.length);
    } finally {
      await handle.close();
      await env.cleanup();
    }
  });
});
