import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chSecoAdapter } from '../../src/lists/adapters/ch-seco.js';

const FIXTURE = path.resolve(process.cwd(), 'test/fixtures/lists/ch_seco/whole-list');
const SAMPLE = path.resolve(process.cwd(), '../shared/data/lists/ch_seco/format_sample');

test('whole list: listed targets only, places resolved, names built from parts', async () => {
  const raw = readFileSync(path.join(FIXTURE, 'consolidated-list.xml'), 'utf8');
  const targets = [...raw.matchAll(/<target ssid="(\d+)">([\s\S]*?)<\/target>/g)];
  const delisted = targets.filter((t) => /<modification modification-type="de-listed"/.exec(t[2]!)).length;
  const list = await chSecoAdapter.parse(FIXTURE);
  assert.equal(list.records.length, targets.length - delisted);
  assert.ok(!list.records.some((r) => r.name === 'Delisted Person'));
  assert.equal(list.publishedAt, '2024-03-01');
  assert.match(list.format, /whole list/);

  const luka = list.records.find((r) => r.id === '5142')!;
  assert.equal(luka.name, 'Lukashenka Aliaksandr Ryhoravich');
  assert.equal(luka.gender, 'male');
  assert.deepEqual(luka.birthDates, [{ date: '1954-08-30' }]);
  assert.deepEqual(luka.nationalities, ['BY']);
  assert.deepEqual(luka.birthPlaces, ['Kopys, Vitebsk Oblast, Belarus']);
  assert.deepEqual(luka.addresses, [
    { text: 'Karl Marx Street 38, 220016, Minsk', city: 'Minsk', country: 'BY', countryName: 'Belarus' },
  ]);
  assert.ok(luka.aliases.some((a) => a.name === 'Лукашенко Aliaksandr Ryhoravich' && a.script === 'Cyrillic'));
  assert.ok(luka.aliases.some((a) => a.name === 'Batka' && a.quality === 'weak'));
  assert.ok(luka.aliases.some((a) => a.name === 'Alexander Lukashenko' && a.kind === 'fka'));
  assert.ok(luka.identifiers.some((i) => i.type === 'passport' && i.value === 'SP0003351' && i.country === 'BY'));
  assert.deepEqual(luka.programs, ['Belarus']);
  assert.equal(luka.listingDate, '2020-11-06');

  const vessel = list.records.find((r) => r.id === '34461')!;
  assert.equal(vessel.entityType, 'vessel');
  assert.ok(vessel.identifiers.some((i) => i.type === 'imo' && i.value === '8405270'));
  assert.ok(vessel.identifiers.some((i) => i.type === 'un_ref' && i.value === 'KPe.001'));
  assert.deepEqual(vessel.programs, ['North Korea']);

  const kim = list.records.find((r) => r.id === '61000')!;
  assert.equal(kim.name, 'Kim Su Il');
  assert.deepEqual(kim.titles, ['General']);
  assert.deepEqual(kim.birthDates, [{ date: '1973' }, { date: '1974-09' }]);
});

test(
  'the published test-content amendment sample parses and is flagged as not a full list',
  { skip: existsSync(SAMPLE) ? false : 'shared SECO sample absent' },
  async () => {
    const raw = readFileSync(path.join(SAMPLE, 'seco_test_amendment_2024-01-17.xml'), 'utf8');
    const list = await chSecoAdapter.parse(SAMPLE);
    assert.equal(list.records.length, raw.match(/<target /g)!.length);
    assert.ok(list.warnings.some((w) => /amendment/.test(w) && /not the whole list/.test(w)));
    const b = list.records.find((r) => r.name === 'Test B')!;
    assert.equal(b.gender, 'female');
    assert.deepEqual(b.nationalities, ['GB']);
    assert.deepEqual(b.birthDates, [{ date: '2025-12-31' }]);
    assert.deepEqual(b.programs, ['PPDM']);
  },
);

test('garbage is refused', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ch-seco-'));
  try {
    writeFileSync(
      path.join(dir, 'consolidated-list.xml'),
      '<swiss-sanctions-list list-type="whole-list"><target ssid="1">',
    );
    await assert.rejects(chSecoAdapter.parse(dir), /not well-formed/);
    writeFileSync(path.join(dir, 'consolidated-list.xml'), '<sdnList/>');
    await assert.rejects(chSecoAdapter.parse(dir), /not a <swiss-sanctions-list>/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
