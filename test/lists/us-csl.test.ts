import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { usCslAdapter } from '../../src/lists/adapters/us-csl.js';
import type { ListRecord, ParsedList } from '../../src/lists/model.js';

const DIR = path.resolve(process.cwd(), '../shared/data/lists/us_csl');
const CSV = path.join(DIR, 'consolidated.csv');
const SAMPLE = path.join(DIR, 'sample_2025-06_13rows');
const JSON_DIR = path.resolve(process.cwd(), 'test/fixtures/lists/us_csl/json');
const SDN = 'Specially Designated Nationals (SDN) - Treasury Department';

const temps: string[] = [];
after(async () => {
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});
function find(list: ParsedList, id: string): ListRecord {
  const r = list.records.find((x) => x.id === id);
  assert.ok(r, `record ${id} present`);
  return r;
}

describe('us_csl CSV (2022 consolidated.csv)', { skip: existsSync(CSV) ? false : `${CSV} absent` }, () => {
  let parsed: ParsedList;
  const get = async () => (parsed ??= await usCslAdapter.parse(DIR));

  it('has one record per distinct _id (independent count with csv-parse/sync)', async () => {
    const rows = parseCsvSync(readFileSync(CSV), { columns: true, bom: true }) as Record<string, string>[];
    const list = await get();
    assert.equal(list.records.length, new Set(rows.map((r) => r._id)).size);
    assert.equal(list.format, 'CSL CSV');
    // An OFAC entry listed on SDN and CAPTA is one record carrying both lists.
    const arimero = find(list, '34616');
    assert.ok(arimero.programs.includes(SDN));
    assert.ok(arimero.programs.includes('Capta List (CAP) - Treasury Department'));
    assert.ok(arimero.programs.includes('RUSSIA-EO14024'));
  });

  it('reads a person with aliases, DOB, passport triple, nationalities and program', async () => {
    const r = find(await get(), '9935');
    assert.equal(r.entityType, 'person');
    assert.equal(r.name, "'ABD AL-RAZZIQ, Abu Sufian al-Salamabi Muhammed Ahmed");
    assert.ok(r.aliases.some((a) => a.name === 'ABDELRAZIK, Sofian' && a.kind === 'aka' && a.quality === 'strong'));
    assert.ok(r.aliases.some((a) => a.name === 'Sofian ABDELRAZIK' && a.kind === 'variation'));
    assert.deepEqual(r.birthDates, [{ date: '1962-08-06' }]);
    assert.deepEqual(r.nationalities, ['CA', 'SD']);
    assert.deepEqual(r.birthPlaces, ['Al-Bawgah, Sudan', 'Albaouga, Sudan']);
    assert.deepEqual(r.programs, ['SDGT', SDN]);
    assert.deepEqual(
      r.identifiers.find((i) => i.type === 'passport'),
      {
        type: 'passport',
        value: 'BC166787',
        country: 'CA',
        label: 'Passport',
        kind: 'passport',
        normalized: 'BC166787',
      },
    );
  });

  it('reads an entity with registration and LEI ids, and a BIS entity with address and listing date', async () => {
    const r = find(await get(), '24668');
    assert.ok(r.identifiers.some((i) => i.type === 'registration' && i.value === '57239169' && i.country === 'NL'));
    assert.ok(r.identifiers.some((i) => i.type === 'lei' && i.label === 'Legal Entity Number'));
    assert.deepEqual(r.addresses, [
      { text: 'Industrieweg 5, Nieuwkoop, Zuid-Holland, 2421 LK', country: 'NL', countryName: 'NL' },
    ]);
    const bis = find(await get(), '4398d33e9e93c7477af39f1e0bfffc13ddd47bcc');
    assert.equal(bis.name, '140 Repair Plant JSC');
    assert.deepEqual(bis.programs, ['Entity List (EL) - Bureau of Industry and Security']);
    assert.equal(bis.listingDate, '2022-04-07');
    assert.deepEqual(
      bis.aliases.map((a) => a.name),
      ['Open Joint Stock Company 140 Repair Plant', 'JSC 140 Repair Plant'],
    );
    assert.equal(bis.addresses[0]?.country, 'BY');
  });

  it('reads a vessel with IMO and flag', async () => {
    const r = find(await get(), '23156');
    assert.equal(r.entityType, 'vessel');
    assert.ok(r.identifiers.some((i) => i.type === 'imo' && i.value === '8898831'));
    assert.deepEqual(r.nationalities, ['KP']);
  });
});

describe(
  'us_csl CSV, 2025 sample with every field quoted',
  { skip: existsSync(SAMPLE) ? false : `${SAMPLE} absent` },
  () => {
    it('reads all rows', async () => {
      const rows = parseCsvSync(readFileSync(path.join(SAMPLE, 'consolidated.csv')), {
        columns: true,
        bom: true,
      }) as Record<string, string>[];
      const list = await usCslAdapter.parse(SAMPLE);
      assert.equal(list.records.length, new Set(rows.map((r) => r._id)).size);
      const isn = list.records.find((r) => r.name.startsWith('Sinobright'));
      assert.deepEqual(isn?.programs, ['INKSNA', 'Nonproliferation Sanctions (ISN) - State Department']);
      assert.equal(isn?.listingDate, '2023-07-19');
    });
  },
);

describe('us_csl JSON (fixture in the documented format)', () => {
  it('reads results with object addresses/ids and merges an entry repeated across lists', async () => {
    const raw = JSON.parse(readFileSync(path.join(JSON_DIR, 'consolidated.json'), 'utf8')) as {
      results: { id: string }[];
    };
    const list = await usCslAdapter.parse(JSON_DIR);
    assert.equal(list.format, 'CSL JSON');
    assert.equal(list.records.length, new Set(raw.results.map((r) => r.id)).size);
    const person = find(list, '9935');
    assert.deepEqual(person.addresses, [
      { text: 'Street 1, Montreal, Quebec, H1A', city: 'Montreal', countryName: 'CA', country: 'CA' },
    ]);
    assert.deepEqual(person.identifiers.find((i) => i.type === 'passport')?.country, 'CA');
    assert.deepEqual(person.birthDates, [{ date: '1962-08-06' }]);
    const entity = find(list, '24668');
    assert.ok(entity.identifiers.some((i) => i.type === 'lei' && i.value === '724500Y6DUVHQD6OXN27'));
    assert.equal(entity.addresses[0]?.country, 'NL');
    const vessel = find(list, '23156');
    assert.ok(vessel.identifiers.some((i) => i.type === 'imo' && i.value === '8898831'));
    assert.ok(vessel.identifiers.some((i) => i.type === 'call_sign' && i.value === 'HMYG7'));
    assert.deepEqual(vessel.programs, [
      'DPRK4',
      SDN,
      'UKRAINE-EO13662',
      'Sectoral Sanctions Identifications List (SSI) - Treasury Department',
    ]);
    assert.equal(vessel.listingDate, '2017-06-20');
  });
});

describe('us_csl on bad input', () => {
  async function dirWith(name: string, content: string): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'us-csl-'));
    temps.push(dir);
    await writeFile(path.join(dir, name), content);
    return dir;
  }
  it('throws on a CSV without the CSL header', async () => {
    await assert.rejects(usCslAdapter.parse(await dirWith('consolidated.csv', 'a,b,c\n1,2,3\n')), /not a CSL CSV/);
  });
  it('throws on truncated JSON and on JSON without results', async () => {
    await assert.rejects(
      usCslAdapter.parse(await dirWith('Consolidated.JSON', '{"results":[{"id":"1",')),
      /malformed JSON/,
    );
    await assert.rejects(usCslAdapter.parse(await dirWith('consolidated.json', '{"hits":[]}')), /no "results" array/);
  });
  it('throws when no file is present', async () => {
    await assert.rejects(usCslAdapter.parse(await dirWith('other.txt', '')), /no consolidated\.csv/);
  });
});
