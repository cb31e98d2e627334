import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyRecord, type ListRecord } from '../../src/lists/model.js';
import { type Match, MatchingIndex, riskLevelFor } from '../../src/matching/index.js';

function person(source: ListRecord['source'], id: string, name: string, extra: Partial<ListRecord> = {}): ListRecord {
  return { ...emptyRecord(source, id, 'person', name), ...extra };
}

// Part weights as on real lists: "Vladimir" is a common given name there.
function filler(): ListRecord[] {
  const out: ListRecord[] = [];
  const family = ['Ivanov', 'Petrov', 'Sidorov', 'Smirnov', 'Kuznetsov', 'Popov'];
  let i = 0;
  for (const f of family) for (let k = 0; k < 60; k++) out.push(person('eu_csl', `f${i++}`, `Vladimir ${f}${k}`));
  return out;
}

const DOB = '1952-10-07';
const dated = { birthDates: [{ date: DOB }], nationalities: ['RU'] };
// The Japanese row comes first and lists no birth date; the UK and US rows list it and are linked
// (same name and birth date on two lists).
const jpUndated = person('jp_mof', 'j1', 'Vladimir Putin');
const uk = person('uk_csl', 'u1', 'Vladimir Vladimirovich PUTIN', {
  ...dated,
  aliases: [{ name: 'Vladimir PUTIN', quality: 'strong', kind: 'variation' }],
});
const us = person('us_ofac', 'o1', 'PUTIN, Vladimir Vladimirovich', {
  ...dated,
  aliases: [{ name: 'PUTIN, Vladimir', quality: 'strong', kind: 'aka' }],
});

const birth = (m: Match): number => m.explanation.corroboration.birthDate?.effect ?? 0;

test('a row whose birth date agrees ranks and scores at least as high as the same name without one', () => {
  const idx = MatchingIndex.build([jpUndated, uk, us, ...filler()]);
  for (const name of ['Poutine Vladimir', 'Vladimir Putin', 'Putin Vladimir']) {
    const o = idx.screen({ name, birthDate: DOB }, { maxMatches: 20, floor: 0 });
    const jp = o.matches.findIndex((m) => m.entity.id === 'jp_mof:j1');
    assert.ok(jp >= 0, `${name}: the undated row is reported`);
    const confirmed = o.matches.filter((m) => birth(m) > 0);
    assert.ok(confirmed.length >= 2, name);
    for (const m of confirmed) {
      // the same name ("Vladimir PUTIN", "PUTIN, Vladimir" / "Vladimir Putin"), the birth date agreeing
      assert.ok(
        m.matchScore >= o.matches[jp]!.matchScore,
        `${name}: ${m.entity.id} ${m.matchScore} < ${o.matches[jp]!.matchScore}`,
      );
      assert.ok(o.matches.indexOf(m) < jp, `${name}: ${m.entity.id} ranks below the undated row`);
    }
    assert.ok(birth(o.matches[0]!) > 0, `${name}: top row is corroborated`);
    // the risk is that of the best corroborated match, raised for the two lists carrying it
    assert.ok(o.riskScore >= confirmed[0]!.matchScore + 3 || o.riskScore === 100, `${name}: risk ${o.riskScore}`);
    assert.equal(o.riskLevel, riskLevelFor(o.riskScore));
  }
});

test('a birth date that agrees is not lost when the score is capped at 100', () => {
  // A distinctive full name scores 100 on the name alone: the +8 of the birth date is capped away,
  // and the order of equals must still put the corroborated row first.
  const jpQ = person('jp_mof', 'q1', 'Muammar Abu Minyar QADHAFI');
  const unQ = person('un_csl', 'q2', 'Muammar Abu Minyar QADHAFI', { birthDates: [{ date: '1942-06-07' }] });
  const idx = MatchingIndex.build([jpQ, unQ, ...filler()]);
  const o = idx.screen({ name: 'Muammar Abu Minyar Qadhafi', birthDate: '1942-06-07' });
  assert.equal(o.matches.length, 2);
  assert.equal(o.matches[0]!.matchScore, o.matches[1]!.matchScore);
  assert.equal(o.matches[0]!.entity.id, 'un_csl:q2');
  assert.ok(birth(o.matches[0]!) > 0);
  const bare = idx.screen({ name: 'Muammar Abu Minyar Qadhafi' });
  assert.ok(o.confidence > bare.confidence, `${o.confidence} / ${bare.confidence}`);
});

test('among equal scores the party more lists carry sets the risk, whatever the record order', () => {
  // Here the Japanese row lists the birth date too: three rows score the same.
  const jpDated = person('jp_mof', 'j1', 'Vladimir Putin', { birthDates: [{ date: DOB }] });
  for (const records of [
    [jpDated, uk, us],
    [uk, us, jpDated],
  ]) {
    const idx = MatchingIndex.build([...records, ...filler()]);
    const o = idx.screen({ name: 'Poutine Vladimir', birthDate: DOB });
    const top = o.matches[0]!;
    assert.notEqual(top.entity.id, 'jp_mof:j1');
    assert.equal(o.matches.find((m) => m.entity.id === 'jp_mof:j1')!.matchScore, top.matchScore, 'a tie');
    assert.ok(o.riskScore >= top.matchScore + 3, `risk ${o.riskScore}, top ${top.matchScore}`);
  }
});

test('a party whose birth date agrees on several lists sets the risk over one unconfirmed row a little above it', () => {
  // No short alias this time: the listed full names carry the patronymic, and the query gives the
  // birth month only (+5), so the Japanese row's exact "Vladimir Putin" scores a little above each
  // dated row even with the month agreeing.
  const long = (source: ListRecord['source'], id: string, name: string): ListRecord => person(source, id, name, dated);
  const idx = MatchingIndex.build([
    jpUndated,
    long('uk_csl', 'u1', 'Vladimir Vladimirovich PUTIN'),
    long('us_ofac', 'o1', 'PUTIN, Vladimir Vladimirovich'),
    long('un_csl', 'n1', 'PUTIN, Vladimir Vladimirovich'),
    ...filler(),
  ]);
  const o = idx.screen({ name: 'Vladimir Putin', birthDate: DOB.slice(0, 7) }, { maxMatches: 20 });
  const jp = o.matches.find((m) => m.entity.id === 'jp_mof:j1')!;
  const best = o.matches.filter((m) => birth(m) > 0);
  assert.equal(best.length, 3);
  assert.ok(jp.matchScore > best[0]!.matchScore, 'the scenario: the undated row scores higher');
  // the top match is a corroborated row, and the risk is its party's: best row + 6 for three lists
  assert.ok(birth(o.matches[0]!) > 0, o.matches[0]!.entity.id);
  assert.equal(o.riskScore, Math.round((o.matches[0]!.matchScore + 6) * 10) / 10);
  assert.ok(o.riskScore > jp.matchScore);
  // the other matches keep their order
  assert.ok(o.matches.slice(1).every((m, i, xs) => i === 0 || m.matchScore <= xs[i - 1]!.matchScore));
  // without a birth date the exact name leads: three lists (+6) do not make up the gap
  const bare = idx.screen({ name: 'Vladimir Putin' });
  assert.equal(bare.matches[0]!.entity.id, 'jp_mof:j1');
  assert.equal(bare.riskScore, bare.matches[0]!.matchScore);
});

test('the risk is never below the best match, also under the medium boundary', () => {
  const idx = MatchingIndex.build([uk, ...filler()]);
  const o = idx.screen({ name: 'Vladimir Putilin' }, { floor: 0 });
  assert.ok(o.matches.length > 0);
  assert.ok(o.riskScore >= o.matches[0]!.matchScore, `${o.riskScore} < ${o.matches[0]!.matchScore}`);
});
