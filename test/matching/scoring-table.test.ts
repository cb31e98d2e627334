import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { MatchingIndex } from '../../src/matching/index.js';
import { KNOBS, knobErrors } from '../../src/matching/engine-knobs.js';
import { renderScoringDoc, scoringDigest } from '../../src/matching/scoring-doc.js';
import { SCORING, type Tunable } from '../../src/matching/scoring-table.js';
import { engineVersion } from '../../src/screening/engine-version.js';

const root = process.cwd();

test('docs/scoring.md is the page rendered from the table (node scripts/render-scoring.mjs)', () => {
  const committed = readFileSync(path.join(root, 'docs/scoring.md'), 'utf8');
  assert.equal(committed, renderScoringDoc(), 'docs/scoring.md is stale: run node scripts/render-scoring.mjs');
});

test('every value of the table lies in its range and has its reason and source', () => {
  for (const [name, t] of Object.entries(SCORING) as [string, Tunable][]) {
    assert.ok(t.min <= t.value && t.value <= t.max, `${name}: ${t.value} outside ${t.min}..${t.max}`);
    assert.ok(t.what.length > 10 && t.source.length > 3, `${name} says what it does and where it comes from`);
  }
});

test('every value of the table is read by the module it names', () => {
  for (const [name, t] of Object.entries(SCORING) as [string, Tunable][]) {
    const source = readFileSync(path.join(root, 'src/matching', t.file), 'utf8');
    assert.ok(source.includes(`SCORING.${name}.value`), `${t.file} reads SCORING.${name}`);
  }
});

test('the engine version carries the scoring digest', () => {
  assert.match(scoringDigest(), /^[0-9a-f]{16}$/);
  assert.ok(engineVersion().includes(`+scoring.${scoringDigest()}.code.`));
});

test('knobErrors names the field of each knob that is not valid', () => {
  assert.deepEqual(knobErrors({}), []);
  assert.deepEqual(
    knobErrors({ birthDateToleranceYears: 2, missingBirthDatePoints: -5, missingCountryPoints: 0, weakAliases: false }),
    [],
  );
  const fields = (k: Record<string, unknown>) => knobErrors(k).map((e) => e.field);
  assert.deepEqual(fields({ birthDateToleranceYears: 11 }), ['birthDateToleranceYears']);
  assert.deepEqual(fields({ birthDateToleranceYears: 1.5 }), ['birthDateToleranceYears']);
  assert.deepEqual(fields({ missingBirthDatePoints: 5 }), ['missingBirthDatePoints']);
  assert.deepEqual(fields({ missingCountryPoints: 'x' }), ['missingCountryPoints']);
  assert.deepEqual(fields({ weakAliases: 'no' }), ['weakAliases']);
  assert.deepEqual(fields({ highCutoff: 70 }), ['highCutoff']);
  assert.match(knobErrors({ missingBirthDatePoints: 5 })[0]!.message, /between -20 and 0/);
  assert.equal(KNOBS.birthDateToleranceYears.default, SCORING.BIRTH_YEAR_TOLERANCE.value);
});

function person(id: string, name: string, extra: Partial<ListRecord> = {}): ListRecord {
  return { ...emptyRecord('us_ofac', id, 'person', name), ...extra };
}
const filler: ListRecord[] = [];
for (let k = 0; k < 200; k++) filler.push(person(`f${k}`, `Filler${k} Person${k % 17}`));
const idx = MatchingIndex.build([
  person('b1', 'Zakarov Ilyas Tomashevsky', { birthDates: [{ date: '1961-03-04' }], nationalities: ['KZ'] }),
  person('n1', 'Ostrander Belmiro Quaye'),
  person('w1', 'Hadrian Vostok Pelletier', { aliases: [{ name: 'Kalman Zoltrix', quality: 'weak', kind: 'aka' }] }),
  ...filler,
]);

test('knobs left out, or set to their defaults, change no answer', () => {
  const queries = [
    { name: 'Zakarov Ilyas Tomashevsky', birthDate: '1962-01-01', country: 'KZ' },
    { name: 'Ostrander Belmiro Quaye', birthDate: '1970', country: 'FR' },
    { name: 'Kalman Zoltrix' },
  ];
  const defaults = Object.fromEntries(Object.entries(KNOBS).map(([k, v]) => [k, v.default]));
  for (const q of queries)
    assert.deepEqual(idx.screen(q, { knobs: defaults }), idx.screen(q), `defaults for ${q.name}`);
});

test('birthDateToleranceYears: a birth year two off differs within a tolerance of 2, contradicts within 1', () => {
  const q = { name: 'Zakarov Ilyas Tomashevsky', birthDate: '1963-05-05' };
  const base = idx.screen(q).matches[0]!;
  assert.equal(base.explanation.corroboration.birthDate?.effect, SCORING.BIRTH_CONTRADICTS.value);
  const wide = idx.screen(q, { knobs: { birthDateToleranceYears: 2 } }).matches[0]!;
  assert.equal(wide.explanation.corroboration.birthDate?.effect, SCORING.BIRTH_CONTRADICTS_APPROX.value);
  assert.equal(
    wide.matchScore - base.matchScore,
    SCORING.BIRTH_CONTRADICTS_APPROX.value - SCORING.BIRTH_CONTRADICTS.value,
  );
  const strict = idx.screen({ ...q, birthDate: '1962-05-05' }, { knobs: { birthDateToleranceYears: 0 } }).matches[0]!;
  assert.equal(strict.explanation.corroboration.birthDate?.effect, SCORING.BIRTH_CONTRADICTS.value);
});

test('missingBirthDatePoints and missingCountryPoints count a fact the listing lacks', () => {
  const q = { name: 'Ostrander Belmiro Quaye', birthDate: '1970-02-02', country: 'FR' };
  const base = idx.screen(q).matches[0]!;
  assert.equal(base.explanation.corroboration.birthDate, undefined);
  assert.equal(base.explanation.corroboration.country, undefined);
  const m = idx.screen(q, { knobs: { missingBirthDatePoints: -5, missingCountryPoints: -3 } }).matches[0]!;
  assert.equal(m.explanation.corroboration.birthDate?.effect, -5);
  assert.equal(m.explanation.corroboration.country?.effect, -3);
  assert.equal(Math.round((base.matchScore - m.matchScore) * 10) / 10, 8);
});

test('weakAliases off: a weak alias is not screened', () => {
  const on = idx.screen({ name: 'Kalman Zoltrix' });
  assert.equal(on.matches[0]?.entity.id, 'us_ofac:w1');
  assert.equal(on.matches[0]?.explanation.nameQuality, 'weak');
  const off = idx.screen({ name: 'Kalman Zoltrix' }, { knobs: { weakAliases: false } });
  assert.equal(off.matches.length, 0);
  // The strong name is still found.
  const strong = idx.screen({ name: 'Hadrian Vostok Pelletier' }, { knobs: { weakAliases: false } });
  assert.equal(strong.matches[0]?.entity.id, 'us_ofac:w1');
});
