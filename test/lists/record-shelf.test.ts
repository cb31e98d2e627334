import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecordShelf, ShelfFilling } from '../../src/lists/record-shelf.js';
import { organization, person, sampleRecords } from '../helpers/harness.js';

const records = [
  ...sampleRecords().us_ofac,
  person('un_csl', '7', 'ŞAHİN, Müşfik Ğül'),
  organization('un_csl', '8', 'Торговый дом «Заря» 貿易'),
];

test('a shelf gives back every record as it was put on it, in order, in memory other threads can share', () => {
  const shelf = RecordShelf.of(records);
  assert.equal(shelf.size, records.length);
  assert.deepEqual(shelf.all(), records);
  assert.deepEqual(shelf.at(records.length - 1), records.at(-1));
  assert.ok(shelf.memory.bytes instanceof SharedArrayBuffer);
  assert.ok(shelf.memory.ends.buffer instanceof SharedArrayBuffer);
  // Multi-byte text is counted in bytes: the last record ends exactly where the memory does.
  assert.equal(shelf.memory.ends.at(-1), shelf.memory.bytes.byteLength);
  // Each call parses anew: a caller that changes its copy changes nothing on the shelf.
  const first = shelf.at(0);
  first.aliases.length = 0;
  first.name = 'changed';
  assert.deepEqual(shelf.at(0), records[0]);
});

test('a record is found by its id; an id not on the shelf finds nothing', () => {
  const shelf = RecordShelf.of(records);
  assert.deepEqual(shelf.find('8'), records.at(-1));
  assert.deepEqual(shelf.find(records[0]!.id), records[0]);
  assert.equal(shelf.find('no such id'), undefined);
});

test('a filling grows past its first buffer and keeps every byte', () => {
  const filling = new ShelfFilling();
  const big = 'x'.repeat(700_000);
  const json = [`{"id":"a","v":"${big}"}`, `{"id":"b","v":"é${big}"}`, `{"id":"c","v":"${big}"}`];
  json.forEach((text, i) => filling.add('abc'[i]!, text));
  const shelf = filling.done();
  assert.deepEqual(
    shelf.all().map((r) => (r as unknown as { v: string }).v.length),
    [700_000, 700_001, 700_000],
  );
  assert.equal((shelf.find('b') as unknown as { v: string }).v.slice(0, 2), 'éx');
});
