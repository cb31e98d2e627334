import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { caGacAdapter } from '../../src/lists/adapters/ca-gac.js';

const DATA = path.resolve(process.cwd(), '../shared/data/lists/ca_gac');
const absent = existsSync(path.join(DATA, 'sema-lmes.xml')) ? false : 'shared GAC data absent';

test('SEMA XML, current schema', { skip: absent }, async () => {
  const raw = readFileSync(path.join(DATA, 'sema-lmes.xml'), 'utf8');
  const list = await caGacAdapter.parse(DATA);
  assert.equal(list.records.length, raw.match(/<record>/g)!.length);
  assert.equal(new Set(list.records.map((r) => r.id)).size, list.records.length);
  const listings = [...raw.matchAll(/<DateOfListing>(\d{4}-\d{2}-\d{2})/g)].map((m) => m[1]!).sort();
  assert.equal(list.publishedAt, listings[listings.length - 1]);

  const luka = list.records.find((r) => r.name === 'Aleksandr Grigoryevich Lukashenko')!;
  assert.equal(luka.entityType, 'person');
  assert.deepEqual(luka.birthDates, [{ date: '1954-08-30' }]);
  assert.deepEqual(luka.programs, ['Belarus / Bélarus'], 'Country is the regime, not a nationality');
  assert.deepEqual(luka.nationalities, []);
  assert.equal(luka.listingDate, '2020-09-28');

  const mash = list.records.find((r) => r.name === 'Ruslan Khikmetavich MASHADZIYEU')!;
  assert.ok(mash.aliases.some((a) => a.name === 'Руслан Хикметович МАШАДИЕВ' && a.script === 'Cyrillic'));
  assert.ok(mash.aliases.some((a) => a.name === 'Ruslan Chikmetovič MAŠADZEV' && !a.script));

  const ship = list.records.find((r) => r.name === 'Balitiyskiy III')!;
  assert.equal(ship.entityType, 'vessel');
  assert.ok(ship.identifiers.some((i) => i.type === 'imo' && i.value === '7612448'));
  assert.deepEqual(ship.birthDates, [], 'a build year is not a birth date');
  assert.equal(list.records.filter((r) => r.entityType === 'vessel').length, raw.match(/<ShipIMONumber>/g)!.length);
});

test('SEMA XML, 2020 schema (Entity, Title, DateOfBirth)', { skip: absent }, async () => {
  const dir = path.join(DATA, '2020-04_old_schema');
  const raw = readFileSync(path.join(dir, 'sema-lmes.xml'), 'utf8');
  const list = await caGacAdapter.parse(dir);
  assert.equal(list.records.length, raw.match(/<record>/g)!.length);
  assert.equal(list.records.filter((r) => r.entityType === 'organization').length, raw.match(/<Entity>/g)!.length);
  const bagan = list.records.find((r) => r.name === 'Air Bagan')!;
  assert.deepEqual(
    bagan.aliases.map((a) => a.name),
    ['Air Bagan Holdings Pte. Ltd.', 'Air Bagan Limited'],
  );
  assert.ok(list.records.filter((r) => r.birthDates.length).length > 150);
  assert.ok(list.warnings.some((w) => /DateOfListing/.test(w)));
});

test('a truncated SEMA file is refused', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ca-gac-'));
  try {
    writeFileSync(
      path.join(dir, 'sema-lmes.xml'),
      '<?xml version="1.0"?><data-set><record><Country>Russia</Country><LastName>X',
    );
    await assert.rejects(caGacAdapter.parse(dir), /not well-formed/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
