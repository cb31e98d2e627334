import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { imoCheckDigit } from '../../src/identifiers/index.js';
import { addIdentifier } from '../../src/lists/adapters/kit/record.js';
import { caGacAdapter } from '../../src/lists/adapters/ca-gac.js';
import { emptyRecord, type EntityType, type Identifier, type ListRecord } from '../../src/lists/model.js';
import { MatchingIndex } from '../../src/matching/index.js';
import type { MatchQuery } from '../../src/matching/types.js';

/** A record whose identifiers are read as an adapter reads them (kind, normalized value, check). */
function listed(
  source: ListRecord['source'],
  id: string,
  type: EntityType,
  name: string,
  ids: Identifier[],
  extra: Partial<ListRecord> = {},
): ListRecord {
  const r = { ...emptyRecord(source, id, type, name), ...extra };
  for (const i of ids) addIdentifier(r, i);
  return r;
}

/** A valid ship IMO number from six digits. */
function imo(six: string): string {
  return six + String(imoCheckDigit(six, 'ship'));
}

const TANKER_IMO = imo('930456');
const OTHER_IMO = imo('912345');
const tanker = listed('us_ofac', 'v1', 'vessel', 'SEA DRAGON', [{ type: 'imo', value: `IMO ${TANKER_IMO}` }]);
const namesake = listed('uk_csl', 'v2', 'vessel', 'OCEAN STAR', [{ type: 'imo', value: OTHER_IMO }]);
// The EU files vessels as entities: an organization carrying a ship's IMO number.
const euVessel = listed('eu_csl', 'v3', 'organization', 'NORTHERN LIGHT', [{ type: 'imo', value: imo('951234') }]);
// A shipping company listing its fleet's IMO numbers (as OFSI lists Ocean Maritime Management's).
const fleetOwner = listed('uk_csl', 'o9', 'organization', 'Fleet Owner Maritime Company', [
  { type: 'imo', value: imo('901111') },
  { type: 'imo', value: imo('902222') },
]);
const petrov = listed(
  'uk_csl',
  'p1',
  'person',
  'Ivan Sergeyevich PETROV',
  [{ type: 'passport', value: 'AB 12-3456', country: 'RU' }],
  { birthDates: [{ date: '1970-05-01' }] },
);
const bank = listed('us_ofac', 'b1', 'organization', 'Example Commerce Bank', [{ type: 'swift', value: 'EXCBRUMM' }]);
const walletOwner = listed('us_ofac', 'w1', 'person', 'Satoshi TESTNAME', [
  { type: 'crypto_address', value: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01', currency: 'ETH' },
]);
const jet = listed('us_ofac', 'a1', 'aircraft', 'EP-ABC', [
  { type: 'aircraft_serial', value: 'MSN 1234' },
  { type: 'aircraft_tail', value: 'EP-ABC' },
]);
// A derived us_ofac_50 record carries its LEI as the derivation writes it: type only, no kind or normalized value.
const derivedLei = '5493001KJTIIGC8Y1R12';
const derived: ListRecord = {
  ...emptyRecord('us_ofac_50', derivedLei, 'organization', 'Derived Holding LLC'),
  identifiers: [{ type: 'lei', value: derivedLei }],
};

function filler(): ListRecord[] {
  const out: ListRecord[] = [];
  for (let k = 0; k < 300; k++) out.push(emptyRecord('eu_csl', `f${k}`, 'person', `Filler${k} Person${k % 17}`));
  for (let k = 0; k < 100; k++) out.push(emptyRecord('us_csl', `c${k}`, 'organization', `Trading${k} Corp`));
  return out;
}

const idx = MatchingIndex.build([
  jet,
  tanker,
  namesake,
  euVessel,
  fleetOwner,
  petrov,
  bank,
  walletOwner,
  derived,
  ...filler(),
]);

function top(query: MatchQuery) {
  const o = idx.screen(query);
  return { outcome: o, match: o.matches[0] };
}

test('a renamed vessel with the same IMO number is high, explained by its IMO number and the name score', () => {
  const { outcome, match } = top({
    name: 'Ocean Star',
    entityType: 'vessel',
    identifiers: [{ type: 'imo', value: `IMO ${TANKER_IMO}` }],
  });
  assert.equal(match?.entity.id, 'us_ofac:v1');
  assert.equal(outcome.riskLevel, 'high');
  const id = match!.explanation.corroboration.identifier!;
  assert.equal(id.outcome, 'match');
  assert.equal(id.type, 'imo');
  assert.equal(id.value, TANKER_IMO);
  assert.deepEqual(id.listed, [`IMO ${TANKER_IMO}`]);
  assert.equal(typeof id.nameScore, 'number');
  assert.ok(id.effect > 0);
  assert.match(
    match!.explanation.summary,
    new RegExp(`^IMO number ${TANKER_IMO} is the listed vessel.s IMO number \\(printed "IMO ${TANKER_IMO}"\\)`),
  );
  assert.match(match!.explanation.summary, /the name alone scores \d/);
  assert.ok(outcome.confidence >= 80, `${outcome.confidence}`);
});

test('an aircraft found by its serial number under another name is high; by its registration too', () => {
  for (const id of [
    { type: 'aircraft_serial' as const, value: '1234' },
    { type: 'aircraft_registration' as const, value: 'ep abc' },
  ]) {
    const { outcome, match } = top({ name: 'Skyline Cargo', entityType: 'aircraft', identifiers: [id] });
    assert.equal(match?.entity.id, 'us_ofac:a1', id.type);
    assert.equal(outcome.riskLevel, 'high', id.type);
    assert.equal(match?.explanation.corroboration.entityType?.effect, 0);
  }
});

test('the same name with another IMO number: the contradiction takes the match below high', () => {
  const plain = top({ name: 'Ocean Star', entityType: 'vessel' }).match!;
  const other = top({ name: 'Ocean Star', entityType: 'vessel', identifiers: [{ type: 'imo', value: TANKER_IMO }] });
  const row = other.outcome.matches.find((m) => m.entity.id === 'uk_csl:v2')!;
  assert.equal(plain.entity.id, 'uk_csl:v2');
  assert.ok(row.matchScore < plain.matchScore - 20, `${row.matchScore} vs ${plain.matchScore}`);
  assert.ok(row.matchScore < 80);
  assert.equal(row.explanation.corroboration.identifier?.outcome, 'contradiction');
  assert.match(row.explanation.summary, new RegExp(`IMO number ${TANKER_IMO} is not the listed ${OTHER_IMO}`));
  // The listing the IMO number names leads.
  assert.equal(other.match?.entity.id, 'us_ofac:v1');
});

test('passport numbers written with spaces or dashes match; an unrelated name is a lead for review, not high', () => {
  for (const value of ['AB123456', 'ab 123 456', 'AB-12-34-56', 'No. AB 12-3456']) {
    const named = top({ name: 'Ivan Petrov', identifiers: [{ type: 'passport', value }] });
    assert.equal(named.match?.entity.id, 'uk_csl:p1', value);
    assert.equal(named.outcome.riskLevel, 'high', value);
    const unrelated = top({ name: 'Maria Gonzalez', identifiers: [{ type: 'passport', value }] });
    assert.equal(unrelated.match?.entity.id, 'uk_csl:p1', value);
    assert.equal(unrelated.outcome.riskLevel, 'medium', value);
    assert.match(unrelated.match!.explanation.summary, /shares no part with the query|the name differs/);
  }
});

test('a passport of another issuing country is another document: neither a match nor a contradiction', () => {
  const same = top({ name: 'Ivan Petrov', identifiers: [{ type: 'passport', value: 'AB123456', country: 'RU' }] });
  assert.equal(same.match?.explanation.corroboration.identifier?.outcome, 'match');
  const foreign = top({ name: 'Ivan Petrov', identifiers: [{ type: 'passport', value: 'AB123456', country: 'FR' }] });
  assert.equal(foreign.match?.entity.id, 'uk_csl:p1');
  assert.equal(foreign.match?.explanation.corroboration.identifier, undefined);
  const nameOnly = top({ name: 'Ivan Petrov' });
  assert.equal(foreign.match?.matchScore, nameOnly.match?.matchScore);
  const unrelated = idx.screen({
    name: 'Maria Gonzalez',
    identifiers: [{ type: 'passport', value: 'AB123456', country: 'FR' }],
  });
  assert.equal(unrelated.matches.length, 0);
  const other = top({ name: 'Ivan Petrov', identifiers: [{ type: 'passport', value: 'ZZ999999' }] });
  assert.equal(other.match?.explanation.corroboration.identifier?.outcome, 'contradiction');
  assert.ok(other.match!.matchScore < nameOnly.match!.matchScore);
});

test('the LEIs of derived us_ofac_50 records are indexed', () => {
  const { match } = top({ name: 'Unrelated Name', identifiers: [{ type: 'lei', value: derivedLei.toLowerCase() }] });
  assert.equal(match?.entity.id, `us_ofac_50:${derivedLei}`);
  assert.equal(match?.explanation.corroboration.identifier?.type, 'lei');
});

test('a BIC with a branch code reaches its institution; an 11-character BIC ending XXX is its 8-character form', () => {
  for (const value of ['EXCBRUMM', 'EXCB RU MM XXX', 'EXCBRUMM123']) {
    const { match } = top({ name: 'Example Commerce Bank', identifiers: [{ type: 'bic', value }] });
    assert.equal(match?.explanation.corroboration.identifier?.outcome, 'match', value);
  }
});

test('an organization listing a ship IMO number is that vessel: no type contradiction once the IMO matches', () => {
  const { outcome, match } = top({
    name: 'Northern Light',
    entityType: 'vessel',
    identifiers: [{ type: 'imo', value: imo('951234') }],
  });
  assert.equal(match?.entity.id, 'eu_csl:v3');
  assert.equal(match?.explanation.corroboration.entityType?.effect, 0);
  assert.equal(outcome.riskLevel, 'high');
  // Without the IMO number, the types still conflict.
  const bare = idx.screen({ name: 'Northern Light', entityType: 'vessel' }, { floor: 0 }).matches[0]!;
  assert.ok(bare.explanation.corroboration.entityType!.effect < 0);
});

test("a company listing its fleet's IMO numbers is not the ship: the type conflict stands", () => {
  const o = idx.screen({
    name: 'Morning Glory',
    entityType: 'vessel',
    identifiers: [{ type: 'imo', value: imo('902222') }],
  });
  const m = o.matches.find((x) => x.entity.id === 'uk_csl:o9')!;
  assert.equal(m.explanation.corroboration.identifier?.outcome, 'match');
  assert.ok(m.explanation.corroboration.entityType!.effect < 0);
  assert.ok(m.matchScore < 80);
});

test('wallet addresses: hexadecimal read in any case; another wallet of the same party contradicts nothing', () => {
  const { match } = top({
    name: 'Satoshi Testname',
    identifiers: [{ type: 'crypto_wallet', value: '0xabcdef0123456789abcdef0123456789abcdef01', currency: 'ETH' }],
  });
  assert.equal(match?.explanation.corroboration.identifier?.outcome, 'match');
  const other = top({
    name: 'Satoshi Testname',
    identifiers: [{ type: 'crypto_wallet', value: '0x0000000000000000000000000000000000000001' }],
  });
  assert.equal(other.match?.explanation.corroboration.identifier, undefined);
});

test('without identifiers the answers are exactly the name-only answers', () => {
  for (const q of ['Ocean Star', 'Ivan Petrov', 'Example Commerce Bank', 'Filler12 Person12']) {
    assert.deepEqual(idx.screen({ name: q, identifiers: [] }), idx.screen({ name: q }));
    assert.deepEqual(
      idx.screen({ name: q, entityType: 'vessel', identifiers: [] }, { groupByCluster: true }),
      idx.screen({ name: q, entityType: 'vessel' }, { groupByCluster: true }),
    );
  }
});

test('valid IMO numbers and LEIs that no listing carries find nothing by identifier', () => {
  let hits = 0;
  for (let k = 100000; k < 101000; k++) {
    const six = String(k * 7)
      .padStart(6, '0')
      .slice(0, 6);
    const number = imo(six);
    if (number === TANKER_IMO || number === OTHER_IMO || number === imo('951234')) continue;
    const o = idx.screen({ name: 'Qwxz Vbnm', identifiers: [{ type: 'imo', value: number }] });
    hits += o.matches.length;
  }
  assert.equal(hits, 0);
});

const GAC = path.resolve(process.cwd(), '../shared/data/lists/ca_gac');
const gacAbsent = existsSync(path.join(GAC, 'sema-lmes.xml'))
  ? false
  : 'shared GAC data absent (../shared/data/lists/ca_gac)';

test(
  "every IMO number of Canada's real list, under an unrelated name, finds its ship first",
  { skip: gacAbsent },
  async () => {
    const { records } = await caGacAdapter.parse(GAC);
    const index = MatchingIndex.build(records);
    const misses: string[] = [];
    let tried = 0;
    for (const r of records)
      for (const id of r.identifiers) {
        if (id.kind !== 'imo' || id.valid === false) continue;
        tried++;
        const o = index.screen({ name: 'Qwxz Vbnm', identifiers: [{ type: 'imo', value: id.value }] });
        if (o.matches[0]?.entity.id !== `ca_gac:${r.id}`) misses.push(`${id.value} ${r.name}`);
      }
    assert.ok(tried >= 100, `${tried}`);
    assert.deepEqual(misses, []);
  },
);
