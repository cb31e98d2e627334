import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DatabaseHandle, ensureSchema, openDatabase } from '../../src/infra/database.js';
import { SHARED_READING_MS, type TableWatch, watchTables } from '../../src/infra/table-watch.js';
import { ENGINES, type TestEnv, migratedDatabase, testEnv } from '../helpers/harness.js';

const USER = { id: 'usr_1', email: 'one@example.test', created_at: '2026-01-01T00:00:00.000Z' };

describe('table watch (sqlite)', () => {
  let env: TestEnv;
  let handle: DatabaseHandle;
  /** Another connection to the same file, as the admin command line would have. */
  let other: DatabaseHandle;
  let watch: TableWatch;

  before(async () => {
    ({ env, handle } = await migratedDatabase('sqlite'));
    other = openDatabase(env.config.database);
    watch = watchTables(handle.db, ['users', 'memberships'])!;
    assert.ok(watch);
  });
  after(async () => {
    await other?.close();
    await handle?.close();
    await env?.cleanup();
  });

  it('keeps its version while nothing is written', async () => {
    const first = watch.version();
    await handle.db.selectFrom('users').selectAll().execute();
    await other.db.selectFrom('users').selectAll().execute();
    assert.equal(watch.version(), first);
  });

  it("changes on this connection's writes to a watched table, not on its writes to other tables", async () => {
    let seen = watch.version();
    await handle.db.insertInto('users').values(USER).execute();
    assert.notEqual(watch.version(), seen, 'insert');
    seen = watch.version();
    await handle.db.updateTable('users').set({ email: 'uno@example.test' }).where('id', '=', USER.id).execute();
    assert.notEqual(watch.version(), seen, 'update');
    seen = watch.version();
    await handle.db.insertInto('rate_limits').values({ bucket: 'b', window_start: 1, count: 1 }).execute();
    assert.equal(watch.version(), seen, 'a table not watched');
    await handle.db.deleteFrom('users').where('id', '=', USER.id).execute();
    assert.notEqual(watch.version(), seen, 'delete');
  });

  it("changes on another connection's commit: at once for a fresh reading", async () => {
    const seen = watch.version();
    await other.db.insertInto('users').values(USER).execute();
    const next = watch.version({ fresh: true });
    assert.notEqual(next, seen);
    assert.equal(watch.version({ fresh: true }), next, 'and then stays');
  });

  it("changes on another connection's commit: within the shared reading's time for the others", async () => {
    // A second watch of the connection shares its readings of the pragma with the first.
    const second = watchTables(handle.db, ['users'])!;
    const seen = { first: watch.version({ fresh: true }), second: second.version() };
    await other.db.deleteFrom('users').where('id', '=', USER.id).execute();
    await new Promise((resolve) => setTimeout(resolve, SHARED_READING_MS + 1));
    const next = second.version();
    assert.notEqual(next, seen.second);
    assert.notEqual(watch.version(), seen.first, 'the first watch, from the reading the second took');
    assert.equal(second.version(), next, 'and then stays');
  });

  it('says nothing while the connection is inside a transaction', async () => {
    await handle.db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').selectAll().execute();
      assert.equal(watch.version(), undefined);
    });
    assert.notEqual(watch.version(), undefined);
  });

  it('made while another task holds a transaction that rolls back, it still sees the writes after it', async () => {
    let late: TableWatch | undefined;
    await assert.rejects(
      handle.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('users')
          .values({ ...USER, id: 'usr_2', email: 'two@example.test' })
          .execute();
        late = watchTables(handle.db, ['users']);
        assert.equal(late?.version(), undefined);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const seen = late!.version();
    assert.notEqual(seen, undefined);
    await handle.db
      .insertInto('users')
      .values({ ...USER, id: 'usr_3', email: 'three@example.test' })
      .execute();
    assert.notEqual(late!.version(), seen);
  });
});

for (const { engine, skip } of ENGINES.filter((e) => e.engine === 'postgres')) {
  describe(`table watch (${engine})`, { skip }, () => {
    it('is not available: other nodes write without telling this one', async () => {
      const env = testEnv(engine);
      await ensureSchema(env.config.database);
      const handle = openDatabase(env.config.database);
      try {
        assert.equal(watchTables(handle.db, ['users']), undefined);
      } finally {
        await handle.close();
        await env.cleanup();
      }
    });
  });
}
