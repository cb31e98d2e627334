import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { jpMofAdapter } from '../../src/lists/adapters/jp-mof.js';
import { hasUnzip, sharedStrings, sheetParts, sheetRows } from './xlsx-raw.js';

const DATA = path.resolve(process.cwd(), '../shared/data/lists/jp_mof');
const FILE = path.join(DATA, 'shisantouketsu20260305.xlsx');
const skip = !existsSync(FILE) ? 'shared MOF data absent' : hasUnzip() ? false : 'unzip not installed';

/** Independent count: per listing sheet, distinct 告示番号 on rows under the 告示日付 header, deleted ones excluded. */
function countListings(): number {
  const strings = sharedStrings(FILE);
  let total = 0;
  for (const { name, part } of sheetParts(FILE)) {
    if (!/^\d+\./.test(name) || name.includes('【解除】')) continue;
    const rows = [...sheetRows(FILE, part, strings)].sort((a, b) => a[0] - b[0]);
    const headerAt = rows.findIndex(([, cells]) => (cells.get('A') ?? '').replace(/\s/g, '') === '告示日付');
    if (headerAt < 0) continue;
    const numbers = new Set<string>();
    for (const [, cells] of rows.slice(headerAt + 1)) {
      const date = cells.get('A') ?? '';
      const number = (cells.get('B') ?? '').replace(/\s/g, '');
      const named = (cells.get('C') ?? '').trim() || (cells.get('D') ?? '').trim();
      if (number && date && !date.includes('削除') && named) numbers.add(number);
    }
    total += numbers.size;
  }
  return total;
}

test(
  'MOF workbook: one record per sheet and 告示番号, deleted entries and revoked sheets skipped',
  { skip },
  async () => {
    const list = await jpMofAdapter.parse(DATA);
    assert.equal(list.records.length, countListings());
    assert.equal(list.publishedAt, '2026-03-05');
    assert.equal(new Set(list.records.map((r) => r.id)).size, list.records.length);
    assert.ok(!list.records.some((r) => r.programs.some((p) => p.includes('【解除】'))));

    const putin = list.records.find((r) => r.name === 'Vladimir Putin')!;
    assert.equal(putin.id, '29-1');
    assert.equal(putin.entityType, 'person');
    assert.deepEqual(putin.birthDates, [{ date: '1952-10-07' }]);
    assert.ok(putin.aliases.some((a) => a.name === 'ウラジーミル・プーチン' && a.script === 'Katakana'));
    assert.equal(putin.listingDate, '2022-03-01');

    const saddam = list.records.find((r) => r.id === '5-1')!;
    assert.equal(saddam.name, 'Saddam Hussein Al-Tikriti');
    assert.deepEqual(saddam.birthDates, [{ date: '1937-04-28' }], 'an Excel serial date');
    assert.ok(saddam.aliases.some((a) => a.name === 'Abu Ali'));
    assert.ok(saddam.aliases.some((a) => a.name === 'アブ・アリ' && a.script === 'Katakana'));
    assert.deepEqual(saddam.nationalities, ['IQ']);

    const akhund = list.records.find((r) => r.id === '2-2')!;
    assert.equal(akhund.name, 'MOHAMMAD HASSAN AKHUND');
    assert.ok(
      akhund.birthDates.some((d) => d.date === '1957' && d.approximate),
      '1955年から1958年の間頃 expands to years',
    );
    assert.deepEqual(akhund.nationalities, ['AF']);
    assert.ok(akhund.titles?.includes('Mullah'));

    // 21-1 (Al-Shabaab) spans merged rows; its (a)…(o) aliases are split.
    const shabaab = list.records.find((r) => r.id === '21-1')!;
    assert.equal(shabaab.entityType, 'organization');
    assert.ok(shabaab.aliases.some((a) => a.name === 'ザ・ユース'));
    assert.ok(!shabaab.aliases.some((a) => /^[a-z]\)/.test(a.name)), 'enumeration markers are not part of names');

    // An enumeration running over several lines, each item glossed in Latin letters, and nicknames
    // in quotation brackets: ALI KONY's aliases are names, without markers, brackets or half glosses.
    const kony = list.records.find((r) => r.name === 'ALI KONY')!;
    for (const name of ['Ali Lalobo', 'アリ・モハンマド・ラボロ', 'Ali Mohammad Labolo', 'バシール', 'ワン・P'])
      assert.ok(
        kony.aliases.some((a) => a.name === name),
        name,
      );
    assert.ok(!kony.aliases.some((a) => /^\(?[a-z]\)|[「」(]/.test(a.name)), JSON.stringify(kony.aliases));
  },
);

test('the newest dated workbook is chosen; a broken one is refused', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'jp-mof-'));
  try {
    writeFileSync(path.join(dir, 'shisantouketsu20250101.xlsx'), 'old');
    writeFileSync(path.join(dir, 'shisantouketsu20260101.xlsx'), 'not a zip');
    await assert.rejects(jpMofAdapter.parse(dir), /shisantouketsu20260101\.xlsx: not a readable XLSX/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
