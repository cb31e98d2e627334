import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/infra/database.js';
import { prepareQuery, preparedFor } from '../../src/infra/prepared-query.js';
import { ENGINES, type TestEnv, migratedDatabase, organizationRow } from '../helpers/harness.js';

for (const { engine, skip } of ENGINES) {
  describe(`prepared queries (${engine})`, { skip }, () => {
    let env: TestEnv;
    let handle: DatabaseHandle;
    before(async () => {
      ({ env, handle } = await migratedDatabase(engine));
    });
    after(async () => {
      await handle?.close();
      await env?.cleanup();
    });

    const queries = preparedFor((db) => ({
      insert: prepareQuery(db, (db, p: { id: string; slug: string; tier: string }) =>
        db.insertInto('organizations').values({
          ...organizationRow('unused', 'unused'),
          id: p.id,
          slug: p.slug,
          name: 'Prepared',
          tier: p.tier,
        }),
      ),
      // A fixed value beside the parameters stays as it was built.
      byIdAndName: prepareQuery(db, (db, p: { id: string }) =>
        db.selectFrom('organizations').select(['id', 'tier']).where('id', '=', p.id).where('name', '=', 'Prepared'),
      ),
      // The same parameter used twice, in a `sql` template with `returning`.
      retier: prepareQuery(
        db,
        (_db, p: { id: string; tier: string }) =>
          sql<{
            tier: string;
          }>`update organizations set tier = ${p.tier}, name = 'Prepared' where id = ${p.id} or slug = ${p.id} returning tier`,
      ),
    }));

    it('runs with new parameters each time, and keeps the values fixed when it was built', async () => {
      const q = queries(handle.db);
      assert.equal(await q.insert.affectedRows({ id: 'org_a', slug: 'a', tier: 'starter' }), 1);
      assert.equal(await q.insert.affectedRows({ id: 'org_b', slug: 'b', tier: 'enterprise' }), 1);
      // Another organization whose name is not the fixed value.
      await handle.db.insertInto('organizations').values(organizationRow('org_c', 'starter')).execute();
      assert.deepEqual(await q.byIdAndName.first({ id: 'org_a' }), { id: 'org_a', tier: 'starter' });
      assert.deepEqual(await q.byIdAndName.first({ id: 'org_b' }), { id: 'org_b', tier: 'enterprise' });
      assert.equal(await q.byIdAndName.first({ id: 'org_c' }), undefined);
      assert.deepEqual((await q.retier.execute({ id: 'org_c', tier: 'professional' })).rows, [
        { tier: 'professional' },
      ]);
      assert.deepEqual(await q.byIdAndName.first({ id: 'org_c' }), { id: 'org_c', tier: 'professional' });
      assert.equal(queries(handle.db), q, 'made once per database');
    });

    it('runs inside a transaction of the database it was prepared on', async () => {
      const q = queries(handle.db);
      await assert.rejects(
        handle.db.transaction().execute(async (trx) => {
          await q.insert.execute({ id: 'org_rolled_back', slug: 'rolled-back', tier: 'starter' }, trx);
          assert.ok(await q.byIdAndName.first({ id: 'org_rolled_back' }, trx), 'visible inside the transaction');
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.equal(await q.byIdAndName.first({ id: 'org_rolled_back' }), undefined);
      await handle.db.transaction().execute(async (trx) => {
        await q.insert.execute({ id: 'org_committed', slug: 'committed', tier: 'starter' }, trx);
      });
      assert.deepEqual(await q.byIdAndName.first({ id: 'org_committed' }), { id: 'org_committed', tier: 'starter' });
      await handle.db.transaction().execute(async (trx) => {
        assert.throws(() => queries(trx), /made on the database/);
      });
    });

    it('refuses a parameter where no value goes, and one that is read but not bound', () => {
      assert.throws(
        () =>
          prepareQuery(handle.db, (db, p: { column: string }) =>
            db.selectFrom('organizations').select(sql.ref(p.column).as('x')),
          ),
        /where no value goes/,
      );
      assert.throws(
        () =>
          prepareQuery(handle.db, (db, p: { id: string | null }) =>
            p.id === null
              ? db.selectFrom('organizations').select('id')
              : db.selectFrom('organizations').select('id').where('slug', '=', 'x'),
          ),
        /"id" of a prepared query is not bound/,
      );
    });
  });
}
