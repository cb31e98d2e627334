import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { auDfatAdapter } from '../../src/lists/adapters/au-dfat.js';
import { hasUnzip, sharedStrings, sheetParts, sheetRows } from './xlsx-raw.js';

const DATA = path.resolve(process.cwd(), '../shared/data/lists/au_dfat');
const FILE = path.join(DATA, 'regulation8_consolidated.xlsx');
const skip = !existsSync(FILE) ? 'shared DFAT data absent' : hasUnzip() ? false : 'unzip not installed';

test('DFAT XLSX: one record per numeric reference, aliases folded in', { skip }, async () => {
  const rows = sheetRows(FILE, sheetParts(FILE)[0]!.part, sharedStrings(FILE));
  const refs = new Set<string>();
  for (const [n, cells] of rows) {
    const m = /^\d+/.exec((cells.get('A') ?? '').trim());
    if (n > 1 && m && cells.get('B')) refs.add(m[0]);
  }
  const list = await auDfatAdapter.parse(DATA);
  assert.equal(list.records.length, refs.size);
  assert.equal(list.publishedAt, '2024-11-11');

  const akhund = list.records.find((r) => r.id === '2')!;
  assert.equal(akhund.name, 'MOHAMMAD HASSAN AKHUND');
  assert.equal(akhund.entityType, 'person');
  assert.ok(akhund.aliases.some((a) => a.name === 'محمد حسن أخوند' && a.script === 'Arabic'));
  // "a) Approximately 1955- 1958 b) Approximately 1945-1950"
  for (const y of [1955, 1956, 1957, 1958, 1945, 1950])
    assert.ok(akhund.birthDates.some((d) => d.date === String(y) && d.approximate));
  assert.deepEqual(akhund.citizenships, ['AF']);
  assert.deepEqual(akhund.programs, ['1988 (Taliban)']);
  assert.equal(akhund.listingDate, '2001-01-25');
  assert.deepEqual(akhund.titles, ['Mullah', 'Haji']);

  const anwari = list.records.find((r) => r.id === '5')!;
  assert.deepEqual(
    anwari.aliases.map((a) => a.name),
    ['Mohammad Taher Anwari', 'Muhammad Tahir Anwari', 'Haji Mudir', ...anwari.aliases.slice(3).map((a) => a.name)],
  );
  assert.ok(anwari.birthDates.every((d) => d.date === '1961' && d.approximate));

  const russians = list.records.filter((r) => r.citizenships.includes('RU'));
  assert.ok(russians.length > 500, 'the "Russian" nationality adjective resolves to RU');
  assert.ok(list.records.some((r) => r.entityType === 'organization'));
});

test('a damaged workbook is refused', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'au-dfat-'));
  try {
    writeFileSync(path.join(dir, 'regulation8_consolidated.xlsx'), '<html>Access denied</html>');
    await assert.rejects(auDfatAdapter.parse(dir), /not a readable XLSX/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
