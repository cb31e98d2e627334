import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonShelf, ShelfFilling, shelfItems } from '../../src/infra/json-shelf.js';
import type { ListRecord } from '../../src/lists/index.js';
import { organization, person, sampleRecords } from '../helpers/harness.js';

const records = [
  ...sampleRecords().us_ofac,
  person('un_csl', '7', 'ŞAHİN, Müşfik Ğül'),
  organization('un_csl', '8', 'Торговый дом «Заря» 貿易'),
];
const shelve = (items: readonly ListRecord[]) => JsonShelf.of(items, (record) => record.id);

test('a shelf gives back every item as it was put on it, in order, in memory other threads can share', () => {
  const shelf = shelve(records);
  assert.equal(shelf.size, records.length);
  assert.deepEqual(shelf.all(), records);
  assert.deepEqual(shelf.at(records.length - 1), records.at(-1));
  assert.ok(shelf.memory.bytes instanceof SharedArrayBuffer);
  assert.ok(shelf.memory.ends.buffer instanceof SharedArrayBuffer);
  // Multi-byte text is counted in bytes: the last item ends exactly where the memory does.
  assert.equal(shelf.memory.ends.at(-1), shelf.memory.bytes.byteLength);
  // Each call parses anew: a caller that changes its copy changes nothing on the shelf.
  const first = shelf.at(0);
  first.aliases.length = 0;
  first.name = 'changed';
  assert.deepEqual(shelf.at(0), records[0]);
});

test("a thread given only the shelf's memory reads the same items", () => {
  const shelf = shelve(records);
  const memory = structuredClone(shelf.memory);
  assert.deepEqual(shelfItems(memory), records);
});

test('an item is found by its key; a key not on the shelf finds nothing', () => {
  const shelf = shelve(records);
  assert.deepEqual(shelf.find('8'), records.at(-1));
  assert.deepEqual(shelf.find(records[0]!.id), records[0]);
  assert.equal(shelf.find('no such id'), undefined);
});

test('a filling grows past its first buffer and keeps every byte', () => {
  const filling = new ShelfFilling<{ v: string }>();
  const big = 'x'.repeat(700_000);
  const json = [`{"v":"${big}"}`, `{"v":"é${big}"}`, `{"v":"${big}"}`];
  json.forEach((text, i) => filling.add('abc'[i]!, text));
  const shelf = filling.done();
  assert.deepEqual(
    shelf.all().map((item) => item.v.length),
    [700_000, 700_001, 700_000],
  );
  assert.equal(shelf.find('b')!.v.slice(0, 2), 'éx');
});
