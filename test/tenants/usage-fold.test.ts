import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type DatabaseHandle, ensureSchema, openDatabase } from '../../src/infra/database.js';
import { migrateToLatest } from '../../src/infra/migrations.js';
import { foldUsage, usageInsert, usedThisMonth } from '../../src/tenants/index.js';
import { ENGINES, type TestEnv, organizationRow, testEnv } from '../helpers/harness.js';

const postgres = ENGINES.find((e) => e.engine === 'postgres')!;
const AT = new Date('2026-11-15T12:00:00.000Z');
const MONTH = '2026-11';

describe('usage appended by group commits, folded into the usage rows (postgres)', { skip: postgres.skip }, () => {
  let env: TestEnv;
  // Four connections of their own, as four nodes would fold at once.
  let nodes: DatabaseHandle[];

  before(async () => {
    env = testEnv('postgres');
    await ensureSchema(env.config.database);
    nodes = Array.from({ length: 4 }, () => openDatabase(env.config.database));
    await migrateToLatest(nodes[0]!.db);
  });

  after(async () => {
    for (const node of nodes) await node.close();
    await env.cleanup();
  });

  it('counts every appended row once, while nodes fold at the same time and others append', async () => {
    const db = nodes[0]!.db;
    for (const id of ['org_a', 'org_b'])
      await db
        .insertInto('organizations')
        .values(organizationRow(id, 'enterprise', AT))
        .execute();
    await db.insertInto('usage').values({ org_id: 'org_a', month: MONTH, count: 5 }).execute();
    let appended = 0;
    let appendedB = 0;
    const append = async (orgId: string, count: number) => {
      await usageInsert(db, [{ orgId, month: MONTH, count }]).execute();
      if (orgId === 'org_a') appended += count;
      else appendedB += count;
    };
    for (let i = 0; i < 50; i++) await append(i % 2 === 0 ? 'org_a' : 'org_b', 1 + (i % 3));
    const expectedA = 5 + appended;
    assert.equal(await usedThisMonth(db, 'org_a', AT), expectedA, 'counted before any fold');

    // Four folds at once, and more appended while they run.
    const folds = nodes.map((node) => foldUsage(node.db));
    const late = Promise.all(Array.from({ length: 20 }, () => append('org_a', 2)));
    await Promise.all([...folds, late]);
    await foldUsage(db);

    const total = 5 + appended;
    assert.equal(await usedThisMonth(db, 'org_a', AT), total);
    const row = await db.selectFrom('usage').select('count').where('org_id', '=', 'org_a').executeTakeFirstOrThrow();
    assert.equal(Number(row.count), total, 'the usage row holds every addition once');
    assert.equal((await db.selectFrom('usage_added').selectAll().execute()).length, 0, 'nothing left to fold');
    assert.equal(await usedThisMonth(db, 'org_b', AT), appendedB);
  });
});
