import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { shelfItems } from '../../src/infra/json-shelf.js';
import { ListRuntime, type ListRecord } from '../../src/lists/index.js';
import { sampleRecords, type TestApp, startTestApp } from '../helpers/harness.js';
import { loadSampleLists } from '../helpers/http-assert.js';

/** The records of the versions in force, parsed from the node's shelves (lists/list-runtime.ts). */
describe('list runtime: the records of a snapshot', () => {
  let t: TestApp;
  const listed = Object.values(sampleRecords()).flat();
  const byId = (records: { source: string; id: string }[]) =>
    records.map((r) => `${r.source}:${r.id}`).sort((a, b) => (a < b ? -1 : 1));

  before(async () => {
    t = await startTestApp('sqlite', { env: { MATCH_THREADS: '0' } });
    await loadSampleLists(t.ctx);
  });
  after(async () => {
    await t?.close();
  });

  it('an index built on this thread gets the records, and the snapshot keeps those same objects', async () => {
    let given: unknown[] = [];
    const runtime = new ListRuntime<string>({
      db: t.ctx.database.db,
      clock: t.ctx.clock,
      buildIndex: async (_shelves, records) => {
        given = await records();
        return 'inline';
      },
    });
    assert.equal(await runtime.refresh(), true);
    const snapshot = runtime.current()!;
    const records = await snapshot.records();
    assert.deepEqual(byId(records), byId(listed));
    assert.equal(records, given, 'the objects the index holds, not a second copy');
    assert.equal(await snapshot.records(), records);
  });

  it('an index built from the shelves leaves the records unparsed: each call parses them anew, as stored', async () => {
    let shelved = 0;
    const runtime = new ListRuntime<string>({
      db: t.ctx.database.db,
      clock: t.ctx.clock,
      buildIndex: (shelves) => {
        shelved = shelves.reduce((sum, shelf) => sum + shelf.size, 0);
        return 'threads';
      },
    });
    assert.equal(await runtime.refresh(), true);
    assert.equal(shelved, listed.length);
    const snapshot = runtime.current()!;
    const first = await snapshot.records();
    const second = await snapshot.records();
    assert.notEqual(first, second, 'not kept with the snapshot');
    assert.deepEqual(first, second);
    assert.deepEqual(byId(first), byId(listed));
    const karimov = listed.find((r) => r.source === 'us_ofac')!;
    assert.deepEqual(
      first.find((r) => r.source === karimov.source && r.id === karimov.id),
      snapshot.record(`${karimov.source}:${karimov.id}`),
    );
    // The shelves' memory, as another thread gets it (the validation thread): the same records, in order.
    assert.equal(snapshot.shelves.length, snapshot.versions.length);
    assert.deepEqual(
      snapshot.shelves.flatMap((memory) => shelfItems<ListRecord>(memory)),
      first,
    );
  });
});
