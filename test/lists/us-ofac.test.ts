import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { usOfacAdapter } from '../../src/lists/adapters/us-ofac.js';
import { applyRemarks, splitIdValue, splitRemarks } from '../../src/lists/adapters/us-ofac-remarks.js';
import { emptyRecord, type ListRecord, type ParsedList } from '../../src/lists/model.js';

const OFAC = path.resolve(process.cwd(), '../shared/data/lists/us_ofac');
const SDN_CSV = path.join(OFAC, 'sdn.csv');
const FULL_SET = path.join(OFAC, '2021-07-07_full_set');
const CONS = path.join(OFAC, 'consolidated_non_sdn');
const ADVANCED = path.join(CONS, '2020-03-17_advanced_xml', 'cons_advanced.xml');
const skipIfAbsent = (file: string): string | false => (existsSync(file) ? false : `${file} absent`);

const temps: string[] = [];
after(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});
/** A temp dir holding copies of `files` under the given names. */
async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'us-ofac-'));
  temps.push(dir);
  for (const [name, from] of Object.entries(files)) copyFileSync(from, path.join(dir, name));
  return dir;
}
function find(list: ParsedList, id: string): ListRecord {
  const r = list.records.find((x) => x.id === id);
  assert.ok(r, `record ${id} present`);
  return r;
}
const rowCount = (file: string): number => readFileSync(file, 'latin1').match(/^\d+,/gm)?.length ?? 0;

describe('OFAC remarks parser (real remark strings)', () => {
  const person = () => emptyRecord('us_ofac', '1', 'person', 'AL-AHDAL, Mohammad Hamdi Mohammad Sadiq');

  it('reads DOB, POB, nationality, gender, passport with issue date, national id and a weak alias', () => {
    const r = person();
    applyRemarks(
      r,
      "DOB 19 Nov 1971; POB Medina, Saudi Arabia; nationality Yemen; Gender Male; Passport 541939 (Yemen) issued 31 Jul 2000; National ID No. 216040 (Yemen); a.k.a. 'AL-MAKKI, Abu Asim'.",
    );
    assert.deepEqual(r.birthDates, [{ date: '1971-11-19' }]);
    assert.deepEqual(r.birthPlaces, ['Medina, Saudi Arabia']);
    assert.deepEqual(r.nationalities, ['YE']);
    assert.equal(r.gender, 'male');
    assert.deepEqual(r.identifiers, [
      {
        type: 'passport',
        value: '541939',
        country: 'YE',
        label: 'Passport',
        note: 'issued 31 Jul 2000',
        kind: 'passport',
        normalized: '541939',
      },
      {
        type: 'national_id',
        value: '216040',
        country: 'YE',
        label: 'National ID No.',
        kind: 'national_id',
        normalized: '216040',
      },
    ]);
    assert.deepEqual(r.aliases, [
      { name: 'AL-MAKKI, Abu Asim', quality: 'weak', kind: 'aka' },
      { name: 'Abu Asim AL-MAKKI', quality: 'weak', kind: 'variation' },
    ]);
  });

  it('reads alt. DOBs, circa and ranges, citizenship and Cedula numbers', () => {
    const r = person();
    applyRemarks(
      r,
      'DOB 13 May 1965; alt. DOB circa 1968; alt. DOB 1955 to 1957; citizen Colombia; Cedula No. 7548733 (Colombia); alt. Cedula No. 70163752 (Colombia).',
    );
    assert.deepEqual(r.birthDates, [
      { date: '1965-05-13' },
      { date: '1968', approximate: true },
      { date: '1955', approximate: true },
      { date: '1956', approximate: true },
      { date: '1957', approximate: true },
    ]);
    assert.deepEqual(r.citizenships, ['CO']);
    assert.deepEqual(
      r.identifiers.map((i) => [i.type, i.value, i.country]),
      [
        ['national_id', '7548733', 'CO'],
        ['national_id', '70163752', 'CO'],
      ],
    );
  });

  it('reads entity identifiers: SWIFT/BIC, LEI, registration, tax id, website and listing date', () => {
    const r = emptyRecord('us_ofac', '2', 'organization', 'VTB BANK');
    applyRemarks(
      r,
      'SWIFT/BIC VTBRRUMM; Website www.vtb.com; alt. Website www.vtb.ru; Executive Order 13662 Directive Determination - Subject to Directive 1; Listing Date (EO 14024 Directive 2): 24 Feb 2022; Registration ID 1027739609391 (Russia); Tax ID No. 7702070139 (Russia); Legal Entity Number 253400V1H6ART1UQ0N98 (Russia); Linked To: HIZBALLAH.',
    );
    const byType = (t: string) => r.identifiers.filter((i) => i.type === t).map((i) => i.value);
    assert.deepEqual(byType('swift'), ['VTBRRUMM']);
    assert.deepEqual(byType('lei'), ['253400V1H6ART1UQ0N98']);
    assert.deepEqual(byType('registration'), ['1027739609391']);
    assert.deepEqual(byType('tax_id'), ['7702070139']);
    assert.deepEqual(byType('other'), ['www.vtb.com', 'www.vtb.ru']);
    assert.equal(r.listingDate, '2022-02-24');
  });

  it('reads vessel IMO, flag and call sign, and crypto addresses', () => {
    const r = emptyRecord('us_ofac', '3', 'vessel', 'EBANO');
    applyRemarks(
      r,
      "Vessel Registration Identification IMO 7406784; Vessel Flag Panama; Vessel Call Sign 3FXK9; f.k.a. 'ANA I'; Digital Currency Address - XBT 134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak.",
    );
    assert.deepEqual(
      r.identifiers.map((i) => [i.type, i.value]),
      [
        ['imo', '7406784'],
        ['call_sign', '3FXK9'],
        ['crypto_address', '134r8iHv69xdT6p5qVKTsHrcUEuBVZAYak'],
      ],
    );
    assert.deepEqual(r.nationalities, ['PA']);
    assert.deepEqual(r.aliases, [{ name: 'ANA I', quality: 'weak', kind: 'fka' }]);
  });

  it('keeps an alias holding "; " in one clause, and splits id values', () => {
    assert.deepEqual(splitRemarks("a.k.a. 'A; B'; DOB 1960."), ["a.k.a. 'A; B'", 'DOB 1960']);
    assert.deepEqual(splitIdValue('AO 2879097 (Italy) expires 30 Oct 2012'), {
      value: 'AO 2879097',
      country: 'IT',
      countryName: 'Italy',
      note: 'expires 30 Oct 2012',
    });
  });
});

describe('us_ofac legacy CSV (sdn.csv 2024, alone)', { skip: skipIfAbsent(SDN_CSV) }, () => {
  let parsed: ParsedList;
  const get = async () => (parsed ??= await usOfacAdapter.parse(await dirWith({ 'SDN.CSV': SDN_CSV })));

  it('parses every entry (independent row count) and skips the trailing 0x1A line', async () => {
    const list = await get();
    assert.equal(list.records.length, rowCount(SDN_CSV));
    assert.equal(list.format, 'OFAC legacy CSV (SDN)');
    assert.deepEqual(list.warnings, []);
    const raw = readFileSync(SDN_CSV, 'latin1');
    assert.equal(
      list.records.filter((r) => r.entityType === 'vessel').length,
      raw.match(/^\d+,"[^"]*","vessel"/gm)?.length,
    );
  });

  it('reads a person: name as listed, natural order, weak aliases, DOB, passport, program', async () => {
    const r = find(await get(), '6939');
    assert.equal(r.name, 'AL-AHDAL, Mohammad Hamdi Mohammad Sadiq');
    assert.equal(r.entityType, 'person');
    assert.deepEqual(r.aliases[0], {
      name: 'Mohammad Hamdi Mohammad Sadiq AL-AHDAL',
      quality: 'strong',
      kind: 'variation',
    });
    assert.ok(r.aliases.some((a) => a.name === 'AL-MAKKI, Abu Asim' && a.quality === 'weak'));
    assert.deepEqual(r.birthDates, [{ date: '1971-11-19' }]);
    assert.deepEqual(r.programs, ['SDGT']);
    assert.ok(r.identifiers.some((i) => i.type === 'passport' && i.value === '541939' && i.country === 'YE'));
    assert.ok(r.identifiers.some((i) => i.type === 'ofac_uid' && i.value === '6939'));
    assert.equal(r.sourceUrl, 'https://sanctionssearch.ofac.treas.gov/Details.aspx?id=6939');
  });

  it('reads an entity with an LEI and two programs', async () => {
    const r = find(await get(), '17013');
    assert.equal(r.entityType, 'organization');
    assert.deepEqual(r.programs, ['UKRAINE-EO13662', 'RUSSIA-EO14024']);
    assert.ok(r.identifiers.some((i) => i.type === 'lei' && i.value === '253400V1H6ART1UQ0N98' && i.country === 'RU'));
    assert.ok(r.identifiers.some((i) => i.type === 'registration' && i.value === '1027739609391'));
  });

  it('reads a vessel with IMO, flag and former names', async () => {
    const r = find(await get(), '4243');
    assert.equal(r.entityType, 'vessel');
    assert.equal(r.name, 'EBANO');
    assert.ok(r.identifiers.some((i) => i.type === 'imo' && i.value === '7406784'));
    assert.deepEqual(r.nationalities, ['PA']);
    assert.deepEqual(
      r.aliases.map((a) => [a.name, a.kind]),
      [
        ['ANA I', 'fka'],
        ['SAND SWAN', 'fka'],
      ],
    );
  });
});

describe('us_ofac legacy CSV joined with ADD/ALT/COMMENTS (2021-07-07 set)', { skip: skipIfAbsent(FULL_SET) }, () => {
  it('joins addresses, strong aliases and the remarks overflow on ent_num', async () => {
    const list = await usOfacAdapter.parse(FULL_SET);
    assert.equal(list.records.length, rowCount(path.join(FULL_SET, 'sdn.csv')));
    assert.equal(list.files.length, 4);
    const r = find(list, '12300');
    const addRows = readFileSync(path.join(FULL_SET, 'add.csv'), 'latin1').match(/^12300,/gm)?.length;
    assert.equal(r.addresses.length, addRows);
    assert.ok(r.addresses.some((a) => a.text === 'Calle 6 No. 33-29 Apto. 801, Medellin' && a.country === 'CO'));
    assert.deepEqual(
      r.aliases.find((a) => a.name === 'LOPEZ SALAZAR, Elkin de Jesus'),
      {
        name: 'LOPEZ SALAZAR, Elkin de Jesus',
        quality: 'strong',
        kind: 'aka',
      },
    );
    // The overflow continues the remarks mid-word, so the joined text reads on.
    assert.match(r.remarks ?? '', /Linked To: R D I S\.A\.$/);
  });
});

describe('us_ofac non-SDN consolidated CSV set, merged with an SDN CSV', { skip: skipIfAbsent(CONS) }, () => {
  it('merges both lists into one record set', async () => {
    const dir = await dirWith({
      'sdn.csv': path.join(FULL_SET, 'sdn.csv'),
      'CONS_PRIM.CSV': path.join(CONS, 'cons_prim.csv'),
      'cons_alt.csv': path.join(CONS, 'cons_alt.csv'),
      'cons_add.csv': path.join(CONS, 'cons_add.csv'),
      'cons_comments.csv': path.join(CONS, 'cons_comments.csv'),
    });
    const list = await usOfacAdapter.parse(dir);
    const sdnIds = new Set(readFileSync(path.join(FULL_SET, 'sdn.csv'), 'latin1').match(/^\d+(?=,)/gm));
    const consIds = new Set(readFileSync(path.join(CONS, 'cons_prim.csv'), 'latin1').match(/^\d+(?=,)/gm));
    assert.equal(list.records.length, new Set([...sdnIds, ...consIds]).size);
    assert.ok(list.format.includes('consolidated non-SDN'));
    const haniya = find(list, '9639');
    assert.deepEqual(haniya.programs, ['NS-PLC']);
    assert.ok(haniya.aliases.some((a) => a.name === 'HANIYA, Ismail' && a.quality === 'strong'));
  });
});

describe(
  'us_ofac classic XML (consolidated.xml read as SDN.XML)',
  { skip: skipIfAbsent(path.join(CONS, 'consolidated.xml')) },
  () => {
    it('parses every sdnEntry with categories, publish date and ids', async () => {
      const file = path.join(CONS, 'consolidated.xml');
      const list = await usOfacAdapter.parse(await dirWith({ 'SDN.XML': file }));
      assert.equal(list.records.length, readFileSync(file, 'utf8').match(/<sdnEntry>/g)?.length);
      assert.equal(list.publishedAt, '2025-03-28');
      assert.equal(list.format, 'OFAC XML (SDN)');
      const zahhar = find(list, '9647');
      assert.equal(zahhar.name, 'ZAHHAR, Mahmoud Khaled');
      assert.deepEqual(
        zahhar.aliases.find((a) => a.name === 'ZAHAR, Mahmoud'),
        { name: 'ZAHAR, Mahmoud', quality: 'weak', kind: 'aka' },
      );
      assert.equal(zahhar.aliases.find((a) => a.name === 'AL ZAHAR, Mahmoud Khaled')?.quality, 'strong');
      assert.deepEqual(zahhar.birthDates, [{ date: '1945' }]);
      assert.deepEqual(zahhar.programs, ['NS-PLC', 'SDGT']);
      assert.equal(zahhar.gender, 'male');
      const withLei = list.records.filter((r) => r.identifiers.some((i) => i.type === 'lei'));
      assert.ok(withLei.length > 0, 'LEIs read from idList');
    });
  },
);

describe('us_ofac advanced XML (cons_advanced.xml read as SDN_ADVANCED.XML)', { skip: skipIfAbsent(ADVANCED) }, () => {
  let parsed: ParsedList;
  const get = async () => (parsed ??= await usOfacAdapter.parse(await dirWith({ 'SDN_ADVANCED.XML': ADVANCED })));

  it('parses every DistinctParty and the date of issue', async () => {
    const raw = readFileSync(ADVANCED, 'utf8');
    const list = await get();
    assert.equal(list.records.length, raw.match(/<DistinctParty /g)?.length);
    assert.equal(list.publishedAt, '2020-03-17');
    assert.deepEqual(list.warnings, []);
    assert.equal(
      list.records.filter((r) => r.entityType === 'person').length,
      raw.match(/<Profile [^>]*PartySubTypeID="4"/g)?.length,
    );
  });

  it('resolves names, programs, listing date and ID documents of an entity', async () => {
    const r = find(await get(), '17013');
    assert.equal(r.name, 'VTB BANK OAO');
    assert.equal(r.aliases.find((a) => a.name === 'VNESHTORGBANK')?.kind, 'fka');
    assert.deepEqual(r.programs, ['UKRAINE-EO13662']);
    assert.equal(r.listingDate, '2014-07-29');
    assert.ok(r.identifiers.some((i) => i.type === 'swift' && i.value === 'VTBRRUMM'));
    assert.ok(
      r.identifiers.some((i) => i.type === 'registration' && i.value === '1027739609391' && i.country === 'RU'),
    );
    assert.ok(r.addresses.some((a) => a.city === 'Moscow' && a.country === 'RU'));
  });

  it('resolves a person: birth date period, gender, passport', async () => {
    const r = find(await get(), '26182');
    assert.equal(r.name, 'KAYAKIRAN, Evren');
    assert.deepEqual(r.birthDates, [{ date: '1980-02-08' }]);
    assert.equal(r.gender, 'male');
    assert.ok(r.identifiers.some((i) => i.type === 'passport' && i.value === 'U00242309' && i.country === 'TR'));
    assert.deepEqual(find(await get(), '9639').birthDates, [{ date: '1962' }]);
  });
});

describe('us_ofac on bad input', () => {
  it('throws when no known file is present', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'us-ofac-'));
    temps.push(dir);
    await assert.rejects(usOfacAdapter.parse(dir), /no SDN or consolidated list file/);
  });
  it('throws on a garbage SDN.CSV', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'us-ofac-'));
    temps.push(dir);
    await writeFile(path.join(dir, 'sdn.csv'), 'hello,world\nthis is not OFAC\n');
    await assert.rejects(usOfacAdapter.parse(dir), /not an OFAC legacy CSV/);
  });
  it('throws on truncated SDN.XML and SDN_ADVANCED.XML', async () => {
    for (const [name, xml] of [
      [
        'SDN.XML',
        '<sdnList><publshInformation><Publish_Date>01/01/2025</Publish_Date></publshInformation><sdnEntry><uid>1</uid>',
      ],
      ['SDN_ADVANCED.XML', '<Sanctions xmlns="http://www.un.org/sanctions/1.0"><DateOfIssue><Year>2020</Year>'],
    ]) {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'us-ofac-'));
      temps.push(dir);
      await writeFile(path.join(dir, name!), xml!);
      await assert.rejects(usOfacAdapter.parse(dir), new RegExp(`${name!.replace('.', '\\.')}: malformed XML`));
    }
  });
});
