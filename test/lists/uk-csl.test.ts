import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hasUnzip, sharedStrings, sheetParts, sheetRows } from './xlsx-raw.js';
import iconv from 'iconv-lite';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { ukCslAdapter } from '../../src/lists/adapters/uk-csl.js';

const DATA = path.resolve(process.cwd(), '../shared/data/lists/uk_csl');
const absent = existsSync(path.join(DATA, 'ConList.xlsx')) ? false : 'shared UK data absent';

/** Distinct Group IDs of a ConList CSV, read independently of the adapter. */
function groupIdsOfCsv(text: string): Set<string> {
  const rows = parseCsvSync(text, { relax_column_count: true, from_line: 2, columns: true, bom: true }) as Record<
    string,
    string
  >[];
  return new Set(rows.map((r) => r['Group ID']).filter((g): g is string => !!g));
}

test('FCDO XML: one record per Designation', { skip: absent }, async () => {
  const dir = path.join(DATA, 'format_sample_fcdo_xml');
  const list = await ukCslAdapter.parse(dir);
  const raw = readFileSync(path.join(dir, 'UK_Sanctions_List_trimmed_5_designations.xml'), 'utf8');
  assert.equal(list.records.length, raw.match(/<Designation>/g)!.length);
  assert.equal(list.publishedAt, '2026-09-10');
  const akhund = list.records.find((r) => r.id === 'AFG0006')!;
  assert.equal(akhund.name, 'MOHAMMAD HASSAN AKHUND');
  assert.deepEqual(akhund.birthDates, [{ date: '1958-05-12' }, { date: '1945' }, { date: '1946' }]);
  assert.ok(akhund.aliases.some((a) => a.name === 'Mohammad Akhwand' && a.kind === 'variation'));
  assert.ok(akhund.aliases.some((a) => a.name === 'محمد حسن آخوند' && a.script === 'Arabic'));
  assert.ok(akhund.identifiers.some((i) => i.type === 'un_ref' && i.value === 'TAi.002'));
  assert.ok(akhund.identifiers.some((i) => i.type === 'passport' && i.value === 'P04581926'));
  assert.ok(akhund.identifiers.some((i) => i.type === 'national_id' && i.value === '2132370'));
  assert.deepEqual(akhund.nationalities, ['AF']);
  assert.deepEqual(akhund.titles, ['Mullah', 'Haji']);
  assert.equal(akhund.listingDate, '2001-01-25');
  const bnk = list.records.find((r) => r.id === 'BEL0107')!;
  assert.ok(bnk.aliases.some((a) => a.name === 'BNK' && a.quality === 'weak'));
  assert.ok(bnk.aliases.some((a) => a.name === 'BNK UK Limited' && a.quality === 'strong'));
  assert.ok(bnk.identifiers.some((i) => i.type === 'registration' && /06527449/.test(i.value)));
  const ship = list.records.find((r) => r.id === 'DPR0075')!;
  assert.equal(ship.entityType, 'vessel');
  assert.ok(ship.identifiers.some((i) => i.type === 'imo' && i.value === '9562233'));
});

test(
  'ConList XLSX: rows grouped by Group ID',
  { skip: absent || (hasUnzip() ? false : 'unzip not installed') },
  async () => {
    const file = path.join(DATA, 'ConList.xlsx');
    const strings = sharedStrings(file);
    const rows = sheetRows(file, sheetParts(file).find((s) => s.name === 'Data')!.part, strings);
    const header = rows.get(2)!;
    const col = [...header].find(([, v]) => v === 'Group ID')![0];
    const ids = new Set<string>();
    for (const [n, cells] of rows) if (n > 2 && cells.get(col)) ids.add(cells.get(col)!);
    const list = await ukCslAdapter.parse(DATA);
    assert.equal(list.format, 'OFSI ConList XLSX');
    assert.equal(list.records.length, ids.size);
    assert.equal(list.publishedAt, '2025-04-14');
    const haq = list.records.find((r) => r.id === '15672')!;
    assert.equal(haq.name, 'Mian Abdul HAQ');
    assert.ok(haq.aliases.some((a) => a.name === 'Mian MITHOO' && a.kind === 'variation'));
    assert.ok(haq.identifiers.some((i) => i.type === 'uk_ref' && i.value === 'GHR0086'));
    assert.equal(haq.gender, 'male');
    assert.deepEqual(haq.programs, ['Global Human Rights']);
    assert.equal(haq.listingDate, '2022-12-09');
    assert.ok(list.records.some((r) => r.aliases.some((a) => a.script === 'Cyrillic')));
    assert.ok(list.records.some((r) => r.aliases.some((a) => a.quality === 'weak')));
  },
);

test('ConList CSV, older 29-column Windows-1252 layout', { skip: absent }, async () => {
  const dir = path.join(DATA, '2020-04-27_conlist_csv');
  const text = iconv.decode(readFileSync(path.join(dir, 'ConList.csv')), 'win1252');
  const list = await ukCslAdapter.parse(dir);
  assert.equal(list.records.length, groupIdsOfCsv(text).size);
  assert.equal(list.publishedAt, '2020-04-27');
  assert.match(list.format, /29-column Windows-1252/);
  const qahtani = list.records.find((r) => r.id === '13349')!;
  assert.ok(qahtani.birthDates.some((d) => d.date === '1980'));
  assert.deepEqual(qahtani.nationalities, ['SA', 'QA']);
  assert.ok(qahtani.identifiers.some((i) => i.type === 'passport' && i.value === '592667'));
  assert.ok(qahtani.identifiers.some((i) => i.type === 'un_ref' && i.value === 'QDe.004'));
  // Windows-1252 0x92 must come out as ’, not as a replacement character.
  assert.ok(list.records.some((r) => (r.remarks ?? '').includes('’2nd Army Corps’')));
  assert.ok(!list.records.some((r) => (r.remarks ?? '').includes('\uFFFD')));
});

test('ConList CSV, 36-column layout (InvBan.csv)', { skip: absent }, async () => {
  const dir = path.join(DATA, 'other_ofsi_lists');
  const list = await ukCslAdapter.parse(dir);
  assert.equal(list.records.length, groupIdsOfCsv(readFileSync(path.join(dir, 'InvBan.csv'), 'utf8')).size);
  const sber = list.records.find((r) => r.name.startsWith('PJSC SBERBANK'))!;
  assert.ok(sber.aliases.some((a) => a.name === 'ПАО Сбербанк' && a.script === 'Cyrillic'));
  assert.ok(sber.identifiers.some((i) => i.type === 'uk_ref' && i.value === 'RUS0256'));
});

test('FCDO XML is preferred over ConList; broken input is refused', { skip: absent }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'uk-csl-'));
  try {
    copyFileSync(path.join(DATA, 'other_ofsi_lists/InvBan.csv'), path.join(dir, 'ConList.csv'));
    copyFileSync(
      path.join(DATA, 'format_sample_fcdo_xml/UK_Sanctions_List_trimmed_5_designations.xml'),
      path.join(dir, 'UK-Sanctions-List.xml'),
    );
    const list = await ukCslAdapter.parse(dir);
    assert.equal(list.format, 'FCDO UK Sanctions List XML');
    assert.ok(list.warnings.some((w) => w.includes('ConList.csv')));
    writeFileSync(path.join(dir, 'UK-Sanctions-List.xml'), '<Designations><Designation><UniqueID>X</UniqueID>');
    await assert.rejects(ukCslAdapter.parse(dir), /not well-formed/);
    rmSync(path.join(dir, 'UK-Sanctions-List.xml'));
    rmSync(path.join(dir, 'ConList.csv'));
    writeFileSync(path.join(dir, 'ConList.xlsx'), 'PK\u0003\u0004 not really a zip');
    await assert.rejects(ukCslAdapter.parse(dir), /not a readable XLSX/);
  } finally {
    rmSync(dir, { recursive: true });
  }
});
