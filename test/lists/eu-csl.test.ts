import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { euCslAdapter } from '../../src/lists/adapters/eu-csl.js';

const DATA = path.resolve(process.cwd(), '../shared/data/lists/eu_csl');
const REAL = path.join(DATA, 'fsf_full_1_1_2022-03-18_first_1044_entities.xml');
const absent = existsSync(REAL) ? false : 'shared EU FSF data absent';

test('FSF XML 1.1: one record per sanctionEntity, with names, dates, ids and programs', { skip: absent }, async () => {
  const list = await euCslAdapter.parse(DATA);
  const raw = readFileSync(REAL, 'utf8');
  // An entity listed under two regimes appears twice with one logicalId; it is one record.
  const logicalIds = new Set([...raw.matchAll(/<sanctionEntity [^>]*logicalId="(\d+)"/g)].map((m) => m[1]));
  assert.equal(list.records.length, logicalIds.size);
  assert.equal(list.publishedAt, /generationDate="(\d{4}-\d{2}-\d{2})/.exec(raw)![1]);
  assert.equal(new Set(list.records.map((r) => r.id)).size, list.records.length);

  const saddam = list.records.find((r) => r.id === '13')!;
  assert.equal(saddam.name, 'Saddam Hussein Al-Tikriti');
  assert.equal(saddam.entityType, 'person');
  assert.equal(saddam.gender, 'male');
  assert.deepEqual(saddam.birthDates, [{ date: '1937-04-28' }]);
  assert.deepEqual(saddam.citizenships, ['IQ']);
  assert.ok(saddam.aliases.some((a) => a.name === 'Abu Ali' && a.quality === 'strong' && a.kind === 'aka'));
  assert.deepEqual(saddam.programs, ['IRQ']);
  assert.ok(saddam.identifiers.some((i) => i.type === 'eu_ref' && i.value === 'EU.27.28'));

  const aisha = list.records.find((r) => r.id === '6092')!;
  assert.equal(aisha.listingDate, '2011-02-26');
  assert.ok(aisha.identifiers.some((i) => i.type === 'un_ref' && i.value === 'LYi.009'));
  assert.ok(aisha.identifiers.some((i) => i.type === 'passport' && i.value === '215215' && i.country === 'LY'));
  assert.ok(aisha.identifiers.some((i) => i.type === 'passport' && i.value === '03824970' && i.country === 'OM'));
  assert.ok(aisha.birthDates.some((d) => d.date === '1978-01-01'));
  assert.deepEqual(aisha.programs, ['LBY']);

  // yearRangeFrom 1958 .. yearRangeTo 1964 expands to approximate years; the exact date stays exact.
  const haqqani = list.records.find((r) => r.id === '5925')!;
  for (let y = 1958; y <= 1964; y++) assert.ok(haqqani.birthDates.some((d) => d.date === String(y) && d.approximate));
  assert.ok(haqqani.birthDates.some((d) => d.date === '1966-01-01' && !d.approximate));

  const twice = list.records.find((r) => r.id === '717')!;
  assert.deepEqual([...twice.programs].sort(), ['AFG', 'TAQA'], 'both listings of logicalId 717 are merged');
});

test('the truncated FSF export is refused as not well-formed', { skip: absent }, async () => {
  await assert.rejects(euCslAdapter.parse(path.join(DATA, 'truncated_2022-03-18_fsf_xml_1_1')), /not well-formed/);
});

test('garbage and empty directories are refused', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'eu-csl-'));
  try {
    await assert.rejects(euCslAdapter.parse(dir), /no FSF XML or CSV/);
    writeFileSync(path.join(dir, 'xmlFullSanctionsList_1_1.xml'), '<html><body>Service unavailable</body>');
    await assert.rejects(euCslAdapter.parse(dir), /not well-formed|not an FSF/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('FSF CSV 1.1: detail rows grouped by Entity_LogicalId', async () => {
  const dir = path.resolve(process.cwd(), 'test/fixtures/lists/eu_csl/csv');
  const list = await euCslAdapter.parse(dir);
  const raw = readFileSync(path.join(dir, 'csvFullSanctionsList_1_1.csv'), 'utf8');
  const ids = new Set(
    raw
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(';')[1]),
  );
  assert.equal(list.records.length, ids.size);
  assert.equal(list.format, 'EU FSF CSV 1.1');
  assert.equal(list.publishedAt, '2022-03-18');
  const aisha = list.records.find((r) => r.id === '6092')!;
  assert.equal(aisha.name, 'AISHA MUAMMAR MUHAMMED ABU MINYAR QADHAFI');
  assert.equal(aisha.gender, 'female');
  assert.ok(aisha.aliases.some((a) => a.name === 'عائشة القذافي' && a.script === 'Arabic'));
  assert.deepEqual(aisha.birthDates, [{ date: '1978-01-01' }]);
  assert.deepEqual(aisha.citizenships, ['LY']);
  assert.ok(aisha.identifiers.some((i) => i.type === 'un_ref' && i.value === 'LYi.009'));
  assert.ok(aisha.identifiers.some((i) => i.type === 'passport' && i.value === '215215'));
  const haqqani = list.records.find((r) => r.id === '5925')!;
  assert.equal(haqqani.birthDates.length, 7, 'the range row repeated on two name rows counts once');
  const shipping = list.records.find((r) => r.id === '13402')!;
  assert.equal(shipping.entityType, 'organization');
  assert.equal(shipping.name, 'Example Shipping Lines; Tehran');
  assert.ok(shipping.identifiers.some((i) => i.type === 'imo' && i.value === '9270126'));
  assert.equal(shipping.addresses[0]?.country, 'IR');
});
