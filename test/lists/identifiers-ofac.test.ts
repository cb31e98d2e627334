/**
 * Every identifier OFAC's legacy SDN.CSV prints (remarks and the call sign column) reaches the
 * records, counted by kind against regular expressions over the raw file.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { usOfacAdapter } from '../../src/lists/adapters/us-ofac.js';
import type { ListRecord, ParsedList } from '../../src/lists/model.js';
import { assertSameKind, censusOf, countsByKind, RawCensus } from './census.js';

const DIR = path.resolve(process.cwd(), '../shared/data/lists/us_ofac');
const CSV = path.join(DIR, 'sdn.csv');
const skip = existsSync(CSV) ? false : `${CSV} absent`;

/** Remarks clauses as OFAC writes them: "; "-separated, "alt." repeating the label before. */
const END = String.raw`(?=\s\(|;|,\s|\.?$|\s(?:issued|expires))`;
const RAW: [Parameters<RawCensus['add']>[0], RegExp][] = [
  // IMO after its label (any number of digits: a wrong one is kept and marked), or seven bare digits.
  [
    'imo',
    /(?:Vessel Registration Identification\s+IMO\s+|\bIMO\s+|International Maritime Organization No\. \()(\d+)\b|Vessel Registration Identification (\d{7})(?:;|\.?$)/g,
  ],
  ['mmsi', /\bMMSI (\d+)/g],
  ['lei', /Legal Entity Number ([0-9A-Z]+)/g],
  ['bic', /SWIFT\/BIC ([0-9A-Z]+)/g],
  ['bank_code', /BIK \(RU\) (\d+)/g],
  ['call_sign', /Vessel Call Sign ([0-9A-Z]+)/g],
  ['aircraft_registration', new RegExp(String.raw`Aircraft Tail Number (\S+?)${END}`, 'g')],
  [
    'aircraft_serial',
    new RegExp(
      String.raw`(?:Aircraft Construction Number \(also called L/N or S/N or F/N\)|Aircraft Manufacturer's Serial Number \(MSN\)|Aircraft Serial Identification) (\S+?)${END}`,
      'g',
    ),
  ],
  ['aircraft_transponder', /Aircraft Mode S Transponder Code (\w+)/g],
  // A passport number starts with a letter or digit and holds a digit ("passport and national ID were" is prose).
  [
    'passport',
    new RegExp(
      String.raw`(?:^|; )(?:alt\. )?(?:Diplomatic |Stateless Person )?Passport (?:No\.:? )?([A-Z0-9][^;(,]*?\d[^;(,]*?)${END}`,
      'g',
    ),
  ],
];

describe('us_ofac identifiers in SDN.CSV', { skip }, () => {
  let parsed: ParsedList;
  const get = async () => (parsed ??= await usOfacAdapter.parse(DIR));
  const byId = async (id: string): Promise<ListRecord> => {
    const r = (await get()).records.find((x) => x.id === id);
    assert.ok(r, `record ${id}`);
    return r;
  };

  it('reads every IMO, MMSI, LEI, BIC, BIK, call sign, aircraft number, passport and wallet printed', async () => {
    const rows = parseCsvSync(readFileSync(CSV, 'latin1'), {
      relax_quotes: true,
      relax_column_count: true,
    }) as string[][];
    const raw = new RawCensus();
    for (const row of rows) {
      const [id, , , , , callSign] = row;
      const remarks = row[11] ?? '';
      if (!id || !/^\d+$/.test(id)) continue;
      if (callSign && callSign.trim() !== '-0-') raw.add('call_sign', id, callSign);
      for (const [kind, re] of RAW) for (const m of remarks.matchAll(re)) raw.add(kind, id, m[1] ?? m[2]!);
      for (const m of remarks.matchAll(/Digital Currency Address - (\w+) (\w+)/g))
        raw.add('crypto_wallet', id, m[2]!, m[1] === 'XBT' ? 'BTC' : m[1]);
    }
    const read = censusOf((await get()).records);
    for (const [kind] of RAW) assertSameKind(read, raw, kind);
    assertSameKind(read, raw, 'crypto_wallet');
  });

  it('counts every kind a screening can ask for, and marks the numbers that fail their check', async () => {
    const counts = countsByKind((await get()).records);
    for (const kind of ['imo', 'mmsi', 'lei', 'bic', 'passport', 'national_id', 'registration', 'tax_id'])
      assert.ok((counts[kind] ?? 0) > 50, `${kind}: ${counts[kind]}`);
    for (const kind of ['crypto_wallet', 'call_sign', 'aircraft_serial', 'aircraft_registration'])
      assert.ok((counts[kind] ?? 0) > 50, `${kind}: ${counts[kind]}`);
    const failing = (await get()).records.flatMap((r) => r.identifiers.filter((i) => i.valid === false));
    // OFAC prints Dutch RSINs (9 digits), and LEIs of 19 and 20 characters that fail MOD 97-10, as
    // "Legal Entity Number"; and HWASONG SHIPPING's company IMO number with six digits.
    assert.deepEqual(failing.map((i) => i.normalized).sort(), [
      '2180068XRFK54K3Z159',
      '253400VTMXV2UE7XNN67',
      '543400',
      '851683897',
      '852496369',
      '852496527',
      '852499097',
      '852777978',
      '856458879',
    ]);
  });

  it('reads named examples with kind, normalized value and check', async () => {
    const vtb = await byId('17013');
    const kinds = (r: ListRecord, kind: string) => r.identifiers.filter((i) => i.kind === kind);
    assert.deepEqual(
      kinds(vtb, 'lei').map((i) => [i.normalized, i.valid, i.country]),
      [['253400V1H6ART1UQ0N98', true, 'RU']],
    );
    assert.deepEqual(
      kinds(vtb, 'bic').map((i) => [i.normalized, i.valid]),
      [['VTBRRUMM', true]],
    );
    const fleurette = await byId('23257');
    assert.deepEqual(
      kinds(fleurette, 'lei').map((i) => [i.value, i.valid]),
      [['851683897', false]],
    );
  });
});

const ADVANCED = path.join(DIR, 'consolidated_non_sdn/2020-03-17_advanced_xml/cons_advanced.xml');

describe(
  'us_ofac identifiers in the advanced XML (CONS_ADVANCED.XML read as SDN_ADVANCED.XML)',
  {
    skip: existsSync(ADVANCED) ? false : `${ADVANCED} absent`,
  },
  () => {
    it('reads every ID document number and every identifier feature', async () => {
      const xml = readFileSync(ADVANCED, 'utf8');
      const dir = await mkdtemp(path.join(os.tmpdir(), 'ofac-adv-'));
      try {
        await copyFile(ADVANCED, path.join(dir, 'SDN_ADVANCED.XML'));
        const records = (await usOfacAdapter.parse(dir)).records;
        const read = new Set(records.flatMap((r) => r.identifiers.map((i) => i.normalized)));
        const documents = [...xml.matchAll(/<IDRegistrationNo>([^<]*)<\/IDRegistrationNo>/g)].map((m) => m[1]!);
        assert.equal(documents.length, 573);
        // A number may carry its country in brackets: "1026303117642 (Russia)".
        const bare = (n: string) =>
          n
            .replace(/\s*\([^)]*\)$/, '')
            .toUpperCase()
            .replace(/[^\p{L}\p{N}]/gu, '');
        const unread = documents.filter((n) => !read.has(bare(n)));
        assert.deepEqual(unread, []);
        // Features print SWIFT/BIC, websites and e-mail addresses: every BIC feature reaches a record as a BIC.
        const bics = records.flatMap((r) => r.identifiers.filter((i) => i.kind === 'bic'));
        assert.ok(bics.length >= 30 && bics.every((i) => i.valid), `${bics.length} BICs, all valid`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);
