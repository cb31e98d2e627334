import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { MatchingIndex, riskLevelFor } from '../../src/matching/index.js';

function person(source: ListRecord['source'], id: string, name: string, extra: Partial<ListRecord> = {}): ListRecord {
  return { ...emptyRecord(source, id, 'person', name), ...extra };
}
function org(source: ListRecord['source'], id: string, name: string, extra: Partial<ListRecord> = {}): ListRecord {
  return { ...emptyRecord(source, id, 'organization', name), ...extra };
}

// Filler so that part weights behave as on real lists: "mohammad" and "ali" are common, "corp" too.
function filler(): ListRecord[] {
  const out: ListRecord[] = [];
  const given = ['Mohammad', 'Ali', 'Ahmad', 'Hassan'];
  const family = ['Rahimi', 'Karimi', 'Nouri', 'Sadeghi', 'Tehrani', 'Hosseini', 'Jafari', 'Rostami'];
  let i = 0;
  for (const g of given) for (const f of family) for (let k = 0; k < 40; k++) out.push(person('eu_csl', `f${i++}`, `${g} Ali ${f}${k}`));
  for (let k = 0; k < 300; k++) out.push(org('us_csl', `c${k}`, `Trading${k} Corp`));
  return out;
}

const putin = person('un_csl', 'p1', 'PUTIN, Vladimir Vladimirovich', { birthDates: [{ date: '1952-10-07' }], nationalities: ['RU'] });
const putinUk = person('uk_csl', 'p2', 'Vladimir Vladimirovich PUTIN', { birthDates: [{ date: '1952-10-07' }], nationalities: ['RU'] });
const sis = org('us_ofac', 'o1', 'SIS d.o.o.');
const numbered = org('us_ofac', 'o2', '11420 Corp');
const gaddafi = person('us_ofac', 'g1', 'Muammar QADHAFI', { aliases: [{ name: 'Abu Minyar', quality: 'weak', kind: 'aka' }] });
const mohali = person('us_ofac', 'm1', 'Mohammad Ali');
const vessel = { ...emptyRecord('us_ofac', 'v1', 'vessel', 'OCEAN STAR'), identifiers: [{ type: 'imo' as const, value: 'IMO 9123456' }] };
const vesselEu = { ...emptyRecord('eu_csl', 'v2', 'vessel', 'Ocean Star I'), identifiers: [{ type: 'imo' as const, value: '9123456' }] };
const idx = MatchingIndex.build([putin, putinUk, sis, numbered, gaddafi, mohali, vessel, vesselEu, ...filler()]);

test('riskLevelFor uses the contract boundaries', () => {
  assert.equal(riskLevelFor(80), 'high');
  assert.equal(riskLevelFor(79.9), 'medium');
  assert.equal(riskLevelFor(50), 'medium');
  assert.equal(riskLevelFor(49.9), 'low');
});

test('a listed name, reordered, transliterated and misspelled forms all match', () => {
  for (const q of ['Vladimir Putin', 'Putin, Vladimir', 'Путин Владимир Владимирович', 'Vladimir Putn', 'Wladimir Putin']) {
    const o = idx.screen({ name: q });
    assert.ok(o.riskScore >= 50, `${q}: ${o.riskScore}`);
    assert.equal(o.matches[0]!.entity.id.endsWith(':p1') || o.matches[0]!.entity.id.endsWith(':p2'), true, q);
  }
  assert.equal(idx.screen({ name: 'Vladimir Putin' }).riskLevel, 'high');
});

test('an innocent name gives no match, riskScore 0 and low', () => {
  const o = idx.screen({ name: 'Ingeborg Abrahamsen' });
  assert.deepEqual(o, { riskScore: 0, riskLevel: 'low', confidence: 0, matches: [] });
});

test('punctuation and legal forms: "SIS DOO" matches "SIS d.o.o."', () => {
  const o = idx.screen({ name: 'SIS DOO' });
  assert.equal(o.matches[0]?.entity.id, 'us_ofac:o1');
});

test('numbers must agree', () => {
  const o = idx.screen({ name: 'Corp' });
  assert.ok(!o.matches.some((m) => m.entity.id === 'us_ofac:o2'));
  const exact = idx.screen({ name: '11420 Corp' });
  assert.equal(exact.matches[0]?.entity.id, 'us_ofac:o2');
  const other = idx.screen({ name: '11421 Corp' }, { floor: 0 });
  const s = other.matches.find((m) => m.entity.id === 'us_ofac:o2')?.matchScore ?? 0;
  assert.ok(s < exact.matches[0]!.matchScore - 30, `${s}`);
});

test('a bare common name does not reach high', () => {
  const o = idx.screen({ name: 'Mohammad Ali' });
  assert.notEqual(o.riskLevel, 'high');
  const rare = idx.screen({ name: 'Muammar Qadhafi' });
  assert.equal(rare.riskLevel, 'high');
  assert.ok(o.confidence < rare.confidence);
});

test('phonetic variants and weak aliases', () => {
  const o = idx.screen({ name: 'Moammar Gaddafi' });
  assert.equal(o.matches[0]?.entity.id, 'us_ofac:g1');
  const weak = idx.screen({ name: 'Abu Minyar' }, { floor: 0 });
  const m = weak.matches.find((x) => x.entity.id === 'us_ofac:g1')!;
  assert.equal(m.explanation.nameQuality, 'weak');
  assert.ok(m.matchScore < m.explanation.nameScore);
});

test('initials align with full parts', () => {
  const o = idx.screen({ name: 'V. V. Putin' }, { floor: 0 });
  const m = o.matches[0]!;
  assert.ok(m.explanation.alignment.some((a) => a.how === 'initial'));
});

test('corroboration: birth date and country raise, contradictions and type conflicts lower', () => {
  const base = idx.screen({ name: 'Vladimir Putin' }).matches[0]!.matchScore;
  const same = idx.screen({ name: 'Vladimir Putin', birthDate: '1952-10-07', country: 'RU' }).matches[0]!;
  const year = idx.screen({ name: 'Vladimir Putin', birthDate: '1952' }).matches[0]!;
  const wrong = idx.screen({ name: 'Vladimir Putin', birthDate: '1980-01-01', country: 'FR' }, { floor: 0 }).matches[0]!;
  const org = idx.screen({ name: 'Vladimir Putin', entityType: 'organization' }, { floor: 0 }).matches[0]!;
  assert.ok(same.matchScore > base || same.matchScore === 100);
  assert.ok(year.matchScore > base || year.matchScore === 100);
  assert.ok(year.matchScore <= same.matchScore);
  assert.ok(wrong.matchScore < base - 20, `${wrong.matchScore}`);
  assert.ok(org.matchScore < base - 20);
  assert.ok(same.explanation.corroboration.birthDate!.effect > 0);
  assert.ok(wrong.explanation.corroboration.birthDate!.effect < 0);
  assert.ok(wrong.explanation.corroboration.country!.effect < 0);
  assert.ok(org.explanation.corroboration.entityType!.effect < 0);
  const conf = idx.screen({ name: 'Vladimir Putin', birthDate: '1952-10-07', country: 'RU' }).confidence;
  assert.ok(conf > idx.screen({ name: 'Vladimir Putin' }).confidence);
});

test('clusters: one match per source row, or one match with listings when grouped', () => {
  const rows = idx.screen({ name: 'Vladimir Putin' });
  assert.equal(rows.matches.filter((m) => m.entity.name.toUpperCase().includes('PUTIN')).length, 2);
  assert.equal(rows.matches[0]!.clusterId, rows.matches[1]!.clusterId);
  const grouped = idx.screen({ name: 'Vladimir Putin' }, { groupByCluster: true });
  assert.equal(grouped.matches.length, 1);
  assert.deepEqual(grouped.matches[0]!.listings!.map((l) => l.entityId).sort(), ['uk_csl:p2', 'un_csl:p1']);
  // two lists agreeing raise the risk above the single best row
  assert.ok(rows.riskScore >= rows.matches[0]!.matchScore);
  const ships = idx.screen({ name: 'Ocean Star' }, { groupByCluster: true });
  assert.equal(ships.matches[0]!.listings?.length, 2, 'linked by IMO number');
});

test('explanation names the listed name, the alignment and readable summary', () => {
  const m = idx.screen({ name: 'Putin Vladimir', birthDate: '1952-10-07' }).matches[0]!;
  assert.ok(['PUTIN, Vladimir Vladimirovich', 'Vladimir Vladimirovich PUTIN'].includes(m.explanation.matchedName));
  assert.deepEqual(m.explanation.alignment.map((a) => a.listed).sort(), ['putin', 'vladimir']);
  assert.deepEqual(m.explanation.unmatchedListedParts, ['vladimirovich']);
  assert.match(m.explanation.summary, /birth date 1952-10-07 is the same/);
});

test('floor and maxMatches', () => {
  const all = idx.screen({ name: 'Ali Rahimi1' }, { floor: 0, maxMatches: 100 });
  assert.ok(all.matches.length > 3);
  assert.ok(all.matches.every((m, i) => i === 0 || m.matchScore <= all.matches[i - 1]!.matchScore));
  const few = idx.screen({ name: 'Ali Rahimi1' }, { floor: 0, maxMatches: 3 });
  assert.equal(few.matches.length, 3);
  const high = idx.screen({ name: 'Ali Rahimi1' }, { floor: 95 });
  assert.ok(high.matches.every((m) => m.matchScore >= 95));
  for (const m of all.matches) assert.equal(Math.round(m.matchScore * 10) / 10, m.matchScore);
});
